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
        front = yaml.safe_load(text[4:end]) or {}
    except yaml.YAMLError as exc:
        raise ArticleError(f"{path}: front matter is not valid YAML: {exc}".replace("\n", " ")) from None
    if not isinstance(front, dict):
        raise ArticleError(f"{path}:2: front matter must be a mapping")
    body_line = text[: end + 5].count("\n") + 1
    return Article(path, front, text[end + 5:], body_line)


def for_report(slug: str, root: Path = ARTICLES) -> Article | None:
    """The article that is the source of a result set's PDF report, if any."""
    if not root.is_dir():
        return None
    found = [a for a in (read(p) for p in sorted(root.glob("*.md")) if p.name != "_index.md") if a.report == slug]
    if len(found) > 1:
        raise ArticleError(f"{found[1].path}: result set {slug!r} already has its report article {found[0].path}")
    return found[0] if found else None


def cited_sets(article: Article) -> set[str]:
    """The result sets an article depends on: its report's set and every set its shortcodes name."""
    return {s.args["set"] for s in article.shortcodes() if s.args.get("set")} | ({article.report} if article.report else set())


def citing(left_out: set[str], root: Path = ARTICLES) -> dict[Path, list[str]]:
    """Articles that cite a result set left out of the site (its step failed or a file was refused),
    with the sets they miss: such an article is left out too, so the other pages still build."""
    if not left_out or not root.is_dir():
        return {}
    out = {}
    for p in sorted(root.glob("*.md")):
        if p.name == "_index.md":
            continue
        missing = sorted(cited_sets(read(p)) & left_out)
        if missing:
            out[p] = missing
    return out
