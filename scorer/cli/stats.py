"""``python -m scorer stats``: the club's figures from a terminal (docs/STATS.md).

Prints a season's league table and records board, or one player's figures; ``--json``
prints the figures as data: ``{"season": ..., "players": [...], "table": [...],
"records": {...}, "unfinished": [...]}`` (with ``--player``, ``"player"`` too: every
figure with the games and deals it comes from).
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import sys
from dataclasses import asdict
from typing import TYPE_CHECKING, Any

from scorer import store
from scorer.club import (
    COLUMNS,
    FIGURES,
    Club,
    ClubError,
    ClubRecord,
    Figure,
    PlayerFigures,
    RecordsBoard,
    Season,
    SeasonTable,
)
from scorer.club import RECORDS as BOARD
from scorer.engine.texts import LANGUAGES, N_, duration_text, tr, translations
from scorer.instance import database

if TYPE_CHECKING:
    from scorer.cli import Subparsers



def register(subparsers: Subparsers) -> None:
    """Add ``stats [--season NAME] [--player NAME] [--json] [--instance DIR] [--lang]``."""
    p = subparsers.add_parser("stats", help="the club's figures: league table, records, a player")
    p.add_argument("--season", metavar="NAME", help="a season's name (default: all time)")
    p.add_argument("--player", metavar="NAME", help="one player's figures")
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    p.add_argument("--instance", metavar="DIR",
                   help="the app's data folder (default: $SCORER_INSTANCE or ./instance)")
    p.add_argument("--lang", choices=LANGUAGES, default="ru", help="language of the text")
    p.set_defaults(func=run_stats)


class StatsError(Exception):
    """A refusal of the stats command: the option and a msgid with its params."""

    def __init__(self, field: str, msgid: str, **params: Any):
        super().__init__(msgid.format(**params))
        self.field, self.msgid, self.params = field, msgid, params


def run_stats(args: argparse.Namespace) -> int:
    """Print the figures; exit 2 with one line on stderr on bad input."""
    path = database(args.instance)
    if not path.is_file():
        print(f"stats: --instance: {tr(args.lang, N_('no database at {path}')).format(path=path)}",
              file=sys.stderr)
        return 2
    db = store.connect(path)
    try:
        store.migrate(db)
        club = Club(db)
        season = find_season(club, args.season)
        player = find_player(club, args.player) if args.player else None
        out = figures_json(club, season, player)
        if args.json:
            print(json.dumps(out, ensure_ascii=False, indent=1))
        else:
            print_text(club, season, player, args.lang)
    except StatsError as err:
        print(f"stats: {err.field}: {tr(args.lang, err.msgid).format(**err.params)}",
              file=sys.stderr)
        return 2
    except ClubError as err:
        print(f"stats: club: {err.text(args.lang)}", file=sys.stderr)
        return 2
    except sqlite3.Error as err:
        print(f"stats: database: {err}", file=sys.stderr)
        return 2
    finally:
        db.close()
    return 0


def find_season(club: Club, name: str | None) -> Season:
    """The season named so (None or «всё время»: every game)."""
    everything = {"all", N_("all time"), *(tr(lang, N_("all time")) for lang in LANGUAGES)}
    if name is None or " ".join(name.split()).casefold() in everything:
        return club.season(None)
    wanted = " ".join(name.split()).casefold()
    for season in club.seasons():
        if season.name.casefold() == wanted:
            return season
    known = ", ".join(s.name for s in club.seasons()) or "-"
    raise StatsError("--season", N_("no season {name} (seasons: {known})"), name=name,
                     known=known)


def find_player(club: Club, name: str) -> int:
    """The player a name means (as the new-game form compares names)."""
    found = club.match(name)
    if found is None:
        wanted = name.strip().casefold()
        found = next((p.id for p in club.roster() if p.name.casefold() == wanted), None)
    if found is None:
        raise StatsError("--player", N_("no player {name}"), name=name)
    return found


def figures_json(club: Club, season: Season, player: int | None) -> dict[str, Any]:
    """The figures as ``--json`` prints them."""
    table = club.season_table(season.id)
    listed = [player] if player is not None else [
        p.id for p in club.roster() if club.player(p.id, season.id)["games"].value]
    out: dict[str, Any] = {
        "season": {"id": season.id, "name": season.name, "start": season.start,
                   "end": season.end, "points": {str(k): list(v)
                                                 for k, v in season.points.items()}},
        "players": [club.player(pid, season.id).counts() for pid in listed],
        "table": table_json(table),
        "records": records_json(club.records(season.id)),
        "game_lengths": [{"players": g.players, "games": g.games.value, "minutes": g.minutes}
                         for g in club.records(season.id).lengths],
        "unfinished": list(table.unfinished),
    }
    if player is not None:
        out["player"] = player_json(club.player(player, season.id))
    return out


def table_json(table: SeasonTable) -> list[dict[str, Any]]:
    """The season table's rows as data."""
    return [{"place": n, "id": r.player.id, "name": r.player.name, "games": r.games.value,
             "wins": r.wins.value, "points": r.points.value, "avg_place": r.avg_place.value,
             "rating": r.rating, "rated_games": r.rated_games, "game_ids": list(r.games.games)}
            for n, r in enumerate(table.rows, 1)]


def record_json(record: ClubRecord | None) -> dict[str, Any] | None:
    """One record as data."""
    if record is None:
        return None
    return {"value": record.value, "player": record.player.name if record.player else None,
            "game": record.game_id, "deal": record.deal}


def records_json(board: RecordsBoard) -> dict[str, Any]:
    """The records board as data."""
    return {name: record_json(getattr(board, name)) for name, _label in BOARD}


def figure_json(figure: Figure) -> dict[str, Any]:
    """A figure with its sources ([game, deal or null] pairs)."""
    return {"value": figure.value, "sources": [list(s) for s in figure.sources]}


def player_json(figures: PlayerFigures) -> dict[str, Any]:
    """Every figure of a player, each with its sources."""
    out: dict[str, Any] = {}
    for name, value in vars(figures).items():
        if name == "figures":
            out.update({d.name: figure_json(figures[d.name]) for d in FIGURES})
        elif isinstance(value, dict):
            out[name] = {k: figure_json(v) for k, v in value.items()}
        elif name in ("player", "season"):
            out[name] = asdict(value)
            out[name].pop("points", None)
        elif name == "by_size":
            out[name] = [{k: (figure_json(v) if isinstance(v, Figure) else v)
                          for k, v in vars(s).items()} for s in value]
        elif name in ("head_to_head", "rival", "nemesis"):
            rows = value if name == "head_to_head" else ([value] if value else [])
            made = [{"opponent": h.opponent.name, "opponent_id": h.opponent.id,
                     **{k: figure_json(getattr(h, k)) for k in
                        ("shared", "above", "below", "level")}} for h in rows]
            out[name] = made if name == "head_to_head" else (made[0] if made else None)
        elif name in ("rating_steps", "results", "unfinished"):
            out[name] = [asdict(v) for v in value]
        else:
            out[name] = value
    return out


# Words of the text output (module level, where pybabel finds them).
LEAGUE_TABLE, RECORDS, UNFINISHED = N_("League table"), N_("Records"), N_("unfinished games")
GAME, GAMES, WINS, RATING = N_("game"), N_("games"), N_("wins"), N_("rating")
AVERAGE_PLACE, ABOVE, BELOW = N_("average place"), N_("finished above"), N_("finished below")

def shown(value: float | None) -> str:
    """A figure's value as text (— when there is none)."""
    if value is None:
        return "—"
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def print_text(club: Club, season: Season, player: int | None, lang: str) -> None:
    """The figures as readable text."""
    name = season.name if season.id is not None else tr(lang, season.name)
    if player is not None:
        print_player(club.player(player, season.id), name, lang)
        return
    table = club.season_table(season.id)
    print(f"{tr(lang, LEAGUE_TABLE)}: {name}")
    head = [tr(lang, w) for w in (N_("player"), *(label for _n, label in COLUMNS),
                                  N_("rating"))]
    print("  #  " + " | ".join(head))
    for n, r in enumerate(table.rows, 1):
        cells = [shown(getattr(r, name).value) for name, _l in COLUMNS]
        print(f"{n:>3}  {r.player.name} | {' | '.join(cells)} | {shown(r.rating)}")
    if table.unfinished:
        print(f"{tr(lang, UNFINISHED)}: "
              + ", ".join(str(g) for g in table.unfinished))
    print(f"{tr(lang, RECORDS)}:")
    board = club.records(season.id)
    for key, label in BOARD:
        record = getattr(board, key)
        if record is None:
            print(f"  {tr(lang, label)}: —")
            continue
        who = f"{record.player.name}, " if record.player else ""
        value = duration_text(record.value, lang) if key == "longest_time" else record.value
        print(f"  {tr(lang, label)}: {value} ({who}{tr(lang, GAME)} {record.game_id})")
    for length in board.lengths:
        print(f"  {tr(lang, N_('Average game length'))}, "
              f"{translations(lang).gettext('%(num)d players') % {'num': length.players}}: "
              f"{duration_text(length.minutes, lang)}")


def print_player(figures: PlayerFigures, season: str, lang: str) -> None:
    """One player's figures as readable text."""
    print(f"{figures.player.name}: {season}")
    rating = shown(figures.rating) if figures.rating is not None else \
        tr(lang, N_("after 5 rated games"))
    print(f"  {tr(lang, RATING)}: {rating} ({figures.rated_games})")
    for d in FIGURES:
        print(f"  {tr(lang, d.label)}: {shown(figures[d.name].value)}")
    for size in figures.by_size:
        if size.games.value:
            print(f"  {size.players}: {tr(lang, GAMES)} {shown(size.games.value)}, "
                  f"{tr(lang, WINS)} {shown(size.wins.value)}, "
                  f"{tr(lang, AVERAGE_PLACE)} {shown(size.avg_place.value)}")
    for h in figures.head_to_head:
        print(f"  {h.opponent.name}: {tr(lang, ABOVE)} {shown(h.above.value)}, "
              f"{tr(lang, BELOW)} {shown(h.below.value)}")
    for key, label in (("rival", N_("rival")), ("nemesis", N_("nemesis"))):
        h = getattr(figures, key)
        print(f"  {tr(lang, label)}: {h.opponent.name if h else '—'}")
