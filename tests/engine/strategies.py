"""Hypothesis strategies: random *valid* game logs whose points come from real cards.

Every ``play`` deal is dealt from a shuffled 24-card deck and played out trick by trick
(following suit, trumping when void, marriages declared by leading K or Q after taking
a trick), so card points, marriages and ``no_tricks`` are physically possible. The
record kinds (raspis, dark, golden, redeal, adjustment) follow the agreement set and
the replayed state of the game so far; the engine only confirms what was built valid.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from hypothesis import strategies as st
from reference_model import rounded

from scorer.engine import RuleError, catalog, parse_game, replay

SUITS = ("hearts", "diamonds", "clubs", "spades")
RANKS = ("9", "J", "Q", "K", "10", "A")  # low -> high
CARD_POINTS = {"9": 0, "J": 2, "Q": 3, "K": 4, "10": 10, "A": 11}
MARRIAGE_VALUE = {"hearts": 100, "diamonds": 80, "clubs": 60, "spades": 40}
DECK = tuple((suit, rank) for suit in SUITS for rank in RANKS)
NAMES = ("Аня", "Борис", "Вика", "Гена")


def card_points(cards) -> int:
    """Card points of some cards."""
    return sum(CARD_POINTS[rank] for _, rank in cards)


@dataclass
class DealOutcome:
    """What a table would record after playing one deal."""

    points: dict[int, int]
    marriages: dict[int, list[str]]
    no_tricks: list[int]
    talon: list[tuple[str, str]]

    def declared_value(self, seat: int) -> int:
        """The seat's marriages in points (half marriages at half price, ace 200)."""
        total = 0
        for m in self.marriages.get(seat, []):
            if m == "ace":
                total += 200
            elif m.startswith("half_"):
                total += MARRIAGE_VALUE[m[5:]] // 2
            else:
                total += MARRIAGE_VALUE[m]
        return total


def _beats(card, best, led: str, trump: str | None) -> bool:
    """Whether ``card`` beats the trick's current best card."""
    if card[0] == best[0]:
        return RANKS.index(card[1]) > RANKS.index(best[1])
    return card[0] == trump


def _legal(hand, led: str | None, trump: str | None):
    """Cards a follower may play: follow suit, else trump, else anything."""
    if led is None:
        return list(hand)
    same = [c for c in hand if c[0] == led]
    if same:
        return same
    trumps = [c for c in hand if c[0] == trump]
    return trumps or list(hand)


def _lead(rnd, hand, took_trick, first_lead_ok, used, ag):
    """The leader's card, declaring a marriage when he may and wants to."""
    may_declare = took_trick or first_lead_ok
    if may_declare:
        whole = [s for s in SUITS if s not in used
                 and (s, "K") in hand and (s, "Q") in hand]
        if whole and rnd.random() < 0.8:
            suit = rnd.choice(whole)
            return (suit, rnd.choice("KQ")), suit
        aces = [(s, "A") for s in SUITS]
        if (ag["ace_marriage"] and "ace" not in used and all(a in hand for a in aces)
                and rnd.random() < 0.8):
            return rnd.choice(aces), "ace"
        half = [s for s in SUITS if s not in used and (s, "Q") in hand and (s, "J") in hand]
        if ag["half_marriage"] and half and rnd.random() < 0.5:
            suit = rnd.choice(half)
            return (suit, "Q"), "half_" + suit
    return rnd.choice(sorted(hand)), None


def play_deal(rnd: random.Random, players: int, active: list[int], declarer: int,
              ag) -> DealOutcome:
    """Deal a shuffled deck and play it out; return the physical result."""
    deck = list(DECK)
    rnd.shuffle(deck)
    per = 10 if players == 2 else 7
    hands = {seat: set(deck[i * per:(i + 1) * per]) for i, seat in enumerate(active)}
    rest = deck[len(active) * per:]
    if players == 2:
        # Two talons of two: the declarer takes one, then discards two out of play.
        talon = rest[:2] if rnd.random() < 0.5 else rest[2:]
        hands[declarer] |= set(talon)
        for card in rnd.sample(sorted(hands[declarer]), 2):
            hands[declarer].discard(card)
    else:
        talon = rest
        hands[declarer] |= set(talon)
        for seat in active:
            if seat != declarer:
                card = rnd.choice(sorted(hands[declarer]))
                hands[declarer].discard(card)
                hands[seat].add(card)
    taken = {seat: [] for seat in active}
    tricks = {seat: 0 for seat in active}
    marriages: dict[int, list[str]] = {}
    used: set[str] = set()
    trump = None
    leader = declarer
    order = active
    first = True
    while hands[leader]:
        first_ok = first and leader == declarer and ag["marriage_on_first_lead"]
        card, declared = _lead(rnd, hands[leader], tricks[leader] > 0, first_ok, used, ag)
        if declared:
            used.add(declared.removeprefix("half_"))
            marriages.setdefault(leader, []).append(declared)
            if declared in SUITS:
                trump = declared
        led = card[0]
        hands[leader].discard(card)
        trick = [(leader, card)]
        start = order.index(leader)
        for k in range(1, len(order)):
            seat = order[(start + k) % len(order)]
            choice = rnd.choice(sorted(_legal(hands[seat], led, trump)))
            hands[seat].discard(choice)
            trick.append((seat, choice))
        winner, best = trick[0]
        for seat, c in trick[1:]:
            if _beats(c, best, led, trump):
                winner, best = seat, c
        taken[winner] += [c for _, c in trick]
        tricks[winner] += 1
        leader = winner
        first = False
    return DealOutcome(
        points={seat: card_points(cards) for seat, cards in taken.items()},
        marriages=marriages,
        no_tricks=[seat for seat in active if tricks[seat] == 0],
        talon=list(talon),
    )


def prikup_of(talon, ag) -> dict | None:
    """The 4-player talon as the sitting dealer records it."""
    if ag["four_dealer_prikup"] == "none":
        return None
    suits = [s for s in SUITS if (s, "K") in talon and (s, "Q") in talon]
    halves = [s for s in SUITS if (s, "Q") in talon and (s, "J") in talon]
    marriage = suits[0] if suits else None
    if marriage is None and halves and ag["half_marriage"]:
        marriage = "half_" + halves[0]
    out = {"points": card_points(talon), "marriage": marriage}
    if ag["four_dealer_prikup"] == "aces":
        out["aces"] = sum(1 for _, rank in talon if rank == "A")
    return out


def _steps(ag, low: int, high: int) -> list[int]:
    """Contracts from ``low`` to ``high`` that the agreement set allows."""
    step = ag["bid_step"]
    first = max(100, -(-low // step) * step)
    return list(range(first, min(high, ag["max_contract"]) + 1, step))


@dataclass
class Generated:
    """A generated game log and the records the engine refused while building it."""

    log: dict
    refused: list[str] = field(default_factory=list)


@dataclass
class Seat:
    """Where the game stands before a record: tracked by the builder itself."""

    dealer: int
    golden: bool
    forced: int
    active: list[int]


class GameBuilder:
    """Grows one valid game log record by record.

    The builder tracks the dealer, the golden round and raspis counts itself (a cheap
    independent model of docs/RULES.md §2 and §5) and replays the log every few records to
    learn the barrel and the winner; each replay also checks that its own model agrees
    with the engine's ``next``. A record the engine refuses is replaced by a plain one
    with the same rotation and the same made/failed outcome, and noted in ``refused``.
    """

    REFRESH = 6

    def __init__(self, rnd: random.Random, players: int, preset: str, overrides: dict,
                 first_dealer: int, boost: bool = False):
        self.rnd = rnd
        # With boost, big "other" bonuses push scores to the barrel zone early, so the
        # barrel, falls, push-offs and wins are exercised in games of modest length.
        self.boost = boost
        self.players = players
        self.log = {"format": "thousand-game/1", "players": list(NAMES[:players]),
                    "agreements": {"preset": preset, "overrides": dict(overrides)},
                    "first_dealer": first_dealer, "deals": []}
        self.ag = parse_game(self.log).agreements
        self.refused: list[str] = []
        self.dealer = first_dealer
        self.golden_left = players if self.ag["golden"] else 0
        self.golden_made = False
        self.raspis_count = [0] * players
        self.barrel: set[int] = set()
        self.states: list[Seat] = []
        self.synced = 0
        self.protocol = replay(parse_game(self.log))

    # -- the builder's own model -------------------------------------------------
    def seat(self) -> Seat:
        """Dealer, golden flag, forced declarer and active seats for the next record."""
        n = self.players
        first_hand = (self.dealer + 1) % n
        forced = first_hand
        if self.ag["forced_bid_seat"] == "dealer" and n != 4:
            forced = self.dealer
        active = [s for s in range(n) if n != 4 or s != self.dealer]
        return Seat(self.dealer, self.golden_left > 0, forced, active)

    def made(self, record: dict) -> bool:
        """Whether a play record makes its contract (raspis never does)."""
        if record["type"] != "play":
            return False
        d = record["declarer"]
        pts = record["points"][d]
        if self.ag["round_declarer"]:
            pts = rounded(pts, self.ag["rounding"])
        value = DealOutcome({}, {d: record["marriages"].get(str(d), [])}, [], []).declared_value(d)
        return pts + value >= record["contract"]

    def advance(self, record: dict) -> None:
        """Move the model past one record."""
        if (record["type"] == "adjustment" and record["reason"] == "misdeal"
                and self.ag["misdeal_passes_deal"] and not self.golden_left):
            # catalog: the fine passes the deal, except inside the golden round (RULES.md §10)
            self.dealer = (self.dealer + 1) % self.players
        if record["type"] not in ("play", "raspis"):
            return
        if record["type"] == "raspis":
            self.raspis_count[record["declarer"]] += 1
        if self.golden_left:
            self.golden_made |= self.made(record)
            self.golden_left -= 1
            if not self.golden_left and not self.golden_made:
                rule = self.ag["golden_on_fail"]
                if rule == "reset":
                    self.raspis_count = [0] * self.players
                elif rule == "replay":
                    self.golden_left = self.players
        self.dealer = (self.dealer + 1) % self.players

    # -- talking to the engine ---------------------------------------------------
    def refresh(self) -> None:
        """Replay the log; repair refused records; learn the barrel; check the model."""
        repaired = False
        while True:
            try:
                self.protocol = replay(parse_game(self.log))
                break
            except RuleError as err:
                if err.rule != "after_win":  # expected: the builder stops at a win
                    self.refused.append(err.message("en"))
                self.repair(err)
                repaired = True
        if repaired:
            self.recount()
        self.barrel = {b.seat for b in self.protocol.barrel}
        self.synced = len(self.log["deals"])
        nxt, mine = self.protocol.next, self.seat()
        if nxt is not None and (nxt.dealer, nxt.golden, nxt.forced_declarer,
                                list(nxt.active)) != (mine.dealer, mine.golden, mine.forced,
                                                      mine.active):
            self.refused.append(f"model differs after {len(self.log['deals'])} records: "
                                f"engine {nxt}, builder {mine}")
            self.resync(nxt)
        if self.protocol.raspis and list(self.protocol.raspis) != self.raspis_count:
            self.refused.append(f"raspis counts differ: engine {self.protocol.raspis}, "
                                f"builder {self.raspis_count}")
            self.raspis_count = list(self.protocol.raspis)

    def resync(self, nxt) -> None:
        """Take the engine's view so that generation can go on (the test reports it)."""
        self.dealer = nxt.dealer
        if not nxt.golden:
            self.golden_left = 0

    def sync(self) -> bool:
        """Make the barrel knowledge current before a choice that depends on it."""
        if self.synced != len(self.log["deals"]):
            self.refresh()
        return True

    def repair(self, err: RuleError) -> None:
        """Replace the refused record (or cut the log at a win) and rebuild the model."""
        deals = self.log["deals"]
        index = (err.deal or 1) - 1
        if err.rule == "after_win":
            del deals[index:]
            return
        state, old = self.states[index], deals[index]
        deals[index] = self.plain(state, old)

    def plain(self, state: Seat, old: dict) -> dict:
        """A play with the same declarer, rotation and made/failed outcome, never dark."""
        if old["type"] == "play":
            return {k: v for k, v in old.items() if k != "dark"}
        declarer = old.get("declarer", state.forced)
        if declarer not in state.active:
            declarer = state.active[0]
        for _ in range(50):
            record = self.play(declarer, state, False)
            if not self.made(record):
                return record
        return {"type": "redeal", "reason": "misdeal"}

    # -- records -----------------------------------------------------------------
    def next_record(self, state: Seat) -> dict:
        """A record that is valid by construction for the current state."""
        rnd, ag = self.rnd, self.ag
        roll = rnd.random()
        if roll < 0.04:
            return self.redeal()
        if roll < (0.14 if self.boost else 0.08):
            return self.adjustment()
        first_hand = (state.dealer + 1) % self.players
        if state.golden:
            declarer, dark = state.forced, False
        else:
            declarer = rnd.choice(state.active)
            dark = (ag["dark"] and declarer == first_hand and rnd.random() < 0.3
                    and not (ag["dark_not_on_barrel"] and self.sync() and self.barrel))
        if rnd.random() < 0.08 and self.sync() and self.may_concede(declarer, state.golden, dark):
            return self.raspis(declarer, state, dark)
        return self.play(declarer, state, dark)

    def may_concede(self, seat: int, golden: bool, dark: bool) -> bool:
        """Whether a raspis by ``seat`` is allowed now (docs/RULES.md §3)."""
        ag = self.ag
        if not ag["raspis"] or (golden and not ag["raspis_golden"]):
            return False
        if dark and not ag["dark_raspis"]:
            return False
        if ag["raspis_limit"] and self.raspis_count[seat] >= ag["raspis_limit"]:
            return False
        if ag["raspis_barrel"] == "not_barrel_player" and seat in self.barrel:
            return False
        return not (ag["raspis_barrel"] == "nobody_if_barrel" and self.barrel)

    def play(self, declarer: int, state: Seat, dark: bool) -> dict:
        """A played deal with a contract chosen so that it is made or failed at will."""
        rnd, ag = self.rnd, self.ag
        deal = play_deal(rnd, self.players, state.active, declarer, ag)
        raw = deal.points[declarer] + deal.declared_value(declarer)
        if state.golden:
            contract = 120
            if ag["golden_raise"] and rnd.random() < 0.3:
                contract = rnd.choice(_steps(ag, 120, max(120, raw)))
        elif dark:
            contract = 120
        else:
            made = _steps(ag, 100, raw)
            failed = _steps(ag, raw + 1, max(raw + 60, 160))
            pool = made if (made and rnd.random() < 0.6) or not failed else failed
            contract = rnd.choice(pool)
        record = {"type": "play", "declarer": declarer, "contract": contract,
                  "points": [deal.points.get(s) for s in range(self.players)],
                  "marriages": {str(s): m for s, m in deal.marriages.items()},
                  "no_tricks": deal.no_tricks}
        if dark:
            record["dark"] = True
        self._talon(record, deal.talon)
        return record

    def raspis(self, declarer: int, state: Seat, dark: bool) -> dict:
        """A concession after taking the talon."""
        rnd, ag = self.rnd, self.ag
        contract = 120 if state.golden or dark else rnd.choice(_steps(ag, 100, 160))
        record = {"type": "raspis", "declarer": declarer, "contract": contract}
        if dark:
            record["dark"] = True
        if self.players == 4:
            talon = list(DECK)
            rnd.shuffle(talon)
            self._talon(record, talon[:3])
        return record

    def _talon(self, record: dict, talon) -> None:
        """Attach the talon with 4 players, as the sitting dealer saw it."""
        if self.players == 4:
            prikup = prikup_of(talon, self.ag)
            if prikup is not None:
                record["prikup"] = prikup

    def redeal(self) -> dict:
        """Cards thrown in."""
        reason = self.rnd.choice(["four_nines", "misdeal", None])
        return {"type": "redeal", **({"reason": reason} if reason else {})}

    def adjustment(self) -> dict:
        """A penalty or bonus outside the play, of a kind the agreements allow."""
        rnd, ag = self.rnd, self.ag
        player = rnd.randrange(self.players)
        kinds = ["misdeal", "other"]
        if ag["cut_nines_penalty"]:
            kinds.append("cut_nines")
        if ag["four_nines_bonus"]:
            kinds.append("four_nines")
        reason = rnd.choice(kinds)
        others = [-120, -50, -10, 5, 20, 60, 100]
        if self.boost:
            others += [200, 300, 450, 600, 800]
        amount = {"cut_nines": -ag["penalty"], "four_nines": ag["four_nines_bonus"],
                  "misdeal": -rnd.choice([10, 20, 50, 120]),
                  "other": rnd.choice(others)}[reason]
        return {"type": "adjustment", "player": player, "amount": amount, "reason": reason}

    def build(self, length: int) -> Generated:
        """Add records until ``length`` or a winner, replaying every few records."""
        deals = self.log["deals"]
        while len(deals) < length and self.protocol.winner is None:
            state = self.seat()
            record = self.next_record(state)
            if self.protocol.winner is not None:  # a sync inside found the game over
                break
            self.states.append(state)
            deals.append(record)
            self.advance(record)
            if len(deals) % self.REFRESH == 0:
                self.refresh()
        self.sync()
        return Generated(self.log, self.refused)

    def recount(self) -> None:
        """Recompute the tracked model from the (repaired) records."""
        self.dealer = self.log["first_dealer"]
        self.golden_left = self.players if self.ag["golden"] else 0
        self.golden_made = False
        self.raspis_count = [0] * self.players
        self.states = []
        for record in self.log["deals"]:
            self.states.append(self.seat())
            self.advance(record)


def build_game(seed: int, players: int = 3, preset: str = "classic",
               overrides: dict | None = None, length: int = 60,
               first_dealer: int = 0, boost: bool = False) -> Generated:
    """A deterministic random valid game."""
    builder = GameBuilder(random.Random(seed), players, preset, overrides or {}, first_dealer,
                          boost)
    return builder.build(length)


def _choices(spec) -> list:
    """Plausible values of one agreement, from the catalog itself."""
    if spec.type == "bool":
        return [True, False]
    if spec.values:
        return list(spec.values)
    if spec.suggest:
        return list(spec.suggest) + ([spec.default] if spec.type != "optional_int" else [None])
    return [spec.default]


@st.composite
def agreement_sets(draw) -> tuple[str, dict]:
    """A random preset plus random overrides drawn from the catalog's specs."""
    cat = catalog()
    preset = draw(st.sampled_from(sorted(cat.presets)))
    overrides = {}
    for agreement_id, spec in cat.agreements.items():
        if draw(st.integers(0, 9)) == 0:
            overrides[agreement_id] = draw(st.sampled_from(_choices(spec)))
    # Bias towards the optional features so they are really exercised.
    for feature in ("golden", "dark", "raspis_golden", "ace_marriage", "half_marriage",
                    "marriage_on_first_lead"):
        if draw(st.integers(0, 3)) == 0:
            overrides[feature] = True
    return preset, overrides


@st.composite
def generated_games(draw, max_deals: int = 60) -> Generated:
    """A long random valid game: 2, 3 or 4 players, random agreements, real cards."""
    players = draw(st.sampled_from([2, 3, 3, 4]))
    preset, overrides = draw(agreement_sets())
    length = draw(st.integers(max_deals // 3, max_deals))
    first_dealer = draw(st.integers(0, players - 1))
    boost = draw(st.booleans())
    seed = draw(st.integers(0, 2**32 - 1))
    return build_game(seed, players, preset, overrides, length, first_dealer, boost)


def game_logs(max_deals: int = 60):
    """Just the log of :func:`generated_games`."""
    return generated_games(max_deals).map(lambda g: g.log)
