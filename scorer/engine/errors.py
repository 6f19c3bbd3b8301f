"""Refusals: every bad record or setting is a typed error naming deal, field and rule."""

from __future__ import annotations

import re
from typing import Any

# Rule texts by code, in English and Russian. ``{name}`` takes a value from params.
RULE_TEXTS: dict[str, tuple[str, str]] = {
    # game level
    "json": ("unreadable JSON ({detail})", "не читается как JSON ({detail})"),
    "format": ("must be \"thousand-game/1\"", "должно быть «thousand-game/1»"),
    "unknown_key": ("unknown key {key!r}", "неизвестный ключ {key!r}"),
    "type": ("must be {expected}", "должно быть: {expected}"),
    "players.count": ("2 to 4 players are needed (got {got})",
                      "нужно от 2 до 4 игроков (указано {got})"),
    "players.name": ("player names must be non-empty strings",
                     "имена игроков — непустые строки"),
    "players.long": ("a name is at most {max} characters", "имя — не длиннее {max} символов"),
    "players.duplicate": ("player names must differ ({name!r} twice)",
                          "имена игроков не должны повторяться ({name!r} дважды)"),
    "text.hidden": ("must not hold control or format characters (found {char})",
                    "не должно содержать управляющих и невидимых символов (найден {char})"),
    "first_dealer.range": ("must be a seat from 0 to {max} (got {got})",
                           "должен быть номер места от 0 до {max} (указано {got})"),
    "agreements.unknown": ("unknown agreement {id!r}", "неизвестная договорённость {id!r}"),
    "agreements.preset": ("unknown preset {name!r}", "неизвестный набор {name!r}"),
    "agreements.value": ("{id} must be {expected} (got {got!r})",
                         "{id}: нужно {expected} (указано {got!r})"),
    "deals.limit": ("at most {max} deals per game", "не больше {max} конов за игру"),
    # record shape
    "record.type": ("must be play, raspis, redeal or adjustment (got {got!r})",
                    "должен быть play, raspis, redeal или adjustment (указано {got!r})"),
    "record.object": ("each deal must be a JSON object", "каждый кон — объект JSON"),
    "required": ("is required", "обязательное поле"),
    "integer": ("must be an integer (got {got!r})", "нужно целое число (указано {got!r})"),
    "boolean": ("must be true or false (got {got!r})", "нужно true или false (указано {got!r})"),
    "seat": ("must be a seat from 0 to {max} (got {got!r})",
             "нужен номер места от 0 до {max} (указано {got!r})"),
    # validation of docs/RULES.md §3
    "after_win": ("the game already has a winner", "в игре уже есть победитель"),
    "declarer.active": ("seat {seat} does not play this deal (the dealer sits on the talon)",
                        "место {seat} не играет в этом коне (сдающий сидит на прикупе)"),
    "declarer.golden": ("on a golden deal the declarer must be seat {expected} [forced_bid_seat]",
                        "на золотом коне заказчик — место {expected} [forced_bid_seat]"),
    "contract.step": ("must be a multiple of {step} [bid_step]", "должен быть кратен {step} [bid_step]"),
    "contract.min": ("must be at least 100", "не меньше 100"),
    "contract.max": ("must be at most {max} [max_contract]", "не больше {max} [max_contract]"),
    "contract.golden": ("must be 120 on a golden deal", "на золотом коне заказ — 120"),
    "contract.golden_raise": ("must be at least 120 on a golden deal",
                              "на золотом коне заказ — не меньше 120"),
    "contract.dark": ("must be 120 in the dark", "при игре втёмную заказ — 120"),
    "points.count": ("one entry per seat is needed ({expected}, got {got})",
                     "нужно по числу мест ({expected}, указано {got})"),
    "points.inactive": ("seat {seat} sits on the talon: its entry must be null",
                        "место {seat} сидит на прикупе: его значение — null"),
    "points.missing": ("seat {seat} needs its card points", "у места {seat} не указаны очки"),
    "points.range": ("seat {seat}: must be 0 to 120 (got {got})",
                     "место {seat}: от 0 до 120 (указано {got})"),
    "points.one": ("seat {seat}: {got} is impossible (no card is worth 1 point)",
                   "место {seat}: {got} невозможно (нет карты в 1 очко)"),
    "points.sum": ("must sum to 120 (got {got})", "сумма должна быть 120 (получилось {got})"),
    "points.sum2": ("must sum to at most 120 (got {got})",
                    "сумма — не больше 120 (получилось {got})"),
    "marriages.suit": ("unknown marriage {got!r}", "неизвестный марьяж {got!r}"),
    "marriages.inactive": ("seat {seat} does not play this deal",
                           "место {seat} не играет в этом коне"),
    "marriages.twice": ("{suit} declared more than once", "{suit}: объявлен больше одного раза"),
    "marriages.half_used": ("{suit}: a suit is used once per deal (whole or half)",
                            "{suit}: масть объявляется один раз за кон (целый или полумарьяж)"),
    "marriages.ace_off": ("the ace marriage is not agreed [ace_marriage]",
                          "тузовый марьяж не принят [ace_marriage]"),
    "marriages.half_off": ("half marriages are not agreed [half_marriage]",
                           "полумарьяжи не приняты [half_marriage]"),
    "marriages.no_tricks": ("seat {seat} took no trick, so declared no marriage",
                            "место {seat} не взяло ни одной взятки и не могло хвалить"),
    "no_tricks.inactive": ("seat {seat} does not play this deal", "место {seat} не играет в этом коне"),
    "no_tricks.all": ("somebody must have taken the tricks", "кто-то должен был взять взятки"),
    "no_tricks.points": ("seat {seat} took no trick but has {got} points",
                         "место {seat} без взяток, но очков: {got}"),
    "dark.off": ("the dark game is not agreed [dark]", "игра втёмную не принята [dark]"),
    "dark.first_hand": ("only the first hand (seat {expected}) may play dark",
                        "втёмную играет только первая рука (место {expected})"),
    "dark.barrel": ("no dark game while anybody sits on the barrel [dark_not_on_barrel]",
                    "втёмную нельзя, пока кто-то на бочке [dark_not_on_barrel]"),
    "dark.golden": ("no dark game on a golden deal", "на золотом коне втёмную нельзя"),
    "raspis.off": ("a concession is not agreed [raspis]", "роспись не принята [raspis]"),
    "raspis.limit": ("seat {seat} has used its {max} concessions [raspis_limit]",
                     "место {seat} исчерпало росписи ({max}) [raspis_limit]"),
    "raspis.golden": ("no concession on a golden deal [raspis_golden]",
                      "на золотом коне расписаться нельзя [raspis_golden]"),
    "raspis.dark": ("no concession in the dark [dark_raspis]",
                    "втёмную расписаться нельзя [dark_raspis]"),
    "raspis.barrel_player": ("may not concede while on the barrel [raspis_barrel]",
                             "на бочке расписаться нельзя [raspis_barrel]"),
    "raspis.barrel_anybody": ("nobody may concede while anybody sits on the barrel "
                              "[raspis_barrel]",
                              "никто не расписывается, пока кто-то на бочке [raspis_barrel]"),
    "prikup.four_only": ("the talon is recorded only with 4 players",
                         "прикуп записывается только при игре вчетвером"),
    "prikup.off": ("the talon is not recorded [four_dealer_prikup]",
                   "прикуп не записывается [four_dealer_prikup]"),
    "prikup.required": ("the talon is required with 4 players [four_dealer_prikup]",
                        "при игре вчетвером нужен прикуп [four_dealer_prikup]"),
    "prikup.points": ("talon card points must be 0 to 33 (got {got})",
                      "очки прикупа — от 0 до 33 (указано {got})"),
    "prikup.marriage": ("a talon marriage must be one suit (got {got!r})",
                        "марьяж в прикупе — одна масть (указано {got!r})"),
    "prikup.aces": ("talon aces must be 0 to 3 (got {got})", "тузов в прикупе — от 0 до 3 (указано {got})"),
    "prikup.aces_required": ("the number of talon aces is required [four_dealer_prikup]",
                             "нужно число тузов в прикупе [four_dealer_prikup]"),
    "prikup.fit": ("three cards cannot make {points} points with that marriage and those aces",
                   "три карты не дают в сумме {points} с таким марьяжем и тузами"),
    "player.range": ("must be a seat from 0 to {max} (got {got!r})",
                     "нужен номер места от 0 до {max} (указано {got!r})"),
    "reason.unknown": ("must be cut_nines, four_nines, misdeal or other (got {got!r})",
                       "должна быть cut_nines, four_nines, misdeal или other (указано {got!r})"),
    "reason.cut_nines_off": ("the three-nines penalty is not agreed [cut_nines_penalty]",
                             "штраф за три девятки не принят [cut_nines_penalty]"),
    "reason.four_nines_off": ("the four-nines bonus is not agreed [four_nines_bonus]",
                              "бонус за четыре девятки не принят [four_nines_bonus]"),
    "amount.cut_nines": ("must be -{penalty} [cut_nines_penalty]",
                         "должно быть −{penalty} [cut_nines_penalty]"),
    "amount.four_nines": ("must be {bonus} [four_nines_bonus]",
                          "должно быть {bonus} [four_nines_bonus]"),
    "amount.zero": ("must not be 0", "не может быть 0"),
}


# The ``expected`` shapes quoted by the "type" rule, in Russian.
EXPECTED_RU = {
    "a list": "список",
    "an object": "объект",
    "a string": "строка",
    "a JSON object": "объект JSON",
    "a list of names": "список имён",
    "an object of overrides": "объект с изменениями договорённостей",
    "{id: value}": "{id: значение}",
}


def _expected_ru(text: str) -> str:
    """Russian for an expected shape: a phrase above, or a catalog shape like int 100…300."""
    if text in EXPECTED_RU:
        return EXPECTED_RU[text]
    return re.sub(r"\bint\b", "целое", text).replace("null", "пусто")


class RuleError(ValueError):
    """A refused game or record: names the deal, the field and the rule."""

    def __init__(self, deal: int | None, field: str, rule: str, *,
                 agreement: str | None = None, seat: int | None = None, **params: Any):
        self.deal = deal
        self.field = field
        self.rule = rule
        if agreement is None:
            found = re.search(r"\[(\w+)\]", RULE_TEXTS.get(rule, ("", ""))[0])
            agreement = found.group(1) if found else None
        self.agreement = agreement
        self.seat = seat
        self.params = params
        super().__init__(self.message("en"))

    def text(self, lang: str = "en") -> str:
        """The rule alone, worded in ``lang``."""
        en, ru = RULE_TEXTS.get(self.rule, (self.rule, self.rule))
        template = ru if lang == "ru" else en
        params = {"seat": self.seat, **self.params}
        if lang == "ru" and isinstance(params.get("expected"), str):
            params["expected"] = _expected_ru(params["expected"])
        try:
            return template.format(**params)
        except (KeyError, IndexError):
            return template

    def message(self, lang: str = "en") -> str:
        """The whole one-line message: ``deal N: FIELD: RULE``."""
        if self.deal is None:
            where = "игра" if lang == "ru" else "game"
        else:
            where = f"кон {self.deal}" if lang == "ru" else f"deal {self.deal}"
        return f"{where}: {self.field}: {self.text(lang)}"

    def __str__(self) -> str:
        return self.message("en")
