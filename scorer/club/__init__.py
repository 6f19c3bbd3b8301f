"""The club's memory: players, seat links, per-game summaries, figures, ratings, seasons.

The web and the command line use only what is exported here (docs/STATS.md defines the
figures; the figures are defined in docs/STATS.md).
"""

from scorer.club.figures import Summary, places, summarize
from scorer.club.league import (
    ALL_TIME,
    DEFAULT_POINTS,
    ClubRecord,
    Figure,
    GameLine,
    HeadToHead,
    Played,
    Player,
    PlayerFigures,
    RatingStep,
    RecordsBoard,
    Season,
    SeasonRow,
    SeasonTable,
    SizeFigures,
    Source,
)
from scorer.club.ratings import MIN_GAMES, SCALE, Rating
from scorer.club.roster import ClubError
from scorer.club.service import Club, Reading
from scorer.club_store import ClubChange

__all__ = [
    "ALL_TIME", "DEFAULT_POINTS", "MIN_GAMES", "SCALE", "Club", "ClubChange", "ClubError",
    "ClubRecord", "Figure", "GameLine", "HeadToHead", "Played", "Player", "PlayerFigures",
    "Rating", "RatingStep", "Reading", "RecordsBoard", "Season", "SeasonRow", "SeasonTable",
    "SizeFigures", "Source", "Summary", "places", "summarize",
]
