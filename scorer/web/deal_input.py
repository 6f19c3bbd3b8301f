"""The record-a-deal form: its defaults, and turning what was typed into a record.

The form never scores anything; it only builds a GAME-FORMAT record for the engine.
Field errors found here (a word where a number belongs, two blank points fields) are
keyed like the engine's RuleError: (field, seat).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from markupsafe import Markup, escape

from scorer.engine import ADJUSTMENT_REASONS, SUITS, RuleError, catalog

SUIT_SIGNS = {"hearts": "♥", "diamonds": "♦", "clubs": "♣", "spades": "♠", "ace": "A",
              "half_hearts": "½♥", "half_diamonds": "½♦", "half_clubs": "½♣",
              "half_spades": "½♠"}
ACTIONS = ("play", "raspis", "redeal", "adjustment", "preview")
ADJUST_REASONS = ADJUSTMENT_REASONS
Key = tuple[str, int | None]


@dataclass
class Setup:
    """What the form offers for the next (or an edited) deal."""

    players: tuple[str, ...]
    active: tuple[int, ...]
    dealer: int
    golden: bool
    forced: int | None
    bid_step: int
    max_contract: int
    dark_allowed: bool
    raspis_allowed: bool
    marriage_kinds: tuple[str, ...]
    prikup: str  # "points" | "aces" | "none" (only with 4 players)
    # The amount an adjustment reason must carry under this game's agreements
    # (three nines at the cut: −penalty; four nines: the bonus), to prefill the form.
    reason_amounts: dict[str, int] = field(default_factory=dict)

    @property
    def dark_shown(self) -> bool:
        """Whether the form offers «dark»: agreed, and not on a golden deal (never allowed)."""
        return self.dark_allowed and not self.golden

    @property
    def four(self) -> bool:
        """True with 4 players, when the dealer sits on the talon."""
        return len(self.players) == 4

    def quick_contracts(self) -> list[int]:
        """Quick-pick contract values in steps of bid_step."""
        top = min(self.max_contract, 100 + 9 * self.bid_step)
        return list(range(100, top + 1, self.bid_step))

    def more_contracts(self) -> list[int]:
        """The higher contracts, after the quick ones up to max_contract, in bid_step."""
        quick = self.quick_contracts()
        return list(range(quick[-1] + self.bid_step, self.max_contract + 1, self.bid_step))


def setup_for(game: Any, nxt: Any, dealer: int | None = None) -> Setup:
    """The form setup from the game's agreements and the engine's next-deal state."""
    ag = game.agreements
    n = len(game.players)
    if nxt is not None:
        dealer, golden, forced, active = nxt.dealer, nxt.golden, nxt.forced_declarer, nxt.active
    else:
        dealer = dealer or 0
        golden, forced = False, None
        active = tuple(s for s in range(n) if n < 4 or s != dealer)
    kinds = list(SUITS)
    if ag["ace_marriage"]:
        kinds.append("ace")
    if ag["half_marriage"]:
        kinds += [f"half_{s}" for s in SUITS]
    return Setup(
        players=tuple(game.players), active=tuple(active), dealer=dealer, golden=golden,
        forced=forced, bid_step=ag["bid_step"], max_contract=ag["max_contract"],
        dark_allowed=ag["dark"], raspis_allowed=ag["raspis"], marriage_kinds=tuple(kinds),
        prikup=ag["four_dealer_prikup"] if n == 4 else "none",
        reason_amounts=reason_amounts(ag),
    )


def reason_amounts(ag: Mapping[str, Any]) -> dict[str, int]:
    """The fixed amount of each agreed adjustment reason (the engine refuses any other)."""
    amounts = {}
    if ag["cut_nines_penalty"]:
        amounts["cut_nines"] = -int(ag["penalty"])
    if ag["four_nines_bonus"]:
        amounts["four_nines"] = int(ag["four_nines_bonus"])
    return amounts


@dataclass
class Entry:
    """The form's values as strings (to re-show), plus errors by (field, seat)."""

    values: dict[str, Any] = field(default_factory=dict)
    errors: dict[Key, str] = field(default_factory=dict)

    def get(self, name: str, default: Any = "") -> Any:
        """A submitted (or default) value."""
        return self.values.get(name, default)

    def error(self, name: str, seat: int | None = None) -> str | None:
        """The error shown beside one field."""
        return self.errors.get((name, seat))


def defaults(setup: Setup) -> Entry:
    """A fresh form for the next deal."""
    values: dict[str, Any] = {
        "declarer": "" if setup.forced is None else str(setup.forced),
        "contract": "120" if setup.golden else "",
        "dark": False,
    }
    for seat in setup.active:
        values[f"points_{seat}"] = ""
        values[f"nt_{seat}"] = True  # "took no trick" is pre-checked for a 0
        values[f"mar_{seat}"] = []
    return Entry(values)


def from_record(setup: Setup, record: Mapping[str, Any]) -> Entry:
    """A form pre-filled from an existing record (to edit it)."""
    entry = defaults(setup)
    v = entry.values
    kind = record.get("type")
    v["type"] = kind
    if kind in ("play", "raspis"):
        v["declarer"] = str(record.get("declarer", ""))
        v["contract"] = str(record.get("contract", ""))
        v["dark"] = bool(record.get("dark"))
        prikup = record.get("prikup") or {}
        v["prikup_points"] = str(prikup.get("points", "")) if prikup else ""
        v["prikup_marriage"] = prikup.get("marriage") or ""
        v["prikup_aces"] = str(prikup.get("aces", "") or "")
    if kind == "play":
        points = record.get("points") or []
        no_tricks = set(record.get("no_tricks") or [])
        marriages = record.get("marriages") or {}
        for seat in setup.active:
            p = points[seat] if seat < len(points) else None
            v[f"points_{seat}"] = "" if p is None else str(p)
            v[f"nt_{seat}"] = seat in no_tricks or p != 0
            v[f"mar_{seat}"] = list(marriages.get(str(seat), []))
    if kind == "redeal":
        v["reason"] = record.get("reason") or ""
    if kind == "adjustment":
        v["player"] = str(record.get("player", ""))
        v["amount"] = str(record.get("amount", ""))
        v["reason"] = record.get("reason") or ""
    return entry


def read(setup: Setup, form: Mapping[str, Any],
         getlist: Callable[[str], list[str]]) -> tuple[str, Entry]:
    """Copy the submitted values into an Entry and return the chosen action."""
    action = form.get("action", "play")
    if action not in ACTIONS:
        action = "play"
    v: dict[str, Any] = {
        "declarer": form.get("declarer", ""),
        "contract": form.get("contract", "").strip(),
        "dark": bool(form.get("dark")),
        "prikup_points": form.get("prikup_points", "").strip(),
        "prikup_marriage": form.get("prikup_marriage", ""),
        "prikup_aces": form.get("prikup_aces", "").strip(),
        "player": form.get("player", ""),
        "amount": form.get("amount", "").strip(),
        "amount_minus": bool(form.get("amount_minus")),
        "reason": form.get("reason", ""),
    }
    for seat in setup.active:
        v[f"points_{seat}"] = form.get(f"points_{seat}", "").strip()
        v[f"nt_{seat}"] = bool(form.get(f"nt_{seat}"))
        v[f"mar_{seat}"] = [m for m in getlist(f"mar_{seat}") if m in setup.marriage_kinds]
    return action, Entry(v)


def number(entry: Entry, name: str, key: Key, *, blank_ok: bool = False) -> int | None:
    """Read an integer field; record an error beside it if it is not one."""
    text = str(entry.get(name, "")).replace("−", "-").strip()
    if text == "":
        if not blank_ok:
            entry.errors[key] = _("Required.")
        return None
    try:
        return int(text)
    except ValueError:
        entry.errors[key] = _("Enter a whole number.")
        return None


def build(setup: Setup, action: str, entry: Entry) -> dict[str, Any] | None:
    """The record the form describes, or None if a field could not be read."""
    if action == "redeal":
        return {"type": "redeal"}
    if action == "adjustment":
        return build_adjustment(entry, setup.reason_amounts)
    kind = "raspis" if action == "raspis" else "play"
    declarer = number(entry, "declarer", ("declarer", None))
    contract = number(entry, "contract", ("contract", None))
    record: dict[str, Any] = {"type": kind, "declarer": declarer, "contract": contract}
    if entry.get("dark"):
        record["dark"] = True
    if setup.four and setup.prikup != "none":
        record["prikup"] = build_prikup(setup, entry)
    if kind == "play":
        record.update(build_points(setup, entry, declarer))
    return None if entry.errors else record


def build_adjustment(entry: Entry, fixed: Mapping[str, int] | None = None) -> dict[str, Any] | None:
    """An adjustment record: player, signed amount, reason.

    A blank amount takes the reason's fixed amount (what the page's script prefills), and
    the «minus» box makes it negative: phone keypads for numbers often have no minus key.
    """
    fixed = fixed or {}
    player = number(entry, "player", ("player", None))
    reason = entry.get("reason") or "other"
    if reason not in ADJUST_REASONS:
        reason = "other"
    if str(entry.get("amount", "")).strip() == "" and reason in fixed:
        entry.values["amount"] = str(fixed[reason])
    amount = number(entry, "amount", ("amount", None))
    if amount is not None and entry.get("amount_minus"):
        amount = -abs(amount)
    if entry.errors:
        return None
    return {"type": "adjustment", "player": player, "amount": amount, "reason": reason}


def build_prikup(setup: Setup, entry: Entry) -> dict[str, Any]:
    """The 4-player talon: card points, a marriage lying in it, and aces if counted."""
    prikup: dict[str, Any] = {
        "points": number(entry, "prikup_points", ("prikup", None)),
        "marriage": entry.get("prikup_marriage") or None,
    }
    if setup.prikup == "aces":
        prikup["aces"] = number(entry, "prikup_aces", ("prikup", None), blank_ok=True) or 0
    return prikup


def build_points(setup: Setup, entry: Entry, declarer: int | None) -> dict[str, Any]:
    """Points, marriages and no-trick seats; one blank points field is filled as 120 − the rest."""
    points: list[int | None] = [None] * len(setup.players)
    blanks = []
    for seat in setup.active:
        value = number(entry, f"points_{seat}", ("points", seat), blank_ok=True)
        if value is None and ("points", seat) not in entry.errors:
            blanks.append(seat)
        points[seat] = value
    if len(blanks) == 1:
        # What the page's script does as you type: the last blank is 120 minus the rest.
        seat = blanks[0]
        points[seat] = 120 - sum(p for s, p in enumerate(points) if s != seat and p is not None)
        entry.values[f"points_{seat}"] = str(points[seat])
    elif len(blanks) > 1:
        for seat in blanks:
            entry.errors[("points", seat)] = _("Enter the points (only one may stay blank).")
    no_tricks = [
        s for s in setup.active if points[s] == 0 and entry.get(f"nt_{s}")
    ]
    marriages = {str(s): list(entry.get(f"mar_{s}")) for s in setup.active if entry.get(f"mar_{s}")}
    return {"points": points, "marriages": marriages, "no_tricks": no_tricks}


# The web's wording of refusals that name a seat or a suit: the player's name and the
# suit's Russian name, never "seat 2" or "hearts" (the CLI keeps RULES.md §10's shape).
SEAT_TEXTS = {
    "declarer.active": _l("%(name)s does not play this deal (the dealer sits on the talon)."),
    "declarer.golden": _l("On a golden deal %(name)s is the declarer."),
    "points.inactive": _l("%(name)s sits on the talon: leave the points blank."),
    "points.missing": _l("Enter the card points of %(name)s."),
    "points.range": _l("%(name)s: the points must be 0 to 120 (got %(got)s)."),
    "points.one": _l("%(name)s: %(got)s is impossible (no card is worth 1 point)."),
    "marriages.inactive": _l("%(name)s does not play this deal."),
    "no_tricks.inactive": _l("%(name)s does not play this deal."),
    "marriages.no_tricks": _l("%(name)s took no trick, so could declare no marriage."),
    "no_tricks.points": _l("%(name)s took no trick but has %(got)s points."),
    "dark.first_hand": _l("Only the first hand (%(name)s) may play dark."),
    "raspis.limit": _l("%(name)s has used all %(max)s concessions."),
    "amount.total": _l("This would take the score of %(name)s to %(total)s, beyond ±%(max)s."),
    "marriages.twice": _l("%(suit)s: declared more than once."),
    "marriages.half_used": _l("%(suit)s: a suit is declared once per deal (whole or half)."),
    "marriages.suit": _l("Unknown marriage."),
    "player.range": _l("Choose a player."),
    "seat": _l("Choose a player."),
}
SUIT_NAMES = {"hearts": _l("hearts ♥"), "diamonds": _l("diamonds ♦"), "clubs": _l("clubs ♣"),
              "spades": _l("spades ♠"), "ace": _l("ace marriage")}
# Fields in the order the form shows them: the first wrong one gets the focus.
FIELD_ORDER = ("declarer", "contract", "dark", "points", "marriages", "no_tricks", "prikup",
               "player", "amount", "reason")


def suit_name(suit: object) -> str:
    """A suit (or half marriage) as the player reads it."""
    text = str(suit)
    if text.startswith("half_") and text[5:] in SUIT_NAMES:
        return str(_("half %(suit)s", suit=SUIT_NAMES[text[5:]]))
    return str(SUIT_NAMES.get(text, text))


def refusal_words(err: RuleError, players: tuple[str, ...] | list[str], code: str) -> str:
    """The rule of a refusal in words, with names for seats and suits, without [ids]."""
    seat = err.seat if err.seat is not None else err.params.get("expected")
    template = SEAT_TEXTS.get(err.rule)
    if template is not None:
        name = players[seat] if isinstance(seat, int) and 0 <= seat < len(players) else "?"
        params = {k: v for k, v in err.params.items() if k != "suit"}
        return str(template) % {**params, "name": name,
                                "suit": suit_name(err.params.get("suit", ""))}
    return re.sub(r"\s*\[\w+\]", "", err.text(code))


def refusal(err: RuleError, players: tuple[str, ...] | list[str], code: str, rules_url: str,
            *, deal: bool) -> Markup:
    """A refusal for the web form: words, the agreement's title linked to the rules sheet,
    and (deal=True) which deal it is about."""
    text = escape(refusal_words(err, players, code))
    if deal:
        where = _("Deal %(n)d", n=err.deal) if err.deal is not None else _("Game")
        text = escape(where) + Markup(": ") + text
    spec = catalog().agreements.get(err.agreement) if err.agreement else None
    if spec is not None:
        text += Markup(' — <a href="%s#%s">%s</a>') % (rules_url, spec.id, spec.title[code])
    return Markup(text)


def input_id(setup: Setup, name: str, seat: int | None) -> str:
    """The id of the input an error is about (where the focus goes)."""
    if name in ("points", "marriages", "no_tricks"):
        return f"points_{seat if seat is not None else setup.active[0]}"
    if name == "declarer":
        return f"declarer_{setup.active[0]}"
    if name == "prikup":
        return "prikup_points"
    return name


def first_wrong(setup: Setup, errors: dict[Key, Any],
                shown: Callable[[str, int | None], bool]) -> str | None:
    """The id of the first field (in form order) with an error beside it, or None."""
    keys = [k for k in errors if shown(*k)]
    keys.sort(key=lambda k: (FIELD_ORDER.index(k[0]) if k[0] in FIELD_ORDER else 99,
                             setup.active.index(k[1]) if k[1] in setup.active else -1))
    return input_id(setup, *keys[0]) if keys else None
