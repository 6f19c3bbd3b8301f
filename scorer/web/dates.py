"""Dates as people say them («сегодня, 21:40», «вчера, 21:40», «4 декабря»)."""

from __future__ import annotations

from datetime import date, datetime, timedelta

from babel.dates import format_date
from flask_babel import gettext as _
from markupsafe import Markup, escape

from scorer.engine.texts import duration_text, played_for
from scorer.web.i18n import lang


def spoken(moment: datetime | date, today: date) -> str:
    """A day (and time, if known) as said at the table, relative to ``today``."""
    day = moment.date() if isinstance(moment, datetime) else moment
    hm = moment.strftime("%H:%M") if isinstance(moment, datetime) else None
    if hm and day == today:
        return str(_("today, %(time)s", time=hm))
    if hm and day == today - timedelta(days=1):
        return str(_("yesterday, %(time)s", time=hm))
    shape = "d MMMM" if day.year == today.year else "d MMMM y"
    return format_date(day, shape, locale=lang())


def human_date(stamp: str) -> Markup:
    """A stored ISO stamp (UTC) or a game's date as a <time>, in the server's local time
    zone; the page's script says it again in the phone's own (the server cannot know it)."""
    try:
        moment: datetime | date = datetime.fromisoformat(stamp)
    except ValueError:
        return Markup(escape(stamp))
    if isinstance(moment, datetime) and moment.tzinfo is not None:
        moment = moment.astimezone()  # the server's local zone
        return Markup('<time class="spoken" datetime="{}" data-today="{}" data-yesterday="{}">'
                      "{}</time>").format(
            stamp, _("today, %(time)s", time="{t}"), _("yesterday, %(time)s", time="{t}"),
            spoken(moment, datetime.now().astimezone().date()))
    # A bare date (a game's own «date»): no zone to convert, no time to say.
    day = moment.date() if isinstance(moment, datetime) else moment
    return Markup('<time datetime="{}">{}</time>').format(stamp, spoken(day, date.today()))


def played(minutes: int) -> str:
    """«Играли 2 часа 40 минут» in the page's language."""
    return played_for(minutes, lang())


def duration(minutes: int) -> str:
    """«2 часа 40 минут» in the page's language."""
    return duration_text(minutes, lang())
