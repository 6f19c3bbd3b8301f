"""The deal form checks no rule of its own: whatever it refuses beyond a field it cannot
read is the engine's RuleError, by its code, shown once, beside its field and seat.

Each case posts the form and asks the engine itself about the same record (its
``blank_points`` where a points field is left blank, else ``Timeline.append``); the page
must show exactly that refusal, worded as the web words the engine's errors."""

from __future__ import annotations

import html as htmllib
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from markupsafe import Markup

from scorer.engine import RuleError, Timeline, blank_points, parse_game
from scorer.web.game import deal_input

NAMES = ("Маргарита", "Вениамин", "Вика")
PAIR = ("Аня", "Борис")

# The engine's rules a played deal's points (and contract) can break through the form:
# (rule, players, form fields, the record the form builds, the seat left blank or None).
CASES = [
    ("points.range", NAMES, {"points_1": "125", "points_2": "0"},
     [None, 125, 0], 0),
    ("points.range", NAMES, {"points_0": "125", "points_1": "130", "points_2": "0"},
     [125, 130, 0], None),  # two slips: the engine names the first, and only it
    ("points.one", NAMES, {"points_0": "100", "points_1": "1", "points_2": "19"},
     [100, 1, 19], None),
    ("points.one", NAMES, {"points_1": "119", "points_2": "0"}, [None, 119, 0], 0),
    ("points.sum", NAMES, {"points_0": "60", "points_1": "35", "points_2": "35"},
     [60, 35, 35], None),
    ("points.over", NAMES, {"points_1": "60", "points_2": "70"}, [None, 60, 70], 0),
    ("points.left", NAMES, {"points_1": "60", "points_2": "59"}, [None, 60, 59], 0),
    ("points.left", NAMES, {"points_0": "1", "points_1": "60", "points_2": "59", "auto": "0"},
     [None, 60, 59], 0),  # what the page's script filled in is the blank field's
    ("points.sum2", PAIR, {"points_0": "100", "points_1": "30"}, [100, 30], None),
]


def head(players) -> dict:
    """A new classic game of these players, Маргарита (seat 0) dealing first."""
    return {"format": "thousand-game/1", "players": list(players),
            "agreements": {"preset": "classic"}, "first_dealer": 0, "deals": []}


def engine_refusal(players, record: dict, blank: int | None) -> RuleError | None:
    """What the engine alone says of the record the form describes (deal 1)."""
    try:
        if blank is not None:
            points = list(record["points"])
            points[blank] = blank_points(points, range(len(players)), blank, 1)
            record = {**record, "points": points}
        Timeline.of(parse_game(head(players))).append(record)
    except RuleError as err:
        return err
    return None


def shown(r) -> list[tuple[str, str]]:
    """(id, text) of every error beside a field of a refused form."""
    page = r.get_data(as_text=True)
    return [(i, htmllib.unescape(re.sub(r"<[^>]+>", "", e))) for i, e in re.findall(
        r'<p class="error" id="(err-[^"]*)" role="alert">(.*?)</p>', page)]


def words(app, err: RuleError, players) -> str:
    """The engine's refusal as the form words it in Russian (tags dropped)."""
    with app.test_request_context("/", headers={"Accept-Language": "ru"}):
        return Markup(deal_input.refusal(err, players, "ru", "/rules", deal=False)).striptags()


def where(err: RuleError) -> str:
    """The id of the error element beside the refusal's field (and seat)."""
    return f"err-{err.field}" + (f"-{err.seat}" if err.seat is not None else "")


@pytest.mark.parametrize("rule, players, fields, points, blank", CASES)
def test_each_points_rule_is_the_engines(app, table, rule, players, fields, points, blank):
    """A bad points post is refused with the engine's own rule, once, beside its field."""
    game = table.new_game(names=players)
    record = {"type": "play", "declarer": 0, "contract": 100, "points": points,
              "marriages": {}, "no_tricks": []}
    err = engine_refusal(players, record, blank)
    assert err is not None and err.rule == rule and err.deal == 1
    r = table.deal(game, expect=422, declarer="0", contract="100", **fields)
    assert shown(r) == [(where(err), words(app, err, players))]
    assert table.slot_ids(game) == []


@pytest.mark.parametrize("rule, fields", [
    ("contract.step", {"contract": "103"}),
    ("contract.min", {"contract": "95"}),
    ("contract.max", {"contract": "305"}),
    ("marriages.ace_off", {"contract": "100", "mar_1": ["ace"]}),  # a forged marriage
    ("marriages.suit", {"contract": "100", "mar_2": ["trumps"]}),
])
def test_other_rules_are_the_engines_too(app, table, rule, fields):
    """The contract's rules and a marriage the form does not offer: the engine's refusal."""
    game = table.new_game(names=NAMES)
    marriages = {k[4:]: v for k, v in fields.items() if k.startswith("mar_")}
    record = {"type": "play", "declarer": 0, "contract": int(fields["contract"]),
              "points": [100, 20, 0], "marriages": marriages, "no_tricks": []}
    err = engine_refusal(NAMES, record, None)
    assert err is not None and err.rule == rule
    r = table.deal(game, expect=422, declarer="0", points_1="20", points_2="0", **fields)
    assert shown(r) == [(where(err), words(app, err, NAMES))]
    assert table.slot_ids(game) == []


POINTS = st.one_of(st.none(), st.integers(-3, 125))


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(points=st.lists(POINTS, min_size=3, max_size=3).filter(lambda p: p.count(None) <= 1))
def test_the_form_refuses_exactly_what_the_engine_refuses(app, table, points):
    """Any points typed (one field at most left blank): the live preview is refused exactly
    when the engine refuses the record, with the engine's rule beside its field and seat."""
    game = table.new_game(names=NAMES)
    blank = points.index(None) if None in points else None
    record = {"type": "play", "declarer": 0, "contract": 100, "points": points,
              "marriages": {}, "no_tricks": []}
    err = engine_refusal(NAMES, record, blank)
    query = {"declarer": "0", "contract": "100", "action": "preview"}
    query.update({f"points_{s}": str(p) for s, p in enumerate(points) if p is not None})
    answer = table.client.get(game + "/preview", query_string=query).get_json()
    if err is None:
        assert answer["ok"], answer
        return
    assert not answer["ok"]
    assert [(e["field"], e["seat"]) for e in answer["errors"]] == [(err.field, err.seat)]
    assert answer["errors"][0]["text"] == words(app, err, NAMES)
