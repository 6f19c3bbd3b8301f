"""A second, deliberately plain reading of docs/RULES.md §4-§6 for differential testing.

It is test code, not part of the product: it computes only score deltas and the
winner, straight from the spec's numbered steps, so random games can be replayed by
both it and the engine and every row compared. It works on the JSON records and the
resolved agreement mapping only.
"""

from __future__ import annotations

from dataclasses import dataclass, field

VALUES = {"hearts": 100, "diamonds": 80, "clubs": 60, "spades": 40, "ace": 200}


def marriage_points(names) -> int:
    """Declared marriages in points (half marriages at half price)."""
    return sum(VALUES[m] if m in VALUES else VALUES[m[5:]] // 2 for m in names)


def rounded(points: int, mode: str) -> int:
    """docs/RULES.md §4 step 2, written out independently of the engine."""
    step = {"nearest5": 5, "nearest10": 10}.get(mode)
    if step is None:
        return points
    rest = points % step
    return points - rest if rest * 2 < step else points + step - rest


@dataclass
class Credit:
    """One amount for one seat, with what it is for (the barrel freeze needs to know)."""

    amount: int
    kind: str  # "own_made", "own_failed", "defender", "talon", "payout", "penalty"


@dataclass
class Model:
    """The state between records."""

    ag: dict
    players: int
    dealer: int
    score: list[int] = field(default_factory=list)
    bolts: list[int] = field(default_factory=list)
    falls: list[int] = field(default_factory=list)
    raspis: list[int] = field(default_factory=list)
    barrel: dict[int, int] = field(default_factory=dict)  # seat -> attempts used
    golden_left: int = 0
    golden_made: bool = False
    winner: int | None = None

    def __post_init__(self):
        n = self.players
        self.score, self.bolts, self.falls, self.raspis = [0] * n, [0] * n, [0] * n, [0] * n
        self.golden_left = n if self.ag["golden"] else 0

    # -- helpers ---------------------------------------------------------------
    def reaches(self, total: int) -> bool:
        """Step 12's test of the target."""
        target = self.ag["target"]
        if self.ag["barrel"] and self.ag["barrel_win_over_target"]:
            return total > target
        return total >= target  # with the barrel off the agreement changes nothing

    def active(self) -> list[int]:
        """Seats that play this deal."""
        return [s for s in range(self.players) if self.players != 4 or s != self.dealer]

    def fall(self, seat: int, zero: bool, cause: str) -> None:
        """A barrel fall: off the barrel, −penalty (or to zero), counted."""
        self.barrel.pop(seat, None)
        self.score[seat] = 0 if zero else self.score[seat] - self.ag["penalty"]
        if self.ag["three_falls_count"] == "all" or cause == "attempts":
            self.falls[seat] += 1
            # Step 14, read with §10 ("on the third the penalty applies and then the score
            # becomes 0"): at the moment of the third fall, so he cannot sit down again.
            if self.ag["barrel_three_falls_zero"] and self.falls[seat] >= 3:
                self.score[seat] = 0
                self.falls[seat] = 0

    # -- one record ----------------------------------------------------------------
    def apply(self, rec: dict) -> list[int]:
        """Apply one record; return the row's delta."""
        before = list(self.score)
        kind = rec["type"]
        if kind == "adjustment":
            self.adjust(rec)
        elif kind in ("play", "raspis"):
            self.deal(rec)
        return [a - b for a, b in zip(self.score, before, strict=True)]

    def adjust(self, rec: dict) -> None:
        """§4 last paragraph: the amount (frozen if positive on the barrel), then 11-14."""
        seat, amount = rec["player"], rec["amount"]
        started = dict(self.barrel)
        if not (seat in self.barrel and amount > 0):
            self.score[seat] += amount
        self.leave_below_threshold()
        self.samosval()
        self.decide_winner(None, None, started, set())
        self.enter()
        # RULES.md §10: inside the golden round a misdeal keeps the dealer (one deal per seat).
        if rec["reason"] == "misdeal" and self.ag["misdeal_passes_deal"] and not self.golden_left:
            self.dealer = (self.dealer + 1) % self.players

    def deal(self, rec: dict) -> None:
        """§4 steps 1-14 for a played or conceded deal."""
        ag = self.ag
        golden = self.golden_left > 0
        dark = bool(rec.get("dark"))
        mult = 2 if golden or dark else 1
        d = rec["declarer"]
        active = self.active()
        started = dict(self.barrel)
        credits: dict[int, list[Credit]] = {s: [] for s in range(self.players)}
        made = False
        if rec["type"] == "raspis":
            self.concede(rec, d, active, mult, dark, credits)
        else:
            made = self.play(rec, d, active, mult, dark, golden, credits)
        self.talon(rec, mult, dark, credits)
        # Step 8: the barrel freeze, then credit everything.
        won_on_barrel = set()
        for seat, items in credits.items():
            for c in items:
                if seat in started and c.amount > 0:
                    counts = c.kind == "own_made" or (c.kind == "defender"
                                                      and ag["barrel_defender_win"])
                    if counts and self.reaches(self.score[seat] + c.amount):
                        won_on_barrel.add(seat)
                    else:
                        continue
                if (seat in started and c.kind == "own_failed"
                        and ag["barrel_failed_contract"] == "attempt_only"):
                    continue
                self.score[seat] += c.amount
        # Step 9 bolts, and the raspis penalty of step 7.
        if rec["type"] == "play":
            self.bolt_step(rec, d, active, dark, golden)
        else:
            self.raspis[d] += 1
            if ag["raspis_third_penalty"] and self.raspis[d] % 3 == 0:
                self.score[d] -= self.penalty(golden)
        # Step 10.
        self.leave_below_threshold()
        for seat in list(self.barrel):
            if seat not in started:
                continue
            if seat in active or ag["barrel_count_sitting_out"]:
                self.barrel[seat] += 1
            limit = ag["barrel_attempts"]
            if seat not in won_on_barrel and limit and self.barrel[seat] >= limit:
                self.fall(seat, ag["barrel_fall"] == "zero", "attempts")
        self.samosval()
        self.decide_winner(d, made, started, won_on_barrel)
        self.enter()
        self.golden_step(golden, made)
        self.dealer = (self.dealer + 1) % self.players

    def penalty(self, golden: bool) -> int:
        """Penalties are never doubled, unless the catalog's golden_double_penalties says so."""
        twice = golden and self.ag["golden_double_penalties"]
        return self.ag["penalty"] * (2 if twice else 1)

    def concede(self, rec, d, active, mult, dark, credits) -> None:
        """§4 step 7."""
        ag, c = self.ag, rec["contract"]
        half = -(-c // 10) * 10 // 2
        payout = {"half": half, "sixty": 60,
                  "sixty_or_half": 60 if c <= 120 else half}[ag["raspis_payout"]]
        if dark:
            credits[d].append(Credit(-240, "own_failed"))
        elif ag["raspis_subtract"]:
            credits[d].append(Credit(-c * mult, "own_failed"))
        for s in active:
            if s != d:
                credits[s].append(Credit(payout * mult, "payout"))

    def play(self, rec, d, active, mult, dark, golden, credits) -> bool:
        """§4 steps 1-4 and 6 for the declarer and the defenders; returns made."""
        ag, mode, c = self.ag, self.ag["rounding"], rec["contract"]
        pts, mar = rec["points"], rec.get("marriages", {})
        declared = {s: marriage_points(mar.get(str(s), [])) for s in active}
        both = ag["double_marriages"]
        taken = (rounded(pts[d], mode) if ag["round_declarer"] else pts[d]) + declared[d]
        made = taken >= c
        if not made:
            credits[d].append(Credit(-c * mult, "own_failed"))
        elif dark and ag["dark_cap_240"]:
            credits[d].append(Credit(240, "own_made"))
        elif dark or ag["declarer_scores"] == "taken":
            own = rounded(pts[d], mode)
            value = (own + declared[d]) * mult if both else own * mult + declared[d]
            credits[d].append(Credit(value, "own_made"))
        else:
            credits[d].append(Credit(c * mult, "own_made"))
        side = 1 if dark and not ag["dark_double_defenders"] else mult
        for s in active:
            if s != d:
                own = rounded(pts[s], mode)
                value = (own + declared[s]) * side if both else own * side + declared[s]
                credits[s].append(Credit(value, "defender"))
        return made

    def talon(self, rec, mult, dark, credits) -> None:
        """§4 step 5 (with the catalog's talon_rounding and dark_double_talon_marriage)."""
        ag, prikup = self.ag, rec.get("prikup")
        if self.players != 4 or prikup is None or ag["four_dealer_prikup"] == "none":
            return
        if ag["four_dealer_prikup"] == "points":
            pts = prikup["points"]
            if ag["talon_rounding"]:
                pts = rounded(pts, ag["rounding"])
            amount = pts * mult
        else:
            amount = 50 * prikup["aces"] * mult
        if prikup.get("marriage"):
            twice = dark and ag["dark_double_talon_marriage"]
            amount += marriage_points([prikup["marriage"]]) * (2 if twice else 1)
        credits[self.dealer].append(Credit(amount, "talon"))

    def bolt_step(self, rec, d, active, dark, golden) -> None:
        """§4 step 9."""
        ag = self.ag
        weight = 2 if ((dark and ag["dark_double_bolts"])
                       or (golden and ag["golden_double_bolts"])) else 1
        mar = rec.get("marriages", {})
        for s in active:
            if ag["bolt_counts"] == "no_tricks":
                bolt = s in rec.get("no_tricks", [])
            else:
                own = rounded(rec["points"][s], ag["rounding"])
                bolt = own + marriage_points(mar.get(str(s), [])) == 0
            exempt = ag["bolt_own_game_exempt"] and s == d
            if exempt:
                continue
            if not bolt:
                if ag["bolt_penalty"] == "three_in_a_row":
                    self.bolts[s] = 0
                continue
            self.bolts[s] += weight
            while ag["bolt_penalty"] != "none" and self.bolts[s] >= 3:  # each full three
                self.score[s] -= self.penalty(golden)
                self.bolts[s] = 0 if ag["bolt_penalty"] == "three_in_a_row" else self.bolts[s] - 3

    def leave_below_threshold(self) -> None:
        """Step 10's first part: below the threshold, off the barrel (not a fall)."""
        for seat in list(self.barrel):
            if self.score[seat] < self.ag["barrel_threshold"]:
                del self.barrel[seat]

    def samosval(self) -> None:
        """Step 11."""
        value = self.ag["samosval"]
        if not value:
            return
        for s in range(self.players):
            if self.score[s] == value or (self.ag["samosval_negative"]
                                          and self.score[s] == -value):
                self.score[s] = 0

    def decide_winner(self, declarer, made, started, won_on_barrel) -> None:
        """Step 12, ties from the dealer's left."""
        ag, n = self.ag, self.players
        if ag["barrel"]:
            found = {s for s in won_on_barrel if self.reaches(self.score[s])}
            if ag["barrel_direct_win"]:
                found |= {s for s in range(n) if s not in started and self.reaches(self.score[s])}
        else:  # §4 step 12: at or above the target, whatever barrel_win_over_target says
            found = {s for s in range(n) if self.reaches(self.score[s])}
        if not found:
            return
        if declarer in found:
            self.winner = declarer
            return
        top = max(self.score[s] for s in found)
        order = [(self.dealer + k) % n for k in range(1, n + 1)]
        self.winner = next(s for s in order if s in found and self.score[s] == top)

    def enter(self) -> None:
        """Step 13."""
        ag = self.ag
        if not ag["barrel"]:
            return
        sitting = set(self.barrel)
        new = [s for s in range(self.players) if s != self.winner and s not in self.barrel
               and self.score[s] >= ag["barrel_threshold"]]
        for s in new:
            self.barrel[s] = 0
            if ag["barrel_clamp"]:
                self.score[s] = ag["barrel_threshold"]
        if len(new) >= 2 and ag["barrel_single"]:
            for s in new:
                self.fall(s, False, "simultaneous")
            return
        if new and ag["barrel_push_off"]:
            for s in sitting:
                if s in self.barrel:
                    self.fall(s, False, "push_off")

    def golden_step(self, golden: bool, made: bool) -> None:
        """§5: the end of a golden round without a made contract."""
        if not golden:
            return
        self.golden_made |= made
        self.golden_left -= 1
        if self.golden_left or self.golden_made:
            return
        rule = self.ag["golden_on_fail"]
        if rule == "reset":
            n = self.players
            self.score, self.bolts, self.falls, self.raspis = [0] * n, [0] * n, [0] * n, [0] * n
            self.barrel = {}
        elif rule == "replay":
            self.golden_left = self.players


def reference_deltas(log: dict, agreements) -> tuple[list[list[int]], int | None]:
    """Every row's delta and the winner, by the plain reading above."""
    model = Model(ag=dict(agreements), players=len(log["players"]),
                  dealer=log.get("first_dealer", 0))
    return [model.apply(rec) for rec in log["deals"]], model.winner
