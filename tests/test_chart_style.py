"""Issue 14, charts that read: a colour × marker × dash per series that never repeats within a chart,
time ticks in a unit chosen by magnitude, ascending frame sizes, % of line rate by default with the line
rate and declared caps drawn over the data and labelled, variants as separate series, no legend entry
without data, no one-point chart, text of at least 11 px, and theme tokens that match the site's CSS."""

from __future__ import annotations

import json
import re

import pytest
import vl_convert as vlc

from conftest import ARCHIVE, ROOT
from wirespeed.presentation.charts.definitions import latency_chart, load_chart, ramp_chart, throughput_chart
from wirespeed.presentation.charts import compile_chart
from wirespeed.presentation.charts import theme
from wirespeed.presentation.charts.web import data_table, web_vega
from wirespeed.presentation import chartstyle
from wirespeed.presentation.overview import overview_chart
from wirespeed.catalog.view import samples, set_summary

NEXUS = "cisco-nexus-9516-128x100g-2015"
C7600 = "cisco-7600-osm-acl-2001"
RAMP = "linux-netns-ipv4-ramp-2026-11"


@pytest.mark.parametrize("n", [1, 2, 7, 8, 9, 16, 40, 64, 65, 200, chartstyle.MAX_SERIES])
def test_no_two_series_of_a_chart_look_alike(n):
    styles = chartstyle.series_styles(n)
    looks = [(c, s, tuple(d)) for c, s, d in styles]
    assert len(set(looks)) == n
    if n <= len(chartstyle.COLOURS):  # the first eight differ in colour, marker and dash, each
        assert len({c for c, _, _ in styles}) == len({s for _, s, _ in styles}) == len({tuple(d) for _, _, d in styles}) == n


def test_more_series_than_looks_is_refused():
    with pytest.raises(chartstyle.TooManySeries, match="at most 512"):
        chartstyle.series_styles(chartstyle.MAX_SERIES + 1)


@pytest.mark.parametrize("values, unit", [
    ([5e-6, 52e-3], "ms"),        # never "52,000 µs"
    ([2e-6, 900e-6], "us"),
    ([40e-9, 800e-9], "ns"),
    ([1.5e-3], "ms"),
    ([0.2, 3.0], "s"),
    ([999e-9], "ns"),
    ([1e-6], "us"),
    ([], "us"),
    ([None, 0.0], "us"),
])
def test_time_ticks_take_the_unit_of_their_magnitude(values, unit):
    assert chartstyle.time_unit(values) == unit


def test_frame_sizes_ascend_and_mixes_come_last():
    assert chartstyle.ascending_frames(["9000", "64", "1518", "IMIX", "128", "64", "9216"]) == ["64", "128", "1518", "9000", "9216", "IMIX"]


def test_legends_list_only_series_with_data():
    data = [{"s": "average"}, {"s": "maximum"}]
    assert chartstyle.present(["minimum", "average", "maximum"], data, "s") == ["average", "maximum"]
    assert chartstyle.present(None, data + [{"s": "extra"}], "s") == ["average", "maximum", "extra"]


def test_theme_tokens_are_the_sites_css_variables():
    css = (ROOT / "assets" / "css" / "main.css").read_text()
    light = dict(re.findall(r"(--[a-z-]+): (#[0-9a-f]{6});", css.split("@media")[0]))
    dark_block = re.search(r':root\[data-theme="dark"\] \{([^}]*)\}', css).group(1)
    dark = dict(re.findall(r"(--[a-z-]+): (#[0-9a-f]{6})", dark_block))
    for token, var in theme.TOKENS.items():
        if token != theme.INK:  # the palette's black stands for the text colour
            assert light[var] == token, var
        assert dark[var] == theme.DARK[var], var
    js = (ROOT / "assets" / "js" / "charts.js").read_text()
    for token, var in theme.TOKENS.items():
        assert f"'{token}': '{var}'" in js



def _marks(vg: dict) -> list[dict]:
    out = []
    for m in vg.get("marks", []):
        out.append(m)
        out += _marks(m)
    return out


def test_throughput_is_percent_of_line_rate_on_a_linear_axis_with_references_over_the_data(catalog):
    s = set_summary(catalog, C7600)
    d = throughput_chart(s, "baseline")
    assert d["y"]["title"] == "Throughput (% of line rate)" and "scale" not in d["y"]
    rows = {r["frame_size"]: r["throughput_pct_line_rate"] for r in s["rows"] if r["test_id"] == "baseline" and r.get("throughput_pct_line_rate") is not None}
    assert {float(p["frame"]): p["value"] for p in d["data"]} == {float(k): v for k, v in rows.items()}  # the catalog's column, as is
    assert d["x_order"] == sorted(d["x_order"], key=float)
    spec = compile_chart(d)
    layers = spec["layer"]
    kinds = [(l["mark"]["type"], l.get("mark", {}).get("color")) for l in layers]
    assert kinds[0][0] == "line" and kinds[0][1] is None  # the data first ...
    texts = [l["encoding"]["text"]["value"] for l in layers[1:] if l["mark"]["type"] == "text" and "value" in l["encoding"].get("text", {})]
    assert "line rate" in texts and "forwarding limit" in texts  # ... then the labelled references over it
    svg = vlc.vegalite_to_svg(spec)
    assert ">line rate<" in svg and ">forwarding limit<" in svg


def test_a_reference_label_sits_clear_of_every_line(catalog):
    """The Cisco 7600's forwarding limit climbs to line rate over the smallest frames: asked for at its start, its label
    moves to where the limit meets line rate, clear of both lines; the line-rate label, which nothing crosses, stays
    where the chart asks (the last frame size, above the line)."""
    from wirespeed.presentation.charts import series

    d = throughput_chart(set_summary(catalog, C7600), "baseline")
    refs = ([d["reference"]] if d.get("reference") else []) + d.get("references", [])
    placed = dict(zip((r["label"] for r in refs), series._label_places(d, refs, d.get("x_order"))))
    assert placed["line rate"].index == len(refs[0]["data"]) - 1 and placed["line rate"].dy == -8
    limit = next(r for r in refs if r["label"] == "forwarding limit")
    assert limit["label_at"] == 0.0 and limit["data"][placed["forwarding limit"].index]["frame"] == "64"
    texts = {l["encoding"]["text"]["value"]: l for l in compile_chart(d)["layer"] if l["mark"]["type"] == "text" and "value" in l["encoding"].get("text", {})}
    assert texts["forwarding limit"]["data"]["values"][0]["frame"] == "64"


def test_absolute_view_on_request(catalog):
    d = throughput_chart(set_summary(catalog, C7600), "baseline", view="absolute")
    assert d["id"].endswith("-absolute") and d["y"]["title"] == "Throughput (Mpps)"


def test_every_example_chart_reads(catalog):
    """Every throughput, latency and load chart of every example: ascending frame sizes, distinct looks, legend
    domains that hold only series with data, no single-point chart, no text under 11 px, time units by magnitude."""
    n = 0
    for slug in sorted(p.name for p in ARCHIVE.iterdir() if p.is_dir()):
        s = set_summary(catalog, slug)
        for t in s["meta"]["tests"]:
            defs = [throughput_chart(s, t["id"]), latency_chart(s, t["id"]), overview_chart(s, t["id"])]
            defs += [load_chart(s, t["id"], m) for m in ("latency_avg", "jitter_max")]
            for d in filter(None, defs):
                n += 1
                assert len(d["data"]) >= 2, d["id"]
                if d.get("x_order"):
                    assert d["x_order"] == chartstyle.ascending_frames(d["x_order"]), d["id"]
                vl = compile_chart(d)
                text = json.dumps(vl)
                sizes = [int(v) for v in re.findall(r'"(?:fontSize|labelFontSize|titleFontSize|subtitleFontSize)": (\d+)', text)]
                assert sizes and min(sizes) >= theme.TEXT, d["id"]
                assert "µs" not in d["y"]["title"] or max(p["value"] for p in d["data"]) < 1000, d["id"]
                for enc in (l.get("encoding", {}) for l in vl.get("layer", [vl])):
                    col = enc.get("color", {})
                    if "scale" in col:
                        dom = col["scale"]["domain"]
                        have = {str(p[col["field"]]) for p in d["data"]}
                        assert set(dom) == have, (d["id"], dom, have)
                        looks = list(zip(col["scale"]["range"], map(tuple, enc["strokeDash"]["scale"]["range"]), enc["shape"]["scale"]["range"] if "shape" in enc else dom))
                        assert len(set(looks)) == len(dom), d["id"]
    assert n >= 20


def test_variants_are_separate_series(catalog):
    s = set_summary(catalog, "cisco-asr9006-rsp440-trex-2022")
    d = throughput_chart(s, "l2xc-10g")
    assert d is not None
    names = {p["series"] for p in d["data"]}
    assert {"multi-flow", "single-flow"} <= {n.split(", ")[-1] for n in names}


def test_one_point_is_not_a_chart(catalog):
    s = set_summary(catalog, C7600)
    one = json.loads(json.dumps(s))
    keep = next(r for r in one["rows"] if r["test_id"] == "baseline" and r.get("throughput_pct_line_rate") is not None)
    one["rows"] = [r for r in one["rows"] if r["test_id"] != "baseline"] + [keep]
    assert throughput_chart(one, "baseline") is None and overview_chart(one, "baseline") is None


def test_a_ramp_has_rates_per_variant_loss_panel_and_references(catalog):
    s = set_summary(catalog, RAMP)
    pts = [p for p in samples(catalog, RAMP) if p["tx_rate_fps"] is not None]
    test = s["meta"]["tests"][0]
    line = next(r["line_rate_fps"] for r in s["rows"] if r["test_id"] == test["id"])
    d = ramp_chart(pts, test, 18.0, line)
    assert {p["series"] for p in d["data"]} == {"sent", "received"}
    assert d["panel"]["y"]["title"] == "Loss (%)" and max(p["value"] for p in d["panel"]["data"]) > 30
    assert [r["label"] for r in d["references"]] == ["offered load", "line rate"]
    two = [dict(p, variant="a") for p in pts] + [dict(p, variant="b") for p in pts]
    d2 = ramp_chart(two, test, None, line)
    assert {p["series"] for p in d2["data"]} == {"a sent", "a received", "b sent", "b received"}
    vl = compile_chart(d)
    assert "vconcat" in vl
    vg = web_vega(vl)
    assert any(sig["name"] == "width" and "containerSize" in sig.get("init", "") for sig in vg["signals"])
    table = data_table(d)
    assert table["columns"] == ["Second", "Series", "Rate", "Loss"] and len(table["rows"]) == len(d["data"]) + len(d["panel"]["data"])


def test_the_ramps_offered_load_label_leaves_the_place_the_sent_line_runs_through(catalog):
    """The IPv4 ramp asks for its offered-load label below its line, 65 % along; the sent line's points ran through it
    there (at 24 s). It goes above the line instead, clear of it; the line-rate label, with nothing in the way, stays
    at the start of its line."""
    from wirespeed.presentation.charts import series

    s = set_summary(catalog, RAMP)
    pts = [p for p in samples(catalog, RAMP) if p["tx_rate_fps"] is not None]
    test = next(t for t in s["meta"]["tests"] if t["id"] == "ipv4-ramp-1518")
    d = ramp_chart(pts, test, 19.0, next(r["line_rate_fps"] for r in s["rows"] if r["test_id"] == test["id"]))
    offered, line = series._label_places(d, d["references"], None)
    assert offered.dy < 0 < d["references"][0]["label_dy"]
    assert (line.index, line.dy) == (0, -8)


def test_a_bar_charts_line_rate_is_a_dashed_rule_across_each_bar_on_its_own_domain():
    """One frame size, several series: bars side by side, the line rate a dashed rule across each bar (a tick is a filled
    box, which no dash shows), and the y domain the chart asks for (room above 100 % of line rate, as the lines have)."""
    import io

    from PIL import Image

    data = [{"series": "ndr", "value": 18.1, "printed": "18.1"}, {"series": "pdr", "value": 18.6, "printed": "18.6"}]
    defn = {"id": "t-throughput", "type": "bars", "title": "T: throughput", "subtitle": "Higher is better · dashed: line rate", "alt": "",
            "x": {"field": "series", "title": ""}, "x_order": ["ndr", "pdr"], "data": data,
            "y": {"field": "value", "title": "Throughput (% of line rate)", "zero": True, "domain": [0, 105.0]},
            "reference": {"data": [{"series": "ndr", "line": 100.0, "line_text": "100 %"}, {"series": "pdr", "line": 100.0, "line_text": "100 %"}],
                          "y": "line", "label_field": "line_text", "title": "Line rate"}}
    spec = compile_chart(defn)
    bars, rule = spec["layer"][0], spec["layer"][1]
    assert bars["encoding"]["y"]["scale"]["domain"] == [0, 105.0]
    assert rule["mark"]["type"] == "rule" and rule["mark"]["strokeDash"] == [3, 2]
    assert rule["encoding"]["x"]["bandPosition"] == 0 and rule["encoding"]["x2"]["bandPosition"] == 1
    png = Image.open(io.BytesIO(vlc.vegalite_to_png(spec))).convert("L")
    svg = vlc.vegalite_to_svg(spec)
    assert 'stroke-dasharray="3,2"' in svg and png.size[0] > 300


def test_a_load_axis_ticks_at_the_measured_loads_only_when_their_labels_stay_apart(catalog):
    """The Nexus set's four loads (10, 50, 90, 99.999 %) are the ticks of its charts against load; loads that crowd
    the axis (NFVbench's characterization runs: 0.27, 2.57, 4.47 … %) or many of them give the axis round ticks of
    its own, whose labels do not run into each other."""
    from wirespeed.presentation.charts.definitions import _apart

    d = load_chart(set_summary(catalog, NEXUS), "l2-unicast", "jitter_max")
    assert d["x"]["ticks"] == [10.0, 50.0, 90.0, 99.999]
    assert not _apart([0.27, 0.54, 2.57, 4.06, 4.47, 8.66, 15.4, 19.8, 26.4, 33.9])
    assert not _apart([float(x) for x in range(10, 100, 10)])  # nine: more than a tick each reads well
    assert _apart([50.0]) and not _apart([])


def test_a_chart_of_samples_needs_two_intervals():
    """One interval draws one point, not a course over time: no chart (the run's figures are in its tables)."""
    from wirespeed.presentation.charts.definitions import samples_chart

    test = {"id": "tcp", "title": "TCP"}
    one = [{"test_id": "tcp", "t_s": 0.0, "port": None, "retransmits_frames": 0.0}]
    two = one + [{"test_id": "tcp", "t_s": 1.0, "port": None, "retransmits_frames": 2.0}]
    assert samples_chart(one, test, "retransmits") is None
    d = samples_chart(two, test, "retransmits")
    assert d is not None and [p["t"] for p in d["data"]] == [0.0, 1.0]
    assert "domain" not in d["y"]
    zeros = [dict(p, retransmits_frames=0.0) for p in two]  # no retransmit at all: the line on the axis's floor, whole ticks
    assert samples_chart(zeros, test, "retransmits")["y"]["domain"] == [0, 10]

