"""Dates at their published precision: a day, a month, a year, or none at all.

A source that gives "June 2015" is printed "June 2015", never "1 June 2015"; a source without a
date is "undated". The same text goes to the web page, the PDF and the terminal.
"""

from __future__ import annotations

import datetime as _dt
import re

UNDATED = "undated"
_DATE = re.compile(r"^(\d{4})(?:-(\d{2}))?(?:-(\d{2}))?$")
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December")


def text(value: object) -> str:
    """'2022-11-16' → '16 November 2022', '2015-06' → 'June 2015', '2008' → '2008', None/'' → 'undated'."""
    if value is None or str(value).strip() == "":
        return UNDATED
    s = value.isoformat() if isinstance(value, _dt.date) else str(value).strip()
    m = _DATE.match(s)
    if not m:
        return s
    year, month, day = m.group(1), m.group(2), m.group(3)
    if day:
        return f"{int(day)} {MONTHS[int(month) - 1]} {year}"
    if month:
        return f"{MONTHS[int(month) - 1]} {year}"
    return year


def span(start: object, end: object) -> str:
    """A campaign's dates: one date when start and end are the same period, else 'start to end'; '' when neither is given."""
    given = [str(x) for x in (start, end) if x not in (None, "")]
    if not given:
        return ""
    if len(given) == 1 or given[0] == given[1]:
        return text(given[0])
    return f"{text(given[0])} to {text(given[1])}"


def year(value: object) -> int | None:
    """The year of a date, or None for an undated source."""
    m = _DATE.match(str(value).strip()) if value not in (None, "") else None
    return int(m.group(1)) if m else None


def epoch(value: object) -> int:
    """Seconds since 1970 at the start of the date's period (a fixed 0 for an undated source): for SOURCE_DATE_EPOCH."""
    m = _DATE.match(str(value).strip()) if value not in (None, "") else None
    if not m:
        return 0
    try:
        day = _dt.date(int(m.group(1)), int(m.group(2) or 1), int(m.group(3) or 1))
    except ValueError:
        return 0
    return int(_dt.datetime(day.year, day.month, day.day, tzinfo=_dt.timezone.utc).timestamp())
