"""The web's incremental scoring (kept engine states, snapshots) equals a full replay."""

from __future__ import annotations

import sys
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "engine"))

from strategies import game_logs  # noqa: E402

from scorer.engine import RuleError  # noqa: E402
from scorer.store import DealSlot, GameRow  # noqa: E402
from scorer.web import replay_cache as cache  # noqa: E402

SETTINGS = settings(max_examples=40, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def loaded_of(log: dict, snapshot: int) -> cache.Loaded:
    """A Loaded as the web keeps it for this log (states every `snapshot` deals)."""
    head = {k: v for k, v in log.items() if k != "deals"}
    row = GameRow(1, "e", "v", head, 1, "", "")
    slots = cache.Slots(DealSlot(i + 1, i + 1, r) for i, r in enumerate(log["deals"]))
    old, cache.SNAPSHOT = cache.SNAPSHOT, snapshot
    try:
        game, protocol, states = cache.parsed_run(row, log["deals"])
    finally:
        cache.SNAPSHOT = old
    return cache.Loaded(row, 1, slots, game, protocol, None, "g", states)


def full(row: GameRow, records: list[dict]):
    """The full replay's protocol, or the refusal's text."""
    try:
        return cache.run(row, records)[1]
    except RuleError as err:
        return err.message("en")


def outcome(work):
    """work()'s result, or the refusal's text."""
    try:
        return work()
    except RuleError as err:
        return err.message("en")


@SETTINGS
@given(log=game_logs(max_deals=40), data=st.data(), snapshot=st.sampled_from([1, 3, 64]))
def test_new_deal_edit_delete_and_restore_equal_a_full_replay(log, data, snapshot):
    """Adding, replacing, deleting and re-inserting a record at any place, scored from
    the kept states, gives the full replay's protocol (or the same refusal)."""
    records = log["deals"]
    if not records:
        return
    loaded = loaded_of(log, snapshot)
    assert loaded.protocol == cache.run(loaded.row, records)[1]
    index = data.draw(st.integers(0, len(records) - 1), label="index")
    other = records[data.draw(st.integers(0, len(records) - 1), label="other")]
    # An edit of deal index+1 (another deal's record put in its place).
    changed = [*records[:index], other, *records[index + 1:]]
    got = outcome(lambda: cache.score_candidate(loaded, other, index + 1)[1])
    assert got == full(loaded.row, changed)
    # A new deal after the last.
    if loaded.protocol.winner is None:
        got = outcome(lambda: cache.score_candidate(loaded, other, None)[1])
        assert got == full(loaded.row, [*records, other])
    # A delete, and a restore (the record put back in at index).
    without = [*records[:index], *records[index + 1:]]
    assert outcome(lambda: cache.rescore(loaded, without, index)[1]) == full(loaded.row, without)
    inserted = [*records[:index], other, *records[index:]]
    assert (outcome(lambda: cache.rescore(loaded, inserted, index)[1])
            == full(loaded.row, inserted))
    # The state an edit form starts from.
    assert cache.protocol_before(loaded, index) == cache.run(loaded.row, records[:index])[1]


def test_a_kept_candidate_carries_states_that_score_the_next_deal(monkeypatch):
    """The states of a saved candidate resume the next one (the POST after a POST)."""
    monkeypatch.setattr(cache, "SNAPSHOT", 2)
    log = {"format": "thousand-game/1", "players": ["A", "B", "C"],
           "agreements": {"preset": "classic", "overrides": {}}, "first_dealer": 0,
           "deals": [{"type": "redeal"}] * 5}
    loaded = loaded_of(log, 2)
    first = cache.score_candidate(loaded, {"type": "redeal"}, None)
    assert sorted(first.states) == [0, 2, 4, 6]  # snapshots and the end only
    after = cache.Loaded(loaded.row, 2, cache.slots_after(loaded.slots, None, {"type": "redeal"}),
                        first[0], first[1], None, "g", first.states)
    second = cache.score_candidate(after, {"type": "redeal"}, None)
    assert second[1] == cache.run(loaded.row, [{"type": "redeal"}] * 7)[1]
    assert second[2] == 7
