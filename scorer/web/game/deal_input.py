"""The record-a-deal form: its defaults, and turning what was typed into a record.

The form never scores anything; it only builds a GAME-FORMAT record for the engine.
It checks no rule either: what it finds itself is what stops a record from being built
(a word where a number belongs, two blank points fields), keyed like the engine's
RuleError: (field, seat). Every rule is the engine's, shown by its code (``refusal``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from markupsafe import Markup, escape

from scorer.engine import (
    ADJUSTMENT_REASONS,
    SUITS,
    RuleError,
    blank_points,
    catalog,
    current_agreements,
)

SUIT_SIGNS = {"hearts": "♥", "diamonds": "♦", "clubs": "♣", "spades": "♠", "ace": "A",
              "half_hearts": "½♥", "half_diamonds": "½♦", "half_clubs": "½♣",
              "half_spades": "½♠"}
# preview_raspis, preview_adjustment: that record's effect shown before it is saved.
ACTIONS = ("play", "raspis", "redeal", "adjustment", "preview", "preview_raspis",
           "preview_adjustment")
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
    deal: int = 1  # the number of the deal the form records (or edits)

    @property
    def dark_shown(self) -> bool:
        """Whether the form offers «dark»: agreed, and not on a golden deal (never allowed)."""
        return self.dark_allowed and not self.golden

    @property
    def derives(self) -> bool:
        """Whether the declarer's points are 120 minus the others: the points of three
        players sum to 120; with two the talon may stay out of play (at most 120)."""
        return len(self.active) >= 3

    @property
    def first_hand(self) -> int:
        """The seat left of the dealer: the only one who may play dark."""
        return (self.dealer + 1) % len(self.players)

    @property
    def cutter(self) -> int:
        """The seat right of the dealer, who cuts the deck (three nines at the cut)."""
        return (self.dealer - 1) % len(self.players)

    def reasons(self) -> list[str]:
        """The adjustment reasons this game's agreements allow."""
        return [r for r in ADJUSTMENT_REASONS
                if r not in ("cut_nines", "four_nines") or r in self.reason_amounts]

    def reason_player(self, reason: str) -> str:
        """The seat an adjustment reason concerns by default ("" where nobody can tell)."""
        if reason == "cut_nines":
            return str(self.cutter)
        if reason == "misdeal":
            return str(self.dealer)
        return ""

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


def setup_for(game: Any, nxt: Any, dealer: int | None = None, before: int | None = None,
              agreements: Any = None) -> Setup:
    """The form setup from the agreements in force before record ``before`` (default: after
    the last; ``agreements``: that set, when the caller keeps it) and the engine's
    next-deal state."""
    ag = agreements if agreements is not None else current_agreements(
        game if before is None else game.with_deals(game.deals[:before]))
    deal = (len(game.deals) if before is None else before) + 1
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
        reason_amounts=reason_amounts(ag), deal=deal,
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
        values[f"trick_{seat}"] = False  # a 0 is "no trick" unless ticked otherwise
        values[f"mar_{seat}"] = []
    reasons = setup.reasons()
    if reasons:
        values["reason"] = reasons[0]
        values["player"] = setup.reason_player(reasons[0])
        if reasons[0] in setup.reason_amounts:
            values["amount"] = signed_text(setup.reason_amounts[reasons[0]])
            values["amount_auto"] = values["amount"]
    return Entry(values)


def signed_text(n: int) -> str:
    """An amount as the form shows it, with a real minus sign."""
    return f"\u2212{-n}" if n < 0 else str(n)


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
            v[f"trick_{seat}"] = p == 0 and seat not in no_tricks
            v[f"mar_{seat}"] = list(marriages.get(str(seat), []))
    if kind == "redeal":
        v["reason"] = record.get("reason") or ""
    if kind == "adjustment":
        v["player"] = str(record.get("player", ""))
        v["amount"] = str(record.get("amount", ""))
        v["amount_auto"] = ""
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
        "amount_auto": form.get("amount_auto", "").strip(),
        "auto": form.get("auto", ""),
        "amount_minus": bool(form.get("amount_minus")),
        "reason": form.get("reason", ""),
    }
    for seat in setup.active:
        v[f"points_{seat}"] = form.get(f"points_{seat}", "").strip()
        # The form posts nt_S=1 for every seat and a ticked trick_S for a zero-point
        # trick (three nines), so no box is ticked beside points that are not 0.
        v[f"trick_{seat}"] = bool(form.get(f"trick_{seat}"))
        v[f"nt_{seat}"] = bool(form.get(f"nt_{seat}")) and not v[f"trick_{seat}"]
        v[f"mar_{seat}"] = list(getlist(f"mar_{seat}"))  # the engine refuses a forged one
    return action, Entry(v)


# What a blank field is told, by field: the summary on top shows these words alone, so
# each says which field it is about.
REQUIRED = {
    "declarer": _l("Choose the declarer."),
    "contract": _l("Enter the contract."),
    "prikup": _l("Enter the card points in the talon."),
    "player": _l("Choose the player of the adjustment."),
    "amount": _l("Enter the amount of the adjustment."),
}
WHAT = {
    "contract": _l("Contract"),
    "prikup": _l("Talon"),
    "player": _l("Player"),
    "amount": _l("Amount"),
}


def number(entry: Entry, name: str, key: Key, *, blank_ok: bool = False,
           what: str | None = None) -> int | None:
    """Read an integer field; record an error beside it (naming the field) if it is not one."""
    text = str(entry.get(name, "")).replace("\u2212", "-").strip()
    if text == "":
        if not blank_ok:
            entry.errors[key] = str(REQUIRED.get(key[0], _("Required.")))
        return None
    try:
        return int(text)
    except ValueError:
        label = what if what is not None else str(WHAT.get(key[0], key[0]))
        entry.errors[key] = _("%(what)s: enter a whole number (got %(got)s).",
                              what=label, got=text[:20])
        return None


def build(setup: Setup, action: str, entry: Entry) -> dict[str, Any] | None:
    """The record the form describes, or None if a field could not be read; RuleError
    (the engine's) if the points typed leave the blank field none it could hold."""
    if action == "redeal":
        return {"type": "redeal"}
    if action in ("adjustment", "preview_adjustment"):
        return build_adjustment(entry, setup.reason_amounts)
    kind = "raspis" if action in ("raspis", "preview_raspis") else "play"
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

    A blank amount takes the reason's fixed amount (what the page's script fills in), and
    the «minus» box makes it negative: phone keypads for numbers often have no minus key.
    The amount the form itself filled in (``amount_auto``), left as it was, counts as
    blank: without script, another reason picked takes its own amount, not the first's.
    """
    fixed = fixed or {}
    player = number(entry, "player", ("player", None))
    reason = entry.get("reason") or "other"
    if reason not in ADJUST_REASONS:
        reason = "other"
    amount_text = str(entry.get("amount", "")).strip()
    if amount_text and amount_text == str(entry.get("amount_auto", "")).strip():
        amount_text = ""
        entry.values["amount"] = ""
    if amount_text == "" and reason in fixed:
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
        "points": number(entry, "prikup_points", ("prikup", None), what=str(_l("Talon"))),
        "marriage": entry.get("prikup_marriage") or None,
    }
    if setup.prikup == "aces":
        prikup["aces"] = number(entry, "prikup_aces", ("prikup", None), blank_ok=True,
                                what=str(_l("Aces in the talon"))) or 0
    return prikup


def build_points(setup: Setup, entry: Entry, declarer: int | None) -> dict[str, Any]:
    """Points, marriages and no-trick seats.

    With three active players one blank points field (or the one the page's script
    filled in, named by ``auto``) is 120 minus the others, as the engine works it out
    (``blank_points``): a slip in a typed field is refused beside that field, never as an
    impossible value of the field left blank.
    """
    points: list[int | None] = [None] * len(setup.players)
    blanks = []
    for seat in setup.active:
        value = number(entry, f"points_{seat}", ("points", seat), blank_ok=True,
                       what=str(_("Card points of %(name)s", name=setup.players[seat])))
        if value is None and ("points", seat) not in entry.errors:
            blanks.append(seat)
        points[seat] = value
    auto = str(entry.get("auto", ""))
    derived = None
    if setup.derives and len(blanks) == 1:
        derived = blanks[0]
    elif setup.derives and not blanks and auto.isdigit() and int(auto) in setup.active:
        derived = int(auto)
    for seat in blanks:
        if seat != derived:
            entry.errors[("points", seat)] = (
                _("Enter the card points of %(name)s (only one field may stay blank).",
                  name=setup.players[seat]) if setup.derives
                else _("Enter the card points of %(name)s.", name=setup.players[seat]))
    if derived is not None and not entry.errors:
        entry.values[f"points_{derived}"] = ""  # shown again only if the engine fills it
        points[derived] = blank_points(points, setup.active, derived, setup.deal)
        entry.values[f"points_{derived}"] = str(points[derived])
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
    "raspis.barrel_player": _l("%(name)s sits on the barrel and may not concede."),
    "amount.total": _l("This would take the score of %(name)s to %(total)s, beyond ±%(max)s."),
    "marriages.twice": _l("%(suit)s: declared more than once."),
    "marriages.half_used": _l("%(suit)s: a suit is declared once per deal (whole or half)."),
    "marriages.suit": _l("Unknown marriage."),
    "player.range": _l("Choose a player."),
    "seat": _l("Choose a player."),
}
# Refusals about a field, not a seat: the web says which field (the engine's text alone
# would be «must be a multiple of 5» with no subject).
FIELD_TEXTS = {
    "contract.step": _l("The contract must be a multiple of %(step)s (got %(got)s)."),
    "contract.min": _l("The contract must be at least 100 (got %(got)s)."),
    "contract.max": _l("The contract must be at most %(max)s (got %(got)s)."),
    "contract.golden": _l("On a golden deal the contract is 120 (got %(got)s)."),
    "contract.golden_raise": _l("On a golden deal the contract is at least 120 (got %(got)s)."),
    "contract.dark": _l("In the dark the contract is 120 (got %(got)s)."),
    "points.sum": _l("The card points must sum to 120 (got %(got)s)."),
    "points.sum2": _l("The card points must sum to at most 120 (got %(got)s)."),
}
# Refusals about the points typed beside a field left blank: they name the typed players
# (``others``) and the blank one; the error sits beside the first typed field.
BLANK_TEXTS = {
    "points.over": _l("%(names)s: together %(sum)s card points, more than 120."),
    "points.left": _l("%(names)s: together %(sum)s card points, which leaves %(left)s for "
                      "%(name)s, and no card is worth 1 point."),
}
FIELD_LABELS = {
    "declarer": _l("Declarer"), "contract": _l("Contract"), "dark": _l("Dark game"),
    "points": _l("Card points taken"), "marriages": _l("Marriages"), "no_tricks": _l("Tricks"),
    "prikup": _l("Talon"), "player": _l("Player"), "amount": _l("Amount"),
    "reason": _l("Reason"),
}
# Rules about the seat that must play (``expected``), not the one that was tapped.
EXPECTED_SEAT = {"declarer.golden", "dark.first_hand"}
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


def seat_name(players: tuple[str, ...] | list[str], seat: object) -> str:
    """The name of the player at a seat a refusal quotes ("?" for no such seat)."""
    return players[seat] if isinstance(seat, int) and 0 <= seat < len(players) else "?"


def refusal_words(err: RuleError, players: tuple[str, ...] | list[str], code: str) -> str:
    """The rule of a refusal in words, with names for seats and suits, without [ids]."""
    seat = err.seat if err.seat is not None else err.params.get("expected")
    if err.rule in EXPECTED_SEAT and "expected" in err.params:
        seat = err.params["expected"]  # the tapped seat is the wrong one
    template = SEAT_TEXTS.get(err.rule)
    if template is not None:
        name = seat_name(players, seat)
        params = {k: v for k, v in err.params.items() if k != "suit"}
        return str(template) % {**params, "name": name,
                                "suit": suit_name(err.params.get("suit", ""))}
    if err.rule in FIELD_TEXTS:
        return str(FIELD_TEXTS[err.rule]) % {"got": "?", **err.params}
    if err.rule in BLANK_TEXTS:
        return str(BLANK_TEXTS[err.rule]) % {
            **err.params, "name": seat_name(players, err.params.get("blank")),
            "names": ", ".join(seat_name(players, s) for s in err.params.get("others", ()))}
    text = re.sub(r"\s*\[\w+\]", "", err.text(code))
    label = FIELD_LABELS.get(err.field)
    return f"{label}: {text}" if label is not None else text


def refusal(err: RuleError, players: tuple[str, ...] | list[str], code: str, rules_url: str,
            *, deal: bool) -> Markup:
    """A refusal for the web form: words, the agreement's title linked to the rules sheet,
    and (deal=True) which deal it is about."""
    words = refusal_words(err, players, code)
    spec = catalog().agreements.get(err.agreement) if err.agreement else None
    if spec is None:
        text = escape(words)
    else:
        text = linked_title(words, spec.title[code], f"{rules_url}#{spec.id}")
    if deal:
        where = _("Deal %(n)d", n=err.deal) if err.deal is not None else _("Game")
        text = escape(where) + Markup(": ") + text
    return Markup(text)


def linked_title(words: str, title: str, url: str) -> Markup:
    """The refusal's words with the agreement's title linked: where the words say it
    already («Игра втёмную: игра втёмную не принята»), that mention is the link and a
    field label repeating it goes; else «— Title» is added. The title is said once."""
    label, sep, rest = words.partition(": ")
    if sep and label.casefold() == title.casefold():
        words = rest
    found = re.search(re.escape(title), words, re.IGNORECASE)
    if found is None:
        return escape(words) + Markup(' — <a href="%s">%s</a>') % (url, title)
    return (escape(words[:found.start()]) + Markup('<a href="%s">%s</a>') % (url, found[0])
            + escape(words[found.end():]))


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
