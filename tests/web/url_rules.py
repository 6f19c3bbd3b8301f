"""The app's routes as the paths they answer: a page both game links show is one rule,
``/<any(g, v):link>/<token>…``, walked once as /g/… and once as /v/…."""

from __future__ import annotations

import re

# The prefix of a rule shared by a game's two links (scorer/web/game pages).
BOTH_LINKS = "/<any(g, v):link>/"


def rule_paths(app) -> list[tuple[str, object]]:
    """(path pattern, rule) for every rule of the app: a shared rule once per link."""
    out = []
    for rule in app.url_map.iter_rules():
        if rule.rule.startswith(BOTH_LINKS):
            out += [(f"/{link}/" + rule.rule.removeprefix(BOTH_LINKS), rule) for link in "gv"]
        else:
            out.append((rule.rule, rule))
    return out


def link_free(path: str) -> str:
    """A rule's path with its game-link prefix (/g/, /v/ or both) cut to /*/."""
    return re.sub(r"^(/[gv]/|" + re.escape(BOTH_LINKS) + ")", "/*/", path)
