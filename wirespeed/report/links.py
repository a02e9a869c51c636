"""Where a PDF report lives and what built it. The title page gives the full URLs of the set's web page and its
data (only when the site has a full base URL: a report built without one says nothing about URLs) and of the
original publication; the colophon at the end repeats them with the build: the result set, the build date and
the wirespeed version (never on the cover).

The base URL is the site's (`wirespeed report --base-url`, else HUGO_BASEURL as for the site, else baseURL in
config.toml). The build date is the date of the data the report is built from: the set's own last change (or its
article's, when later; `build_date`), never the clock and never the repository's last commit, so two builds of the
same inputs print the same date and a commit elsewhere rebuilds no report.
"""

from __future__ import annotations

import datetime as _dt
import os
import tomllib
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from wirespeed.engine import dates


def site_base(explicit: str | None = None, root: Path = Path(".")) -> str:
    """The address the site is served at, ending in '/': the explicit value, HUGO_BASEURL, or config.toml's baseURL."""
    value = explicit or os.environ.get("HUGO_BASEURL")
    if not value:
        try:
            value = tomllib.loads((root / "config.toml").read_text(encoding="utf-8")).get("baseURL")
        except (OSError, tomllib.TOMLDecodeError):
            value = None
    value = str(value or "/")
    return value if value.endswith("/") else value + "/"


def is_full(base: str) -> bool:
    parts = urlsplit(base)
    return parts.scheme in ("http", "https") and bool(parts.netloc)


def data_epoch(data: dict[str, Any], article_path: Path | None = None) -> int | None:
    """When a report's data last changed (seconds since 1970, UTC): the set's own last change (its exported `changed`),
    or its article's when that is later; None when neither is known."""
    from wirespeed.resultset import lastchange

    times = []
    if data.get("changed"):
        times.append(int(_dt.datetime.fromisoformat(str(data["changed"]).replace("Z", "+00:00")).timestamp()))
    if article_path is not None and (t := lastchange.last_change(article_path)) is not None:
        times.append(t)
    return max(times) if times else None


def build_date(epoch: int | None) -> str | None:
    """ISO date of a data epoch (None stays None)."""
    return _dt.datetime.fromtimestamp(epoch, _dt.timezone.utc).date().isoformat() if epoch is not None else None


def stamp(base_url: str | None = None, root: Path = Path("."), epoch: int | None = None) -> dict[str, Any]:
    """What goes into a report (and into its rebuild key): base URL, version, and the date and time of its data."""
    import wirespeed

    return {"base": site_base(base_url, root), "date": build_date(epoch), "epoch": epoch, "version": wirespeed.__version__}


def links(d: dict[str, Any], build: dict[str, Any] | None = None) -> list[tuple[str, str]]:
    """(label, text) pairs for the title page: the web page and data (a full base URL only), the original publication."""
    build = build or stamp()
    page = f"{build['base']}results/{d['slug']}/"
    out = [("Web page", page), ("Data", f"{page}#downloads — the result set's files, every table as CSV and all measurements as Parquet")] if is_full(build["base"]) else []
    if d["source"].get("url"):
        out.append(("Original publication", d["source"]["url"]))
    return out


def colophon(d: dict[str, Any], build: dict[str, Any] | None = None) -> list[tuple[str, str]]:
    """(label, text) pairs for the colophon: the title page's links, the result set, and the build date and version."""
    build = build or stamp()
    when = dates.text(build["date"]) if build.get("date") else "date not recorded (the set's data has no date of its own)"
    return links(d, build) + [("Result set", d["slug"]), ("Built", f"{when} by wirespeed {build['version']}")]


def meta(text: str) -> dict[str, Any]:
    """Pandoc MetaInlines of a title-page line; each http(s) URL a link (\\url, which breaks at '/' on a narrow page)."""
    from wirespeed.report import pandoc_ast as A

    out: list[dict[str, Any]] = []
    for node in A.inlines(text):
        url = node.get("c", "")
        if node["t"] == "Str" and is_full(url):
            node = {"t": "Link", "c": [A.NO_ATTR, [{"t": "Str", "c": url}], [url, ""]]}
        out.append(node)
    return {"t": "MetaInlines", "c": out}
