"""The club's memory: players, seat links, per-game summaries, figures, ratings, seasons.

The web and the command line use only what is exported here (docs/STATS.md defines the
figures; scorer/club/player_figures.py declares each of a player's figures once).
"""

from scorer.club.figures import Summary, places, summarize
from scorer.club.league import (
    ALL_TIME,
    COLUMNS,
    DEFAULT_POINTS,
    RECORDS,
    ClubRecord,
    Figure,
    GameLine,
    HeadToHead,
    Played,
    Player,
    RatingStep,
    RecordsBoard,
    Season,
    SeasonRow,
    SeasonTable,
    SizeFigures,
    Source,
)
from scorer.club.player_figures import FIGURES, SIZE_COLUMNS, Definition, PlayerFigures
from scorer.club.ratings import MIN_GAMES, SCALE, Rating
from scorer.club.roster import ClubError
from scorer.club.service import KEEP_STATES, KEEP_SUMMARIES, Club, Memory, Reading
from scorer.club_store import ClubChange

__all__ = [
    "ALL_TIME", "COLUMNS", "DEFAULT_POINTS", "FIGURES", "KEEP_STATES", "KEEP_SUMMARIES",
    "MIN_GAMES", "RECORDS", "SCALE", "SIZE_COLUMNS", "Club", "ClubChange", "ClubError",
    "ClubRecord", "Definition", "Figure", "GameLine", "HeadToHead", "Memory", "Played",
    "Player", "PlayerFigures", "Rating", "RatingStep", "Reading", "RecordsBoard", "Season",
    "SeasonRow", "SeasonTable", "SizeFigures", "Source", "Summary", "places", "summarize",
]
