"""What a PDF report's title page says about where it lives and what built it: the full URLs of the set's web
page, its data and the original publication, the build date and the wirespeed version.

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
    """(label, text) pairs for the title page: web page, data, original publication, build."""
    build = build or stamp()
    slug, base = d["slug"], build["base"]
    page = f"{base}results/{slug}/"
    where = "" if is_full(base) else " (on the site serving this report; built without a full base URL)"
    out = [("Web page", page + where),
           ("Data", f"{page}#downloads — the result set's files, every table as CSV and all measurements as Parquet{where}")]
    if d["source"].get("url"):
        out.append(("Original publication", d["source"]["url"]))
    when = dates.text(build["date"]) if build.get("date") else "date not recorded (the set's data has no date of its own)"
    out.append(("Built", f"{when} by wirespeed {build['version']}"))
    return out


def meta(text: str) -> dict[str, Any]:
    """Pandoc MetaInlines of a title-page line; each http(s) URL a link (\\url, which breaks at '/' on a narrow page)."""
    from wirespeed.steps import pandoc_ast as A

    out: list[dict[str, Any]] = []
    for node in A.inlines(text):
        url = node.get("c", "")
        if node["t"] == "Str" and is_full(url):
            node = {"t": "Link", "c": [A.NO_ATTR, [{"t": "Str", "c": url}], [url, ""]]}
        out.append(node)
    return {"t": "MetaInlines", "c": out}
