"""Rule typed-figure: a review article's prose prints no figure typed by hand. A number with a unit of measure in an
article (content/reviews/*.md, outside its shortcodes, code and links) must come from a `result-figure` shortcode,
which gives it an explanation (wirespeed/catalog/explain.py); a hand-typed "1.60 µs" has none and may drift from the
data. Exempt are what a set declares rather than measures — a number written in a cited set's result.toml (a trial
duration, a port speed, a shaper's rate) — and the keys of its rows as printed, rounded or not (a 58.333 % load step
as "58 %"), and frame sizes, which name rows."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

from wirespeed.problems import Problem
from wirespeed.sitecheck.numbers import parse, snippet
from wirespeed.sitecheck.site import Site

RULE = "typed-figure"
KEY_DIMENSIONS = ("size",)  # frame sizes name rows
_SHORTCODE = re.compile(r"\{\{[<%].*?[%>]\}\}", re.S)
_CODE = re.compile(r"```.*?```|`[^`\n]*`", re.S)
_COMMENT = re.compile(r"<!--.*?-->", re.S)
_LINK_TARGET = re.compile(r"\]\([^)]*\)")
_FRONT = re.compile(r"\A---\n(.*?)\n---\n", re.S)
_DECLARED = re.compile(r"\d[\d_,]*(?:\.\d+)?")


def check_typed_figures(site: Site) -> Iterator[Problem]:
    """No number with a unit in an article's prose that a shortcode does not print (nor its sets declare)."""
    folder = site.public.parent / "content" / "reviews"
    for path in sorted(folder.glob("*.md")) if folder.is_dir() else []:
        text = path.read_text(encoding="utf-8")
        front = _FRONT.match(text)
        sets = _cited(front.group(1) if front else "", path.stem)
        if site.only is not None and not (sets & site.only):
            continue
        allowed = set().union(*(_declared(site, s) for s in sets)) if sets else set()
        keys = set().union(*(_keys(site, s) for s in sets)) if sets else set()
        offset = front.end() if front else 0
        prose = _blank(text, offset)
        for p in parse(prose):
            if not p.unit or p.dimension in KEY_DIMENSIONS or p.value in allowed or p.canonical in allowed or _is_key(p.value, p.decimals, keys):
                continue
            line = text.count("\n", 0, p.start) + 1
            rel = path.relative_to(site.public.parent).as_posix()
            yield Problem(rel, line, "prose", f"{p.text.strip()} typed by hand in “{snippet(prose, p.start, p.end).strip()}”: "
                          "print it with a result-figure shortcode, which explains it", RULE)


def _blank(text: str, start: int) -> str:
    """The text with its front matter, shortcodes, code, comments and link targets blanked out (offsets and lines kept)."""
    out = " " * start + text[start:]
    for pattern in (_SHORTCODE, _CODE, _COMMENT, _LINK_TARGET):
        out = pattern.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), out)
    return out


def _cited(front: str, stem: str) -> set[str]:
    """The result sets an article cites: its front matter's resultsets and report (else the set named like the file)."""
    m = re.search(r"^resultsets:\s*\[(.*?)\]", front, re.M)
    sets = set(re.findall(r"[\"']?([a-z0-9][a-z0-9-]*)[\"']?", m.group(1))) if m else set()
    if r := re.search(r"^report:\s*[\"']?([a-z0-9][a-z0-9-]*)", front, re.M):
        sets.add(r.group(1))
    return sets or {stem}


def _declared(site: Site, slug: str) -> set[float]:
    """Every number written in a set's result.toml as published (what the set declares, not what it measured)."""
    path = site.public / "results" / slug / "data" / "result.toml"
    if not path.is_file():
        return set()
    out = set()
    for m in _DECLARED.finditer(path.read_text(encoding="utf-8")):
        try:
            out.add(float(m.group(0).replace("_", "").replace(",", "")))
        except ValueError:
            continue
    return out


def _keys(site: Site, slug: str) -> set[float]:
    """The numeric keys of a set's figures (loads, from the figure ids of its exported data)."""
    data = site.sets.get(slug)
    if not data:
        path = site.build / "hugo-data" / "wirespeed" / "sets" / f"{slug}.json"
        data = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
    out = set()
    for fid in data.get("figures", {}):
        for part in fid.split("/")[2:]:
            if part.endswith("%"):
                try:
                    out.add(float(part[:-1]))
                except ValueError:
                    continue
    return out


def _is_key(value: float, decimals: int, keys: set[float]) -> bool:
    return any(round(k, decimals) == value for k in keys)
