"""A page left at an address the site no longer renders, sending the reader on as Hugo's aliases do: a meta refresh and
a canonical link, no script (the site's Content-Security-Policy allows none inline), kept out of search engines. The
address it sends to is relative, so it works under any base path, and may carry a fragment (a section of the page),
which Hugo's aliases cannot."""

from __future__ import annotations

from html import escape


def page(to: str, title: str, body: str) -> str:
    """The page at an old address: `to` relative to it, `title` and `body` (HTML, already escaped) what a reader whose
    browser does not follow the refresh sees."""
    return ('<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
            f'<title>{escape(title)}</title><link rel="canonical" href="{escape(to)}">'
            f'<meta name="robots" content="noindex"><link rel="icon" href="data:,"><meta http-equiv="refresh" content="0; url={escape(to)}"></head>'
            f'<body><p>{body}</p></body></html>\n')
