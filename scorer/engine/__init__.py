"""The pure scoring engine: records, agreements, validation, scoring, protocol.

Everything outside the engine imports from here only (see docs/ENGINE-API.md).
"""

from scorer.engine.catalog import (
    Agreements,
    Catalog,
    Group,
    Preset,
    Spec,
    catalog,
    resolve_agreements,
)
from scorer.engine.compare import Comparison, compare
from scorer.engine.errors import RuleError
from scorer.engine.game_log import MAX_LOG_BYTES, checked_parts, end_totals, load_game, parse_game
from scorer.engine.names import (
    MAX_NAME,
    MAX_NOTES,
    MAX_PLACE,
    MAX_REASON,
    MAX_SEASON,
    MAX_TITLE,
    MAX_WHO,
    check_date,
    check_name,
    check_text,
    name_key,
    visible_only,
)
from scorer.engine.protocol import BarrelSeat, Event, NextDeal, Protocol, Reason, Row, signed, word
from scorer.engine.records import (
    ADJUSTMENT_REASONS,
    FORMAT,
    FORMAT_2,
    FORMATS,
    MARRIAGES,
    MAX_DEALS,
    SUITS,
    Adjustment,
    AgreementChange,
    Game,
    Play,
    Prikup,
    Raspis,
    Record,
    Redeal,
    check_deal_count,
    game_to_json,
    log_format,
    log_with,
    parse_record,
    record_to_json,
)
from scorer.engine.scoring import (
    ReplayState,
    Seating,
    advance,
    changed,
    current_agreements,
    marriage_value,
    raspis_payout,
    replay,
    replay_state,
    round_points,
    start,
)
from scorer.engine.timeline import Timeline
from scorer.engine.validation import blank_points

__all__ = [
    "ADJUSTMENT_REASONS", "FORMAT", "FORMAT_2", "FORMATS", "AgreementChange", "changed",
    "current_agreements", "log_format", "log_with", "MAX_DEALS", "MAX_NAME", "checked_parts",
    "check_deal_count", "blank_points",
    "load_game",
    "MAX_LOG_BYTES", "MAX_NOTES", "MAX_PLACE", "MAX_REASON", "MAX_TITLE", "name_key",
    "check_date", "check_name",
    "MAX_SEASON", "MAX_WHO", "check_text", "visible_only",
    "end_totals",
    "MARRIAGES", "SUITS", "Adjustment", "Agreements", "BarrelSeat", "Catalog", "Comparison",
    "Event", "compare",
    "Game", "Group", "NextDeal", "Play", "Preset", "Prikup", "Protocol", "Raspis",
    "Reason", "Record", "Redeal", "ReplayState", "Seating", "Row", "RuleError", "Spec", "Timeline",
    "advance",
    "catalog", "game_to_json",
    "marriage_value", "parse_game", "parse_record", "raspis_payout", "record_to_json",
    "replay", "replay_state", "resolve_agreements", "round_points", "signed", "start",
    "word",
]
