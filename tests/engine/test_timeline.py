"""Incremental scoring: Timeline, start, advance and resume give exactly a full replay."""

from __future__ import annotations

import copy
from contextlib import contextmanager

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import game_logs, generated_games

from scorer.engine import (
    MAX_DEALS,
    Adjustment,
    Redeal,
    RuleError,
    Timeline,
    advance,
    parse_game,
    replay,
    replay_state,
    resolve_agreements,
    start,
)
from scorer.engine import timeline as timeline_module

GAMES = generated_games(max_deals=60)
# Every prefix of a game is replayed in full here (quadratic), so fewer examples.
FEW = settings(max_examples=max(1, settings.default.max_examples * 3 // 5))


def _game(log: dict):
    """A parsed copy of a generated log."""
    return parse_game(copy.deepcopy(log))


@FEW
@given(GAMES)
def test_advance_equals_full_replay_at_every_prefix(generated):
    """After k advances the state's protocol is the full replay of the first k records."""
    game = _game(generated.log)
    state = start(game)
    states = [state]
    for record in game.deals:
        state = advance(state, record)
        states.append(state)
    for k, kept in enumerate(states):
        prefix = game.with_deals(game.deals[:k])
        assert kept.deals == k
        assert kept.protocol() == replay(prefix)
        assert kept.protocol().to_json("ru") == replay(prefix).to_json("ru")
        assert replay_state(prefix) == kept


@FEW
@given(GAMES)
def test_resuming_from_any_prefix_equals_full_replay(generated):
    """``replay(game, resume=state)`` from any kept state gives the full game's protocol."""
    game = _game(generated.log)
    full = replay(game)
    state = start(game)
    for record in (*game.deals, None):
        assert replay(game, resume=state) == full
        if record is not None:
            state = advance(state, record)
    assert state.protocol() == full


@FEW
@given(GAMES)
def test_advance_never_changes_the_given_state(generated):
    """Advancing twice from one state gives equal states; the state itself stays as it was."""
    game = _game(generated.log)
    state = start(game)
    for record in game.deals:
        before = (repr(state), state.protocol().to_json("en"), dict(state.ag))
        first, second = advance(state, record), advance(state, record)
        assert first == second
        assert first is not second
        assert (repr(state), state.protocol().to_json("en"), dict(state.ag)) == before
        state = first


def test_a_refused_record_leaves_the_state_usable():
    """A refusal raises RuleError with the next deal's number; the state scores on afterwards."""
    game = parse_game({"format": "thousand-game/1", "players": ["A", "B", "C"],
                       "agreements": {"preset": "classic"}, "deals": []})
    state = advance(start(game), Adjustment(player=0, amount=120, reason="other"))
    with pytest.raises(RuleError) as err:
        advance(state, Adjustment(player=0, amount=0, reason="other"))
    assert err.value.deal == 2
    after = advance(state, Redeal())
    assert after.protocol().score == (120, 0, 0)
    assert state.protocol().score == (120, 0, 0) and state.deals == 1


def test_resume_refuses_a_state_of_another_game():
    """A state of other players or other agreements cannot be resumed."""
    log = {"format": "thousand-game/1", "players": ["A", "B", "C"],
           "agreements": {"preset": "classic"}, "deals": [{"type": "redeal"}]}
    game = parse_game(log)
    state = replay_state(game)
    other = parse_game({**log, "players": ["A", "B", "D"]})
    with pytest.raises(ValueError, match="another game"):
        replay(other, resume=state)
    changed = game.__class__(players=game.players,
                             agreements=resolve_agreements("classic", {"samosval": 0}),
                             deals=game.deals)
    with pytest.raises(ValueError, match="another game"):
        replay(changed, resume=state)
    with pytest.raises(ValueError, match="another game"):
        replay(game.with_deals(()), resume=state)


# --- Timeline ------------------------------------------------------------------------


@contextmanager
def snapshots_every(deals: int):
    """Timelines made inside keep a state every ``deals`` records (64 outside)."""
    old, timeline_module.SNAPSHOT = timeline_module.SNAPSHOT, deals
    try:
        yield
    finally:
        timeline_module.SNAPSHOT = old


def full(head: dict, records: list[dict]):
    """A full replay of these records: the protocol, or the refusal's message."""
    try:
        return replay(parse_game(copy.deepcopy({**head, "deals": records})))
    except RuleError as err:
        return err.message("en")


def outcome(change, *args):
    """change(*args), a Timeline, or the refusal's message."""
    try:
        return change(*args)
    except RuleError as err:
        return err.message("en")


@st.composite
def records_for(draw, log: dict) -> dict:
    """A record for this game: one of its own (valid somewhere), a redeal or an adjustment."""
    kind = draw(st.sampled_from(["own", "own", "own", "redeal", "adjustment"]))
    if kind == "own" and log["deals"]:
        return copy.deepcopy(draw(st.sampled_from(log["deals"])))
    if kind == "adjustment":
        return {"type": "adjustment", "player": draw(st.integers(0, len(log["players"]) - 1)),
                "amount": draw(st.sampled_from([-120, -50, 10, 200, 0])), "reason": "other"}
    return {"type": "redeal"}


OPERATIONS = st.lists(st.tuples(st.sampled_from(["append", "replace", "remove", "insert"]),
                                st.integers(0, 10**6)), min_size=1, max_size=6)


def _planned(timeline, records, operation, where, record):
    """(the records after the change, the Timeline method making it, its arguments)."""
    changed = list(records)
    if operation == "append":
        changed.append(record)
        return changed, timeline.append, (record,)
    if operation == "insert":
        index = where % (len(records) + 1)
        changed.insert(index, record)
        return changed, timeline.insert, (index, record)
    index = where % len(records)
    if operation == "remove":
        del changed[index]
        return changed, timeline.replace, (index, None)
    changed[index] = record
    return changed, timeline.replace, (index, record)


@settings(deadline=None)
@given(log=game_logs(max_deals=40), operations=OPERATIONS, data=st.data(),
       snapshot=st.sampled_from([1, 3, 64]))
def test_timeline_changes_equal_a_full_replay(log, operations, data, snapshot):
    """Any sequence of append, replace, remove and insert gives exactly the full replay
    of the resulting records (rows, next, winner), or the same refusal; a refused
    change leaves the timeline as it was."""
    head = {k: v for k, v in log.items() if k != "deals"}
    records = list(log["deals"])
    with snapshots_every(snapshot):
        timeline = Timeline.of(parse_game(copy.deepcopy(log)))
        assert timeline.protocol == full(head, records)
        for operation, where in operations:
            record = data.draw(records_for(log), label="record")
            if not records and operation in ("replace", "remove"):
                continue
            changed, change, args = _planned(timeline, records, operation, where, record)
            got, expected = outcome(change, *args), full(head, changed)
            if isinstance(got, str):
                assert got == expected
                continue
            assert got.protocol == expected
            assert (got.protocol.rows, got.protocol.next, got.protocol.winner) == (
                expected.rows, expected.next, expected.winner)
            assert got.game == parse_game(copy.deepcopy({**head, "deals": changed}))
            timeline, records = got, changed
        index = data.draw(st.integers(0, len(records)), label="before")
        assert timeline.before(index) == full(head, records[:index])


def _redeals(count: int) -> dict:
    """A 3-player classic log of ``count`` redeals."""
    return {"format": "thousand-game/1", "players": ["A", "B", "C"],
            "agreements": {"preset": "classic", "overrides": {}}, "first_dealer": 0,
            "deals": [{"type": "redeal"}] * count}


def test_timeline_append_scores_only_the_new_record(monkeypatch):
    """An append after an append advances the kept end state: nothing is replayed."""
    with snapshots_every(2):
        timeline = Timeline.of(parse_game(_redeals(5)))
        monkeypatch.setattr(timeline_module, "replay_state", None)  # any replay fails
        after = timeline.append({"type": "redeal"}).append({"type": "redeal"})
    assert after.protocol == replay(parse_game(_redeals(7)))
    assert len(after.game.deals) == 7


def test_timeline_edit_resumes_from_the_snapshot_at_or_before_it(monkeypatch):
    """An edit of record k replays from the kept state with k - k % SNAPSHOT records."""
    resumed = []

    def spy(game, resume=None):
        """replay_state, noting where it resumes."""
        resumed.append(resume.deals)
        return replay_state(game, resume)

    with snapshots_every(4):
        timeline = Timeline.of(parse_game(_redeals(10)))
        monkeypatch.setattr(timeline_module, "replay_state", spy)
        edited = timeline.replace(6, {"type": "adjustment", "player": 1, "amount": 50,
                                      "reason": "other"})
        assert resumed[0] == 4
        resumed.clear()
        assert timeline.before(9) == replay(parse_game(_redeals(9)))
        assert resumed == [8]
    assert edited.protocol.score == (0, 50, 0)
    assert edited.protocol.rows[6].n == 7


def test_timeline_refusals_name_the_deal_and_change_nothing():
    """A bad record raises RuleError with its deal number; bad indexes raise IndexError."""
    timeline = Timeline.of(parse_game(_redeals(3)))
    with pytest.raises(RuleError) as err:
        timeline.replace(1, {"type": "adjustment", "player": 0, "amount": 0, "reason": "other"})
    assert err.value.deal == 2
    with pytest.raises(RuleError) as err:
        timeline.append({"type": "nonsense"})
    assert err.value.deal == 4 and err.value.field == "type"
    for bad in (-1, 3):
        with pytest.raises(IndexError):
            timeline.replace(bad, None)
    with pytest.raises(IndexError):
        timeline.insert(4, {"type": "redeal"})
    with pytest.raises(IndexError):
        timeline.before(4)
    assert timeline.protocol == replay(parse_game(_redeals(3)))
    assert timeline.insert(3, {"type": "redeal"}).protocol == replay(parse_game(_redeals(4)))


def test_appends_keep_the_snapshots_a_full_replay_keeps():
    """Appending one record at a time keeps a state at every SNAPSHOT-th record, as
    Timeline.of does, and an edit afterwards resumes from the nearest one."""
    with snapshots_every(4):
        timeline = Timeline.of(parse_game(_redeals(3)))
        for _ in range(6):
            timeline = timeline.append({"type": "redeal"})
        whole = Timeline.of(parse_game(_redeals(9)))
    kept = [state.deals for state in timeline._snapshots]
    assert kept == [state.deals for state in whole._snapshots] == [0, 4, 8]


def test_the_engine_takes_the_last_allowed_deal_and_refuses_the_next():
    """MAX_DEALS records are a game; one more is refused, by append and insert alike."""
    timeline = Timeline.of(parse_game(_redeals(MAX_DEALS - 1)))
    last = timeline.append({"type": "redeal"})
    assert len(last.game.deals) == MAX_DEALS
    for grow in (lambda t: t.append({"type": "redeal"}),
                 lambda t: t.insert(0, {"type": "redeal"})):
        with pytest.raises(RuleError) as err:
            grow(last)
        assert err.value.field == "deals"
    with pytest.raises(RuleError):
        parse_game(_redeals(MAX_DEALS + 1))
    assert len(parse_game(_redeals(MAX_DEALS)).deals) == MAX_DEALS
