"""«А если бы…»: the same deal log replayed under another agreement set, beside the real one.

Nothing here changes a game: both replays are pure, and the result only describes them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any

from scorer.engine.catalog import Agreements, catalog
from scorer.engine.errors import RuleError
from scorer.engine.protocol import Protocol, Row
from scorer.engine.records import Adjustment, Game, Play, Raspis
from scorer.engine.scoring import replay, replay_state
from scorer.engine.texts import N_, tr


@dataclass(frozen=True)
class Comparison:
    """The game's protocol and the protocol of the same records under ``other_agreements``.

    ``other`` holds the rows the other set scored: all of them, or those before the deal
    it refuses (``refused``), or those up to the deal its winner wins (``ended_at``, when
    the log goes on after it).
    """

    game: Game
    other_agreements: Agreements
    base: Protocol
    other: Protocol
    refused: RuleError | None
    ended_at: int | None

    @property
    def differing(self) -> tuple[int, ...]:
        """The ``n`` of every row both replays have whose delta or score differs."""
        return tuple(a.n for a, b in zip(self.base.rows, self.other.rows, strict=False)
                     if a.delta != b.delta or a.score != b.score)

    @property
    def first_difference(self) -> int | None:
        """The first row ``n`` (of the rows both have) whose delta or score differs."""
        differing = self.differing
        return differing[0] if differing else None

    def pair(self, n: int) -> tuple[Row, Row | None]:
        """Row ``n`` (1-based) of the game and of the other replay (None past its end)."""
        other = self.other.rows[n - 1] if n <= len(self.other.rows) else None
        return self.base.rows[n - 1], other

    def refused_seat(self) -> int | None:
        """The seat the refused deal is about: the one the rule names, else its declarer."""
        err = self.refused
        if err is None or err.deal is None:
            return None
        if err.seat is not None:
            return err.seat
        record = self.game.deals[err.deal - 1]
        if isinstance(record, (Play, Raspis)):
            return record.declarer
        if isinstance(record, Adjustment):
            return record.player
        return None

    def refusal_message(self, lang: str = "en") -> str | None:
        """The refusal in one line, naming the deal, the player and the agreement's title."""
        err = self.refused
        if err is None:
            return None
        where = tr(lang, N_("deal {n}")).format(n=err.deal)
        seat = self.refused_seat()
        who = f"{self.game.players[seat]}: " if seat is not None else ""
        text = re.sub(r"\s*\[\w+\]$", "", err.text(lang))
        spec = catalog().agreements.get(err.agreement) if err.agreement else None
        title = f" — {spec.title[lang]}" if spec is not None else ""
        return f"{where}: {who}{text}{title}"

    def to_json(self, lang: str = "ru") -> dict[str, Any]:
        """The comparison as docs/GAME-FORMAT.md writes it (``python -m scorer compare --json``)."""
        refused = self.refused
        return {
            "base": {"score": list(self.base.score), "winner": self.base.winner},
            "other": {
                "score": list(self.other.score), "winner": self.other.winner,
                "refused": None if refused is None else {
                    "deal": refused.deal, "message": self.refusal_message(lang)},
                "ended_at": self.ended_at,
            },
            "first_difference": self.first_difference,
            "rows": [self._row_json(n, lang) for n in range(1, len(self.base.rows) + 1)],
        }

    def _row_json(self, n: int, lang: str) -> dict[str, Any]:
        """One row of both replays: delta, score and why of each (other: null past its end)."""
        base, other = self.pair(n)

        def side(row: Row) -> dict[str, Any]:
            return {"delta": list(row.delta), "score": list(row.score),
                    "why": row.why_text(lang)}

        differs = other is not None and (base.delta, base.score) != (other.delta, other.score)
        return {"n": n, "type": base.type, "differs": differs, "base": side(base),
                "other": None if other is None else side(other)}


def compare(game: Game, other_agreements: Agreements) -> Comparison:
    """Replay ``game``'s records under its own set and under ``other_agreements``.

    The game itself must replay (RuleError otherwise). The other replay stops before the
    first record the other set refuses, or after the row where its game is won.
    """
    base = replay(game)
    other_game = replace(game, agreements=other_agreements)
    refused: RuleError | None = None
    ended_at: int | None = None
    try:
        state = replay_state(other_game)
    except RuleError as err:
        if err.deal is None:
            raise
        state = replay_state(other_game.with_deals(game.deals[:err.deal - 1]))
        if err.rule == "after_win":
            ended_at = err.deal - 1  # won on the row before: an early end, not a refusal
        else:
            refused = err
    return Comparison(game=game, other_agreements=other_agreements, base=base,
                      other=state.protocol(), refused=refused, ended_at=ended_at)
