"""Refusals: every bad record or setting is a typed error naming deal, field and rule."""

from __future__ import annotations

import re
from typing import Any

from scorer.engine.texts import N_, Text, tr

# Rule texts by code: the English msgid (Russian in scorer/translations) and the agreement
# the rule rests on, if any. ``{name}`` takes a value from params.
RULE_TEXTS: dict[str, Text] = {
    "json": Text(N_("unreadable JSON ({detail})")),
    "json.size": Text(N_("larger than any game log (at most {max} KB)")),
    "json.containers": Text(N_("more objects and lists ({got}) than any game log holds "
                               "(at most {max})")),
    "json.object": Text(N_("the file must hold one JSON object (a thousand-game/1 log)")),
    "format": Text(N_("must be \"thousand-game/1\" or \"thousand-game/2\"")),
    "format.version": Text(N_("an agreements record needs \"thousand-game/2\"")),
    "unknown_key": Text(N_("unknown key {key!r}")),
    "type": Text(N_("must be {expected}")),
    "players.count": Text(N_("2 to 4 players are needed (got {got})")),
    "players.name": Text(N_("player names must be non-empty strings")),
    "players.long": Text(N_("a name is at most {max} characters")),
    "players.duplicate": Text(N_("player names must differ ({name!r} twice)")),
    "players.lookalike": Text(N_("player names must look different ({name!r} looks like {other!r})")),
    "players.letter": Text(N_("a name needs at least one letter (got {name!r})")),
    "text.hidden": Text(N_("must not hold control or format characters (found {char})")),
    "text.long": Text(N_("at most {max} characters (got {got})")),
    "text.surrogate": Text(N_("is not valid text (a lone surrogate, {char})")),
    "text.unreadable": Text(N_("must not hold unassigned or private-use characters (found {char})")),
    "text.invisible": Text(N_("must not hold characters that show as nothing (found {char})")),
    "text.marks": Text(N_("at most {max} combining marks on one letter")),
    "date.iso": Text(N_("must be a date written YYYY-MM-DD (got {got!r})")),
    "first_dealer.range": Text(N_("must be a seat from 0 to {max} (got {got})")),
    "agreements.unknown": Text(N_("unknown agreement {id!r}")),
    "agreements.preset": Text(N_("unknown preset {name!r}")),
    "agreements.value": Text(N_("{id} must be {expected} (got {got!r})")),
    "deals.limit": Text(N_("at most {max} deals per game")),
    "record.type": Text(N_("must be play, raspis, redeal, adjustment or agreements (got {got!r})")),
    "agreements.fixed": Text(N_("{id} cannot change in a running game")),
    "agreements.target": Text(N_("the target must stay above every score ({max} now)"), "target"),
    "record.object": Text(N_("each deal must be a JSON object")),
    "required": Text(N_("is required")),
    "integer": Text(N_("must be an integer (got {got!r})")),
    "boolean": Text(N_("must be true or false (got {got!r})")),
    "seat": Text(N_("must be a seat from 0 to {max} (got {got!r})")),
    "after_win": Text(N_("the game already has a winner")),
    "declarer.active": Text(N_("seat {seat} does not play this deal (the dealer sits on the talon)")),
    "declarer.golden": Text(N_("on a golden deal the declarer must be seat {expected}"), "forced_bid_seat"),
    "contract.step": Text(N_("must be a multiple of {step}"), "bid_step"),
    "contract.min": Text(N_("must be at least 100")),
    "contract.max": Text(N_("must be at most {max}"), "max_contract"),
    "contract.golden": Text(N_("must be 120 on a golden deal"), "golden_raise"),
    "contract.golden_raise": Text(N_("must be at least 120 on a golden deal"), "golden"),
    "contract.dark": Text(N_("must be 120 in the dark"), "dark"),
    "points.count": Text(N_("one entry per seat is needed ({expected}, got {got})")),
    "points.inactive": Text(N_("seat {seat} sits on the talon: its entry must be null")),
    "points.missing": Text(N_("seat {seat} needs its card points")),
    "points.range": Text(N_("seat {seat}: must be 0 to 120 (got {got})")),
    "points.one": Text(N_("seat {seat}: {got} is impossible (no card is worth 1 point)")),
    "points.sum": Text(N_("must sum to 120 (got {got})")),
    "points.sum2": Text(N_("must sum to at most 120 (got {got})")),
    "points.over": Text(N_("the seats other than {blank} took {sum} card points together, "
                           "more than 120")),
    "points.left": Text(N_("the seats other than {blank} took {sum} card points together, "
                           "which leaves {left} for seat {blank}, and no card is worth 1 point")),
    "marriages.suit": Text(N_("unknown marriage {got!r}")),
    "marriages.inactive": Text(N_("seat {seat} does not play this deal")),
    "marriages.twice": Text(N_("{suit} declared more than once")),
    "marriages.half_used": Text(N_("{suit}: a suit is used once per deal (whole or half)"),
                                "half_marriage"),
    "marriages.ace_off": Text(N_("the ace marriage is not agreed"), "ace_marriage"),
    "marriages.half_off": Text(N_("half marriages are not agreed"), "half_marriage"),
    "marriages.no_tricks": Text(N_("seat {seat} took no trick, so declared no marriage")),
    "marriages.no_tricks_declarer": Text(
        N_("the declarer took no trick, so declared no marriage (not even on the first lead)"),
        "marriage_on_first_lead"),
    "no_tricks.inactive": Text(N_("seat {seat} does not play this deal")),
    "no_tricks.all": Text(N_("somebody must have taken the tricks")),
    "no_tricks.points": Text(N_("seat {seat} took no trick but has {got} points")),
    "dark.off": Text(N_("the dark game is not agreed"), "dark"),
    "dark.first_hand": Text(N_("only the first hand (seat {expected}) may play dark"), "dark"),
    "dark.barrel": Text(N_("no dark game while anybody sits on the barrel"), "dark_not_on_barrel"),
    "dark.golden": Text(N_("no dark game on a golden deal"), "golden"),
    "raspis.off": Text(N_("a concession is not agreed"), "raspis"),
    "raspis.limit": Text(N_("seat {seat} has used its {max} concessions"), "raspis_limit"),
    "raspis.golden": Text(N_("no concession on a golden deal"), "raspis_golden"),
    "raspis.dark": Text(N_("no concession in the dark"), "dark_raspis"),
    "raspis.barrel_player": Text(N_("may not concede while on the barrel"), "raspis_barrel"),
    "raspis.barrel_anybody": Text(N_("nobody may concede while anybody sits on the barrel"), "raspis_barrel"),
    "prikup.four_only": Text(N_("the talon is recorded only with 4 players")),
    "prikup.off": Text(N_("the talon is not recorded"), "four_dealer_prikup"),
    "prikup.required": Text(N_("the talon is required with 4 players"), "four_dealer_prikup"),
    "prikup.points": Text(N_("talon card points must be 0 to 33 (got {got})")),
    "prikup.marriage": Text(N_("a talon marriage must be one suit (got {got!r})")),
    "prikup.aces": Text(N_("talon aces must be 0 to 3 (got {got})")),
    "prikup.aces_required": Text(N_("the number of talon aces is required"), "four_dealer_prikup"),
    "prikup.fit": Text(N_("three cards cannot make {points} points with that marriage and those aces")),
    "player.range": Text(N_("must be a seat from 0 to {max} (got {got!r})")),
    "reason.unknown": Text(N_("must be cut_nines, four_nines, misdeal or other (got {got!r})")),
    "reason.cut_nines_off": Text(N_("the three-nines penalty is not agreed"), "cut_nines_penalty"),
    "reason.four_nines_off": Text(N_("the four-nines bonus is not agreed"), "four_nines_bonus"),
    "amount.cut_nines": Text(N_("must be -{penalty}"), "cut_nines_penalty"),
    "amount.four_nines": Text(N_("must be {bonus}"), "four_nines_bonus"),
    "amount.zero": Text(N_("must not be 0")),
    "amount.range": Text(N_("must be from -{max} to {max} (got {got})")),
    "amount.total": Text(N_("would take seat {seat}'s score to {total}, beyond ±{max}")),
}

# The ``expected`` shapes quoted by the "type" rule, translated when shown.
EXPECTED = (N_("a list"), N_("an object"), N_("a string"), N_("a JSON object"),
            N_("a list of names"), N_("an object of overrides"), N_("{id: value}"))
# Words inside a catalog shape such as ``null | int 100…300``.
_SHAPE_WORDS = {"int": N_("int"), "null": N_("null")}
_SHAPE_WORD = re.compile(r"\b(int|null)\b")


def _expected(text: str, lang: str) -> str:
    """An expected shape in ``lang``: a phrase above, or a catalog shape like int 100…300."""
    if text in EXPECTED:
        return tr(lang, text)
    return _SHAPE_WORD.sub(lambda m: tr(lang, _SHAPE_WORDS[m.group(1)]), text)


MAX_QUOTED = 100  # characters of a refused text quoted back in a message


def _printable(text: str) -> str:
    """A text fit to quote in one line: lone surrogates (which no page or terminal can
    encode) spelled ``\\ud800``, and cut short after MAX_QUOTED characters."""
    text = text.encode("utf-8", "backslashreplace").decode("utf-8")
    return text if len(text) <= MAX_QUOTED else text[:MAX_QUOTED] + "…"


def _quotable(value: Any) -> Any:
    """A value as a message quotes it: a huge integer as 1.2e400 (str() of it is slow, or
    refused past 4300 digits), a text printable and short."""
    if isinstance(value, str):
        return _printable(value)
    if isinstance(value, bool) or not isinstance(value, int) or abs(value) < 10**15:
        return value
    exponent = int((abs(value).bit_length() - 1) * 0.30103)  # log10(2), may be one short
    while abs(value) >= 10 ** (exponent + 1):
        exponent += 1
    lead = abs(value) // 10 ** (exponent - 1)  # the first two digits
    return f"{'-' if value < 0 else ''}{lead // 10}.{lead % 10}e{exponent}"


class RuleError(ValueError):
    """A refused game or record: names the deal, the field and the rule."""

    def __init__(self, deal: int | None, field: str, rule: str, *,
                 agreement: str | None = None, seat: int | None = None, **params: Any):
        self.deal = deal
        self.field = _printable(field)  # a field may be an unknown key of the file
        self.rule = rule
        if agreement is None and rule in RULE_TEXTS:
            agreement = RULE_TEXTS[rule].agreement
        self.agreement = agreement
        self.seat = seat
        self.params = {k: _quotable(v) for k, v in params.items()}
        super().__init__(self.message("en"))

    def text(self, lang: str = "en") -> str:
        """The rule alone, worded in ``lang``, ending in ``[agreement]`` when it rests on one."""
        entry = RULE_TEXTS.get(self.rule)
        template = tr(lang, entry.msgid) if entry else self.rule
        params = {"seat": self.seat, **self.params}
        if isinstance(params.get("expected"), str):
            params["expected"] = _expected(params["expected"], lang)
        try:
            text = template.format(**params)
        except (KeyError, IndexError):
            text = template
        return f"{text} [{entry.agreement}]" if entry and entry.agreement else text

    def message(self, lang: str = "en") -> str:
        """The whole one-line message: ``deal N: FIELD: RULE``."""
        if self.deal is None:
            where = tr(lang, N_("game"))
        else:
            where = tr(lang, N_("deal {n}")).format(n=self.deal)
        return f"{where}: {self.field}: {self.text(lang)}"

    def __str__(self) -> str:
        return self.message("en")
