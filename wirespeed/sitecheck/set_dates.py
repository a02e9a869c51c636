"""Rule date-before-set: no date that says when wirespeed made something is earlier than the set it is about.

A set's own date is its last change (`changed` in the exported site data: the newest commit touching the
set's folder, or its files' time outside a git checkout). The PDF's creation and modification dates and its
"Built" line, and the feed entry's <updated>, are the build from that data: never before it. No date of
any page, PDF or feed entry is the Unix epoch's stand-in for an unknown date (1970): an undated source
prints "undated"."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator

from wirespeed.engine.dates import MONTHS
from wirespeed.problems import Problem
from wirespeed.sitecheck.site import Site

RULE = "date-before-set"
EPOCH_YEAR = 1971  # dates before this are the epoch's stand-in for "unknown"
BUILT = re.compile(r"Built\s+(\d{1,2}) (" + "|".join(MONTHS) + r") (\d{4})")


def check_dates(site: Site) -> Iterator[Problem]:
    """PDF dates, the PDF's build line and feed entries are not before the set's own last change, and no date is 1970."""
    for slug, data in site.sets.items():
        own = iso_date(data.get("changed"))
        pdf = site.pdfs.get(slug)
        if pdf is not None:
            for key in ("CreationDate", "ModDate"):
                when = pdf_date(pdf.info.get(key, ""))
                if when is None:
                    continue
                if when.year < EPOCH_YEAR:
                    yield Problem(pdf.page, None, f"document information /{key}", f"{when.isoformat()}: the epoch stands in for an unknown date", RULE)
                elif own and when < own:
                    yield Problem(pdf.page, None, f"document information /{key}", f"{when.isoformat()} is before the set's own last change ({own.isoformat()})", RULE)
            for i, page in enumerate(pdf.pages, 1):
                for m in BUILT.finditer(" ".join(page.split())):
                    when = dt.date(int(m.group(3)), MONTHS.index(m.group(2)) + 1, int(m.group(1)))
                    if own and when < own:
                        yield Problem(pdf.page, None, f"page {i}, “{m.group(0)}”", f"the build is dated before the set's own last change ({own.isoformat()})", RULE)
    for e in site.feed:
        own = iso_date(site.sets.get(e["slug"], {}).get("changed"))
        for key in ("updated", "published"):
            when = iso_date(e.get(key))
            if when is None:
                continue
            if when.year < EPOCH_YEAR:
                yield Problem("feed.xml", None, f"entry[{e['slug']}] > {key}", f"{e[key]}: the epoch stands in for an unknown date (an undated source prints “undated”)", RULE)
            elif key == "updated" and own and when < own:
                yield Problem("feed.xml", None, f"entry[{e['slug']}] > {key}", f"{e[key]} is before the set's own last change ({own.isoformat()})", RULE)
    for rel in site.html_pages:
        for t in site.soup(rel).find_all("time"):
            when = iso_date(t.get("datetime"))
            if when is not None and when.year < EPOCH_YEAR:
                yield Problem(rel, None, f"time[datetime={t.get('datetime')}]", "the epoch stands in for an unknown date (an undated source prints “undated”)", RULE)


def iso_date(value: object) -> dt.date | None:
    """The date of an ISO date or date-time ('2026-11-23', '2026-11-23T00:00:00Z', '2001-08' → 1 August 2001)."""
    m = re.match(r"^(\d{4})(?:-(\d{2}))?(?:-(\d{2}))?", str(value or "").strip())
    if not m:
        return None
    try:
        return dt.date(int(m.group(1)), int(m.group(2) or 1), int(m.group(3) or 1))
    except ValueError:
        return None


def pdf_date(value: str) -> dt.date | None:
    """The date of a PDF date string 'D:20261123120000Z'."""
    m = re.match(r"^D:(\d{4})(\d{2})?(\d{2})?", value.strip())
    if not m:
        return None
    try:
        return dt.date(int(m.group(1)), int(m.group(2) or 1), int(m.group(3) or 1))
    except ValueError:
        return None
