"""The charts' drawing cache (wirespeed/analysis/drawings.py): a chart whose spec and drawing code did not change is not
drawn again, and what the cache gives is byte for byte what drawing gives; an entry that is altered, incomplete or a
link is drawn afresh, never used; nothing is kept without a cache; pruning keeps what the outputs name. And through
the analysis step: a notebook run again over the same data draws nothing and writes the same bytes. The reports' PDF
drawings (wirespeed/report/chart_pdf.py), made from the SVG, are kept the same way."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest

from conftest import catalog_of
from wirespeed.analysis import drawings

SPEC = {
    "$schema": "https://vega.github.io/schema/vega-lite/v6.json",
    "width": 240, "height": 120, "title": "Throughput",
    "data": {"values": [{"frame": 64, "mfps": 14.88}, {"frame": 512, "mfps": 2.35}, {"frame": 1518, "mfps": 0.81}]},
    "mark": "line",
    "encoding": {"x": {"field": "frame", "type": "quantitative"}, "y": {"field": "mfps", "type": "quantitative"}},
}


def _no_drawing(monkeypatch) -> None:
    """Make any vl-convert drawing fail the test: what follows must come from the cache."""
    import vl_convert as vlc

    def refuse(*args, **kwargs):
        raise AssertionError("vl-convert was called: the chart was drawn again")

    for name in ("vegalite_to_vega", "vega_to_svg", "svg_to_pdf"):
        monkeypatch.setattr(vlc, name, refuse)


def test_a_kept_drawing_is_what_drawing_gives_and_is_not_drawn_again(tmp_path, monkeypatch):
    fresh = drawings.draw(SPEC)  # no cache
    assert fresh.svg.startswith("<svg") and "marks" in json.loads(fresh.web)
    assert not tmp_path.joinpath("charts").exists()
    cache = tmp_path / "charts"
    first = drawings.draw(SPEC, cache)
    assert first == fresh
    entry = cache / first.key[:2] / first.key
    assert sorted(p.name for p in entry.iterdir()) == sorted([drawings.SVG, drawings.WEB, drawings.SUMS])
    _no_drawing(monkeypatch)
    assert drawings.draw(SPEC, cache) == fresh
    assert drawings.draw(json.loads(json.dumps(SPEC, sort_keys=True)), cache) == fresh  # the key does not depend on key order
    with pytest.raises(AssertionError, match="drawn again"):
        drawings.draw({**SPEC, "title": "Latency"}, cache)  # another spec is another key


def test_the_key_covers_every_module_that_shapes_a_drawing(monkeypatch):
    """A change to the code that draws or leans a drawing is a new key: the kept drawings are not used again."""
    from wirespeed.presentation import svgtree
    from wirespeed.presentation.charts import web
    from wirespeed.system import codehash

    seen = []
    monkeypatch.setattr(codehash, "source_key", lambda prefix, *files: seen.extend(files) or "k")
    drawings._drawing_code.cache_clear()
    try:
        drawings.key(SPEC)
    finally:
        drawings._drawing_code.cache_clear()
    assert {drawings.__file__, web.__file__, svgtree.__file__} <= set(seen)


LAYERED = {  # text marks in two fonts, a dashed rule, half-opaque points, a legend and a facet: what the lean drawing must keep
    "$schema": "https://vega.github.io/schema/vega-lite/v6.json",
    "data": {"values": [{"frame": f, "mfps": v, "dut": d} for d in ("A", "B") for f, v in ((64, 14.88), (512, 2.35), (1518, 0.81))]},
    "facet": {"column": {"field": "dut", "type": "nominal"}},
    "spec": {"width": 160, "height": 100, "layer": [
        {"mark": {"type": "point", "opacity": 0.5, "strokeWidth": 2}, "encoding": {"x": {"field": "frame", "type": "quantitative"},
                                                                          "y": {"field": "mfps", "type": "quantitative"},
                                                                          "color": {"field": "dut", "type": "nominal"}}},
        {"mark": {"type": "rule", "strokeDash": [4, 2], "strokeWidth": 1}, "encoding": {"y": {"datum": 5}}},
        {"mark": {"type": "text", "font": "monospace", "dy": -6}, "encoding": {"x": {"field": "frame", "type": "quantitative"},
                                                                             "y": {"field": "mfps", "type": "quantitative"},
                                                                             "text": {"field": "mfps"}}}]},
    "title": "Throughput by DUT",
}


@pytest.mark.parametrize("spec", [SPEC, LAYERED], ids=["line", "layered"])
def test_a_lean_drawing_draws_the_same_pixels_in_fewer_bytes(spec):
    import vl_convert as vlc

    raw = vlc.vega_to_svg(vlc.vegalite_to_vega(spec))
    lean = drawings.draw(spec).svg
    assert lean == drawings.lean_svg(raw) and len(lean) < 0.8 * len(raw)
    assert vlc.svg_to_png(lean) == vlc.svg_to_png(drawings.rounded(raw))  # the pixels of the rounded drawing: the rest drew nothing
    assert ' opacity="1"' not in lean and "translate(0,0)" not in lean and ' stroke-width="1"' not in lean
    texts = lean.count("<text")
    assert texts and texts == raw.count("<text") and lean.count("font-family=") < texts  # the family said once, not per text
    if spec is LAYERED:
        assert 'font-family="monospace"' in lean and 'opacity="0.5"' in lean  # what differs from the root stays


def test_a_lean_drawing_keeps_every_text_as_the_set_wrote_it():
    """A title or label may hold what looks like an attribute (vl-convert leaves quotes in text as they are): the lean
    drawing edits tags only, so no word is dropped and no number in a text is rounded."""
    import re

    import vl_convert as vlc

    spec = {"$schema": "https://vega.github.io/schema/vega-lite/v6.json", "title": 'x opacity="1" font-family="Evil" v="1.23456" <b>',
            "data": {"values": [{"a": 'stroke-width="1" class="k" role="x"', "b": 1}, {"a": "ℓ𝟘 Ａ translate(0,0)", "b": 2}]},
            "mark": "bar", "encoding": {"x": {"field": "a", "type": "nominal"}, "y": {"field": "b", "type": "quantitative"}}}
    raw = vlc.vega_to_svg(vlc.vegalite_to_vega(spec))
    lean = drawings.lean_svg(raw)

    def texts(svg: str) -> list[str]:
        return re.findall(r">([^<]*)</text>", svg)

    assert 'x opacity="1" font-family="Evil" v="1.23456" &lt;b&gt;' in texts(raw)  # what the test is about: quotes in a text
    assert texts(lean) == texts(raw)
    assert vlc.svg_to_png(lean) == vlc.svg_to_png(drawings.rounded(raw))


def test_the_font_family_is_said_on_the_root_only_when_every_text_names_one():
    two = ('<svg width="1"><g><text font-family="A" x="1">a</text><text font-family="B">b</text>'
           '<text font-family="A">c</text></g></svg>')
    assert drawings.lean_svg(two) == ('<svg font-family="A" width="1"><text x="1">a</text><text font-family="B">b</text>'
                                      '<text>c</text></svg>')  # and the group with no attribute of its own goes
    bare = '<svg width="1"><text font-family="A">a</text><text>b</text></svg>'  # b inherits the reader's default: left
    assert drawings.lean_svg(bare) == bare
    grouped = '<svg width="1"><g font-family="B"><text font-family="A">a</text></g></svg>'
    assert drawings.lean_svg(grouped) == '<svg width="1"><g font-family="A"><text>a</text></g></svg>'  # B drew nothing
    stroked = '<svg><g stroke-width="2"><path stroke="red" stroke-width="1" d="M0,0"/><path d="M1,1" fill="red"/></g></svg>'
    assert drawings.lean_svg(stroked) == stroked  # 1 here overrides the group's 2


def test_the_tree_says_the_same_drawing_in_fewer_elements_and_attributes():
    """svgtree.lean_tree: a shape that neither fills nor strokes goes (but never one that is a clip's geometry), a shape
    without a stroke loses its stroke's attributes, a group with no attribute gives way to its children, what every
    child sets alike is said once on their group, and a text's or line's translation (a line's only when whole) goes
    into its coordinates."""
    from wirespeed.presentation.svgtree import lean_tree

    svg = ('<svg><g fill="none"><path d="M0,0h5v5h-5Z"/><clipPath id="c"><path d="M0,0h5v5h-5Z"/></clipPath>'
           '<g clip-path="url(#c)"><path d="M1,1" fill="red" stroke-width="2" stroke-dasharray="1,0"/></g>'
           '<g><text transform="translate(3.5,4)" fill="#111" font-size="11px">a</text>'
           '<text transform="translate(5,4) rotate(-90)" fill="#111" font-size="11px">b</text></g>'
           '<line transform="translate(0,263)" x2="560" y2="0" stroke="#ccc"/>'
           '<line transform="translate(10.5,2)" x2="5" y2="0" stroke="#ccc"/></g></svg>')
    assert lean_tree(svg) == (
        '<svg><g fill="none"><clipPath id="c"><path d="M0,0h5v5h-5Z"/></clipPath>'
        '<g clip-path="url(#c)"><path d="M1,1" fill="red"/></g>'
        '<g fill="#111" font-size="11px"><text x="3.5" y="4">a</text><text transform="translate(5,4) rotate(-90)">b</text></g>'
        '<line x2="560" y2="263" stroke="#ccc" y1="263"/><line transform="translate(10.5,2)" x2="5" stroke="#ccc"/></g></svg>')
    mixed = '<svg><g><path d="M0,0h1" stroke="red" font-size="9px"/><text font-size="11px">a</text><text font-size="11px">b</text></g></svg>'
    assert lean_tree(mixed) == '<svg><g font-size="11px"><path d="M0,0h1" stroke="red"/><text>a</text><text>b</text></g></svg>'  # a shape reads no font
    styled = '<svg><g fill="none"><path d="M0,0h5" style="stroke:red"/></g></svg>'  # paint in CSS: never judged unpainted
    assert lean_tree(styled) == styled
    kept = '<svg><g><text>a &lt;b&gt; "c" &amp; ℓ</text></g></svg>'  # text is escaped again as XML must, never edited
    assert lean_tree(kept) == '<svg><text>a &lt;b&gt; "c" &amp; ℓ</text></svg>'


def test_every_kind_of_the_examples_charts_draws_the_same_pixels_lean():
    """Each kind of chart the examples draw (one of each: throughput, latency, loss, jitter against load, ramps,
    captures, comparisons, trends), drawn from its published Vega-Lite spec: the lean drawing's pixels are the rounded
    drawing's, in fewer bytes."""
    import re

    import vl_convert as vlc

    from pipeline import BUILD, build

    build("analyse")
    kinds: dict[str, Path] = {}
    for index in sorted((BUILD / "analysis").glob("*/index.json")):
        for chart in json.loads(index.read_text(encoding="utf-8"))["charts"].values():
            kind = chart["id"].removeprefix(f"{chart.get('test')}-") if chart.get("test") else chart["id"]
            kind = re.sub(r"^(?:overview-.*|.*-(latency-histogram|chart))$", lambda m: m[1] or "overview", kind)
            kinds.setdefault(kind, index.parent / chart["spec"])
    assert {"throughput", "latency", "jitter-max-vs-load", "ramp", "summary", "overview", "chart", "latency-histogram"} <= set(kinds), sorted(kinds)
    for kind, path in kinds.items():
        raw = vlc.vega_to_svg(vlc.vegalite_to_vega(json.loads(path.read_text(encoding="utf-8"))))
        lean = drawings.lean_svg(raw)
        assert len(lean) < 0.7 * len(raw), kind
        assert vlc.svg_to_png(lean) == vlc.svg_to_png(drawings.rounded(raw)), kind


@pytest.mark.parametrize("spoil", ["altered", "truncated", "missing", "sums", "link", "shard-link", "foreign-key"])
def test_a_spoiled_entry_is_drawn_afresh_and_replaced(tmp_path, spoil):
    cache = tmp_path / "charts"
    good = drawings.draw(SPEC, cache)
    entry = cache / good.key[:2] / good.key
    if spoil == "altered":
        (entry / drawings.SVG).write_text(good.svg.replace("Throughput", "Throughpvt"))
    elif spoil == "truncated":
        (entry / drawings.WEB).write_text(good.web[:100])
    elif spoil == "missing":
        (entry / drawings.WEB).unlink()
    elif spoil == "sums":
        (entry / drawings.SUMS).write_text("{not json")
    elif spoil == "link":  # an entry that is a link to a folder holding the right files: never read through
        outside = tmp_path / "outside"
        shutil.move(entry, outside)
        entry.symlink_to(outside, target_is_directory=True)
    elif spoil == "shard-link":  # the folder above the entry a link to one holding a whole, self-consistent, other drawing
        outside = tmp_path / "outside"
        shutil.move(entry.parent, outside)
        other = outside / good.key
        (other / drawings.SVG).write_text(good.svg.replace("Throughput", "Throughpvt"))
        sums = json.loads((other / drawings.SUMS).read_text())
        sums[drawings.SVG] = hashlib.sha256((other / drawings.SVG).read_bytes()).hexdigest()
        (other / drawings.SUMS).write_text(json.dumps(sums))
        entry.parent.symlink_to(outside, target_is_directory=True)
    elif spoil == "foreign-key":  # a whole, self-consistent entry written under another key
        sums = json.loads((entry / drawings.SUMS).read_text())
        (entry / drawings.SUMS).write_text(json.dumps({**sums, "key": "0" * 64}))
    again = drawings.draw(SPEC, cache)
    assert again == good
    if spoil == "shard-link":  # drawn afresh, and nothing written through the link
        assert "Throughpvt" in (tmp_path / "outside" / good.key / drawings.SVG).read_text()
        return
    assert not entry.is_symlink() and (entry / drawings.SVG).read_text() == good.svg
    if spoil == "link":
        assert (tmp_path / "outside" / drawings.SVG).read_text() == good.svg  # the link's target was not written through


def test_only_an_absolute_path_names_a_cache(monkeypatch):
    monkeypatch.delenv(drawings.CACHE_ENV, raising=False)
    assert drawings.cache_from_env() is None
    monkeypatch.setenv(drawings.CACHE_ENV, "build/cache/charts")  # relative: it would depend on the working folder
    assert drawings.cache_from_env() is None
    monkeypatch.setenv(drawings.CACHE_ENV, "/tmp/x")
    assert drawings.cache_from_env() == Path("/tmp/x")


def test_prune_keeps_what_is_named_and_follows_no_link(tmp_path):
    cache = tmp_path / "charts"
    kept = drawings.draw(SPEC, cache)
    gone = drawings.draw({**SPEC, "title": "Latency"}, cache)
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "precious").write_text("x")
    (cache / "ab").mkdir(exist_ok=True)
    (cache / "ab" / ("ab" + "1" * 62)).symlink_to(outside, target_is_directory=True)
    (cache / "stray.txt").write_text("x")
    removed = drawings.prune(cache, {kept.key})
    assert removed == 2
    assert (cache / kept.key[:2] / kept.key / drawings.SVG).is_file()
    assert not (cache / gone.key[:2] / gone.key).exists() and not (cache / "stray.txt").exists() and not (cache / "ab").exists()
    assert (outside / "precious").read_text() == "x"


@pytest.mark.slow  # notebooks on a Jupyter kernel
def test_a_notebook_run_again_over_the_same_data_draws_nothing_and_writes_the_same_bytes(tmp_path):
    from wirespeed.analysis import run as analysis
    from wirespeed.pipeline import paths

    slug = "cisco-7600-osm-acl-2001"
    db, out = catalog_of(tmp_path, slug), tmp_path / "analysis"
    plan, errors = analysis.run(db, jobs=1, out_root=out)
    assert not errors and plan.run, errors
    cache = paths.chart_cache(out)
    named = {k for f in out.glob("*/*/outputs.json") for k in json.loads(f.read_text())["drawings"]}
    charts = list(out.glob(f"{slug}/*/charts/*.vl.json"))
    assert len(named) == len(charts) >= 3
    entries = {p.name: p.stat().st_mtime_ns for p in cache.glob("*/*")}
    assert set(entries) == named  # what the run drew, and nothing else
    before = {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file() and p.parent.name == "charts"}
    for manifest in out.glob(f"{slug}/*/manifest.json"):  # as if the notebooks' code had changed: every run again
        manifest.unlink()
    plan, errors = analysis.run(db, jobs=1, out_root=out)
    assert not errors and len(plan.run) == len(list(out.glob(f"{slug}/*/outputs.json"))), errors
    after = {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file() and p.parent.name == "charts"}
    assert after == before
    assert {p.name: p.stat().st_mtime_ns for p in cache.glob("*/*")} == entries  # read, not drawn and written again


def test_a_reports_chart_pdf_is_drawn_from_the_svg_once_and_kept_whole(tmp_path, monkeypatch):
    from wirespeed.report import chart_pdf

    svg = tmp_path / "chart.svg"
    svg.write_text(drawings.draw(SPEC).svg)
    fresh = chart_pdf.pdf(svg, None)  # no cache: nothing kept
    assert fresh.startswith(b"%PDF-") and fresh == chart_pdf.pdf(svg, None)  # the same bytes in every run
    cache = tmp_path / "chart-pdf"
    assert chart_pdf.pdf(svg, cache) == fresh
    (entry,) = cache.rglob("*.pdf")
    _no_drawing(monkeypatch)
    assert chart_pdf.pdf(svg, cache) == fresh  # from the cache
    entry.write_bytes(fresh[: len(fresh) // 2])  # a spoiled entry is drawn afresh
    with pytest.raises(AssertionError, match="drawn again"):
        chart_pdf.pdf(svg, cache)
    monkeypatch.undo()
    assert chart_pdf.pdf(svg, cache) == fresh and entry.read_bytes() == fresh
    svg.write_text(svg.read_text().replace("Throughput", "Latency"))  # another drawing, another key
    assert chart_pdf.pdf(svg, cache) != fresh and len(list(cache.rglob("*.pdf"))) == 2
    link = tmp_path / "link.svg"
    link.symlink_to(svg)
    with pytest.raises(chart_pdf.ChartPdfError, match="link.svg: the chart's drawing cannot be read"):
        chart_pdf.pdf(link, cache)


def test_the_reports_drawing_cache_keeps_the_archives_charts_only_and_follows_no_link(tmp_path):
    from wirespeed.report import chart_pdf

    static = tmp_path / "site-static"
    kept_svg = static / "results" / "a-set" / "charts" / "x.svg"
    kept_svg.parent.mkdir(parents=True)
    kept_svg.write_text(drawings.draw(SPEC).svg)
    gone_svg = tmp_path / "gone.svg"
    gone_svg.write_text(drawings.draw({**SPEC, "title": "Latency"}).svg)
    cache = tmp_path / "chart-pdf"
    chart_pdf.pdf(kept_svg, cache)
    chart_pdf.pdf(gone_svg, cache)  # a chart no longer in the archive
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "precious").write_text("x")
    (cache / "zz").symlink_to(outside, target_is_directory=True)  # beside the shards: removed, not a drawing
    kept_key = chart_pdf.key(kept_svg.read_bytes())
    (cache / kept_key[:2] / f"{kept_key[:2]}{'1' * 62}.pdf").symlink_to(outside / "precious")  # a link in a shard: removed
    assert chart_pdf.prune(static, cache) == 2  # the stale drawing and the link in a shard
    left = [p.name for p in cache.rglob("*.pdf")]
    assert left == [f"{kept_key}.pdf"] and (outside / "precious").exists() and not (cache / "zz").exists()
