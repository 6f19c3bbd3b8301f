"""Numbers in routes, queries and forms beyond what SQLite holds answer 404, never 500.

The walk is made from the app's own url_map: every route, every method, each int path
argument and each number a query or a form carries (the forms as the pages render them,
so a POST reaches the code behind its checks) replaced by 0, −1, 2**63, a 5000-digit
number and «²» (a digit to str.isdigit, not to int). Nothing may answer 5xx, and nothing
may be logged but single lines without the long numbers.
"""

from __future__ import annotations

import html as html_lib
import logging
import re
from urllib.parse import parse_qsl, urlsplit

import pytest
from app_forms import forms_of, pages, walk_app
from reliability_rig import csrf_of
from url_rules import rule_paths

HUGE = "9" * 5000
BAD = ("0", "-1", str(2**63), HUGE, "\u00b2")
# Every number the app reads from a query string (checked against the code below).
QUERY_INTS = ("page", "season", "slot", "history", "edit", "ref", "version", "rev", "after",
              "player", "keep", "gone", "seat", "change", "game")


@pytest.fixture
def walked(app):
    """The app with something on every form (app_forms.walk_app)."""
    return walk_app(app)


def shape(fields: dict[str, str]) -> tuple:
    """What tells two forms (or links) of one route apart: their fields and the choices
    among them (kind, action, when), not their numbers or texts."""
    return (frozenset(fields), fields.get("kind"), fields.get("action"), fields.get("when"))


def path_values(w, pattern: str, rule) -> dict[str, str]:
    """Valid values of a route's arguments (the link it is walked under): this game's
    tokens and ids."""
    row = w["row"]
    token = {"/g/": row.edit_token, "/v/": row.view_token, "/s/": w["share"]}
    out = {}
    for name in rule.arguments:
        if name == "link":
            out[name] = pattern[1]
        elif name == "token":
            # «Play again» is on a finished game's page only.
            out[name] = (w["finished"] if rule.rule.endswith("/again")
                         else token[pattern[:3]])
        elif name == "what":
            out[name] = "table" if rule.rule.endswith(".csv") else f"p{w['player']}.games"
        elif name == "code":
            out[name] = "ru"
        elif name == "filename":
            out[name] = "app.css"
        else:
            slot = w["deleted"] if rule.rule.endswith("/restore") else w["slot"]
            out[name] = str({"slot_id": slot, "n": 1, "game_id": w["ids"]["Аня"],
                             "player_id": w["player"], "season_id": w["season"]}[name])
    return out


def build(rule, values: dict[str, str]) -> str:
    """A rule's path with these argument values."""
    path = rule.rule
    for name, value in values.items():
        path = re.sub(rf"<(?:[^:>]+:)?{name}>", value, path)
    return path.replace("<any(table, results):what>", values.get("what", "table"))


def test_every_route_answers_numbers_beyond_sqlite_without_a_500(app, walked, caplog):
    """0, −1, 2**63, 5000 digits and «²» in every int argument, query number and form
    number of every route: 4xx or a page, never 5xx; the log holds no traceback and no
    long number."""
    app.config["PROPAGATE_EXCEPTIONS"] = False  # a 500 is answered (and logged), as served
    w, client = walked, walked["client"]
    bodies: dict[str, list[dict[str, str]]] = {}
    queries: dict[str, list[dict[str, str]]] = {}
    for page in pages(w):
        html = client.get(page).get_data(as_text=True)
        for method, action, fields in forms_of(html):
            known = bodies.setdefault(urlsplit(action).path, [])
            # A form whose action holds a query (?kind=player&ref=…) sends it too: the
            # views read it through request.values.
            fields = {**dict(parse_qsl(urlsplit(html_lib.unescape(action)).query)), **fields}
            # One body per kind of form: the host list's archive buttons differ only in
            # their game, the roster's rename forms in their player.
            if method == "POST" and all(shape(b) != shape(fields) for b in known):
                known.append(fields)
        # The query strings the pages link with (?kind=player&ref=…), one per shape.
        for href in re.findall(r'href="([^"#]+\?[^"#]+)"', html):
            link = urlsplit(html_lib.unescape(href))
            known = queries.setdefault(link.path, [])
            query_ = dict(parse_qsl(link.query))
            if all(shape(q) != shape(query_) for q in known):
                known.append(query_)
    caplog.set_level(logging.INFO)
    failures, unreached, sent = [], [], 0
    for pattern, rule in rule_paths(app):
        if rule.endpoint == "static":
            continue
        good = path_values(w, pattern, rule)
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            base = (bodies.get(build(rule, good)) if method == "POST"
                    else [{}] + queries.get(build(rule, good), []))
            if base is None:
                unreached.append(f"{method} {pattern}")
                base = [{"csrf_token": csrf_of(client.get("/club").get_data(as_text=True))}]
            tries: list[tuple[str, dict[str, str]]] = []
            for value in BAD:
                for name in rule.arguments & {a for a, c in rule._converters.items()
                                              if type(c).__name__ != "UnicodeConverter"
                                              and a not in ("filename", "what", "link")}:
                    tries.append((build(rule, {**good, name: value}), base[0]))
                if "what" in rule.arguments and "sources" in rule.rule:
                    tries.append((build(rule, {**good, "what": f"p{value}.games"}), base[0]))
                if method == "GET":
                    for query_ in base:
                        tries.append((build(rule, good),
                                      {**query_, **dict.fromkeys(QUERY_INTS, value)}))
                        if value == str(2**63):
                            tries += [(build(rule, good), {**query_, n: value})
                                      for n in QUERY_INTS]
                    continue
                for body in base:
                    names = {
                        k for k, v in body.items() if re.fullmatch(r"-?[0-9]+", v)} | {
                        k for k in QUERY_INTS if k in body}
                    for name in sorted(names):
                        tries.append((build(rule, good), {**body, name: value}))
            for path, body in tries:
                sent += 1
                if method == "GET":
                    r = client.get(path, query_string=body)
                else:
                    r = client.post(path, data=body)
                if r.status_code >= 500:
                    shown = {k: (v[:12] + "…" if len(v) > 12 else v) for k, v in body.items()
                             if k != "csrf_token"}
                    failures.append(f"{method} {path[:70]} {shown} → {r.status_code}")
    print(f"\nroute params: {sent} requests over {len(list(app.url_map.iter_rules()))} rules")
    assert not failures, f"{len(failures)} of {sent} answers were 5xx:\n" + "\n".join(
        failures[:40])
    # Every POST route was walked with a body a page of the app renders for it.
    assert unreached == [], unreached
    for record in caplog.records:
        text = record.getMessage()
        assert "\n" not in text and record.exc_info is None and not record.exc_text, text[:300]
        assert not re.search(r"[0-9]{20}", text), text[:300]


def test_a_500_log_line_holds_no_long_number(app, caplog):
    """Whatever still fails is logged with its path cut: no number of 20 digits or more."""
    from scorer.web.app import redacted

    line = redacted(f"Exception on /club/sources/p{HUGE}.games [GET]")
    assert HUGE not in line and not re.search(r"[0-9]{20}", line)
    assert "5000 digits" in line
