"""Review articles in content/reviews/: YAML front matter and Hugo Markdown with wirespeed shortcodes.

The PDF report of a result set is built from the article whose front matter says `report: <slug>`;
its shortcodes expand from the same exported data the web page uses.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

ARTICLES = Path("content/reviews")
SHORTCODE = re.compile(r"\{\{<\s*(/?)([a-z-]+)((?:\s+[a-z_]+=\"[^\"]*\")*)\s*>\}\}")
ARG = re.compile(r"([a-z_]+)=\"([^\"]*)\"")
KNOWN = {"result-table", "result-chart", "result-figure", "result-ref", "findings"}


class ArticleError(ValueError):
    """An article cannot be used: the message names the file, the line and what is wrong."""


@dataclass
class Shortcode:
    name: str
    args: dict[str, str]
    closing: bool
    line: int
    start: int
    end: int


@dataclass
class Article:
    path: Path
    front: dict[str, Any]
    body: str
    body_line: int  # line number of the body's first line in the file

    @property
    def report(self) -> str | None:
        return self.front.get("report")

    def shortcodes(self) -> list[Shortcode]:
        out = []
        for m in SHORTCODE.finditer(self.body):
            line = self.body_line + self.body.count("\n", 0, m.start())
            name = m.group(2)
            if name not in KNOWN:
                raise ArticleError(f"{self.path}:{line}: unknown shortcode {name!r} (known: {', '.join(sorted(KNOWN))})")
            out.append(Shortcode(name, dict(ARG.findall(m.group(3))), bool(m.group(1)), line, m.start(), m.end()))
        return out


def read(path: Path) -> Article:
    """Parse an article's front matter and body."""
    text = path.read_text(encoding="utf-8")
    if not text.startswith("---\n"):
        raise ArticleError(f"{path}:1: an article starts with YAML front matter between --- lines")
    end = text.find("\n---\n", 4)
    if end < 0:
        raise ArticleError(f"{path}:1: front matter is not closed by a --- line")
    try:
        # LibYAML's safe loader where PyYAML has it: the same YAML subset as yaml.safe_load, several times sooner
        front = yaml.load(text[4:end], Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader)) or {}  # noqa: S506 - a safe loader
    except yaml.YAMLError as exc:
        raise ArticleError(f"{path}: front matter is not valid YAML: {exc}".replace("\n", " ")) from None
    if not isinstance(front, dict):
        raise ArticleError(f"{path}:2: front matter must be a mapping")
    body_line = text[: end + 5].count("\n") + 1
    return Article(path, front, text[end + 5:], body_line)


def by_report(root: Path = ARTICLES) -> dict[str, list[Article]]:
    """Every article that is the source of a result set's PDF report, by that set: each article read once (the
    report step asks this for every set)."""
    out: dict[str, list[Article]] = {}
    for p in sorted(root.glob("*.md")) if root.is_dir() else []:
        if p.name != "_index.md" and isinstance((a := read(p)).report, str):
            out.setdefault(a.report, []).append(a)
    return out


def for_report(slug: str, root: Path = ARTICLES, reports: dict[str, list[Article]] | None = None) -> Article | None:
    """The article that is the source of a result set's PDF report, if any (`reports`: by_report's answer, read once)."""
    found = (by_report(root) if reports is None else reports).get(slug, [])
    if len(found) > 1:
        raise ArticleError(f"{found[1].path}: result set {slug!r} already has its report article {found[0].path}")
    return found[0] if found else None


def cited_sets(article: Article) -> set[str]:
    """The result sets an article depends on: its report's set, the sets its front matter lists (`resultsets`,
    which the page links) and every set its shortcodes name."""
    listed = article.front.get("resultsets") or []
    if not isinstance(listed, list) or not all(isinstance(x, str) for x in listed):
        raise ArticleError(f"{article.path}: front matter resultsets must be a list of result set slugs")
    return ({s.args["set"] for s in article.shortcodes() if s.args.get("set")} | set(listed)
            | ({article.report} if article.report else set()))


def cited_items(article: Article) -> set[tuple[str, str]]:
    """(set, table or chart id) of every table and chart its shortcodes embed or refer to."""
    return {(s.args["set"], s.args[kind]) for s in article.shortcodes() for kind in ("table", "chart") if s.args.get("set") and s.args.get(kind)}


def missing(article: Article, left_out: set[str], unavailable: dict[str, set[str]]) -> list[str]:
    """What an article cites that is not on the site: sets left out ("slug") and tables or charts that could not be
    made ("slug/item", `unavailable`: set → item ids, e.g. a comparison with a set left out)."""
    out = sorted(cited_sets(article) & left_out)
    return out + sorted(f"{s}/{i}" for s, i in cited_items(article) if i in unavailable.get(s, set()) and s not in left_out)


def citing(left_out: set[str], root: Path = ARTICLES, unavailable: dict[str, set[str]] | None = None) -> dict[Path, list[str]]:
    """Articles that cite what is not on the site (`missing`), with what they miss: such an article is left out too
    (and its set's PDF report takes the generated structure), so the other pages still build."""
    unavailable = unavailable or {}
    if not (left_out or any(unavailable.values())) or not root.is_dir():
        return {}
    out = {}
    for p in sorted(root.glob("*.md")):
        if p.name == "_index.md":
            continue
        if found := missing(read(p), left_out, unavailable):
            out[p] = found
    return out
