"""The engine's closed sets of strings (Literal types) match the tables and records."""

from typing import get_args

from scorer.engine import barrel, protocol, records


def test_reason_codes_are_the_reason_texts():
    """Every code a Reason may carry has its text, and every text a code."""
    assert set(get_args(protocol.ReasonCode)) == set(protocol.REASON_TEXTS)


def test_row_types_are_the_record_types():
    """A row's type is one of the five record types."""
    kinds = {cls.type for cls in (records.Play(0, 100, ()), records.Raspis(0, 100),
                                  records.Redeal(), records.Adjustment(0, 1, "other"),
                                  records.AgreementChange((("penalty", 100),)))}
    assert set(get_args(protocol.RowType)) == kinds


def test_fall_causes_have_their_reasons():
    """Each cause of a fall is worded by its own reason code."""
    assert set(barrel.FALL_REASONS) == set(get_args(barrel.FallCause))
    assert set(barrel.FALL_REASONS.values()) <= set(protocol.REASON_TEXTS)
