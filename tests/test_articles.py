"""Review articles: one per example result set, every shortcode resolves, no result copied by hand."""

from __future__ import annotations

import json
import re

import pytest

from conftest import ARCHIVE, ROOT
from pipeline import BUILD, build
from wirespeed.site import articles
ARTICLES = sorted((ROOT / "content" / "reviews").glob("*.md"))


@pytest.fixture(scope="module")
def site_data():
    build("site-data")
    return BUILD / "hugo-data" / "wirespeed" / "sets"


def test_every_seed_publication_has_a_review_article():
    import tomllib

    reports = {articles.read(p).report for p in ARTICLES}
    transcribed = {p.name for p in ARCHIVE.iterdir() if p.is_dir() and tomllib.loads((p / "result.toml").read_text())["source"]["kind"] == "transcribed"}
    assert len(transcribed) == 5 and transcribed <= reports


@pytest.mark.parametrize("path", ARTICLES, ids=[p.stem for p in ARTICLES])
def test_shortcodes_resolve(site_data, path):
    art = articles.read(path)
    for sc in art.shortcodes():
        if sc.name == "findings":
            continue
        data = json.loads((site_data / f"{sc.args['set']}.json").read_text())
        if sc.name == "result-ref":
            kind = "tables" if "table" in sc.args else "charts"
        else:
            kind = {"result-table": "tables", "result-chart": "charts", "result-figure": "figures"}[sc.name]
        ident = sc.args[kind[:-1]]
        assert ident in data[kind], f"{path}:{sc.line}: no {kind[:-1]} {ident!r}"


@pytest.mark.parametrize("path", ARTICLES, ids=[p.stem for p in ARTICLES])
def test_no_result_is_copied_by_hand(site_data, path):
    """A published figure with four or more significant digits never appears in the prose itself."""
    art = articles.read(path)
    prose = articles.SHORTCODE.sub(" ", art.body)
    data = json.loads((site_data / f"{art.report}.json").read_text())
    methods = [data["methodology"]] + [t["methodology"] for t in data["tests"]]
    settings = {format(v, "g") for m in methods for key in ("offered_loads_pct", "throughput_load_pct") for v in (m.get(key) if isinstance(m.get(key), list) else [m.get(key)]) if v is not None}
    for fid, fig in data["figures"].items():
        text = fig["text"].lstrip("≈<>≥≤")
        if text in settings:  # a test setting (e.g. the 99.999 % throughput load), stated as methodology
            continue
        digits = re.sub(r"\D", "", text)
        if len(digits.lstrip("0")) < 4 or re.fullmatch(r"\d{4}", text):
            continue
        assert not re.search(rf"(?<![\d.,]){re.escape(text)}(?![\d])", prose), f"{path}: {text} ({fid}) typed by hand"
