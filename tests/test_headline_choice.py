"""One owner for every headline: the catalog chooses a test's headline throughput once (repeats collapsed into
their summary row, the smallest frame size), and the cards, the marked figures of the compare page and the
pull-request summary all show that row with its caveats (the statistic and spread of the repeats, a lower
bound limited by the generator); a test on ports without a line rate shows no share of one."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pytest

from wirespeed.catalog.headline_choice import throughput_headline
from wirespeed.catalog.store import ingest
from wirespeed.catalog.view import set_summary
from wirespeed.presentation.charts.definitions import throughput_chart
from wirespeed.presentation.headlines import headlines
from wirespeed.presentation.tables.results import results_tables
from wirespeed.site.data import figures, mark_headlines

TOML = """format_version = 1
slug = "{slug}"
title = "Headline test"
status = "published"
licence = "CC-BY-4.0"

[source]
kind = "measured"
publisher = "wirespeed"
published = "2026-11-20"

[dut]
vendor = "Linux"
model = "bridge"

[instrument]
vendor = "netsniff-ng"
product = "trafgen"

[[tests]]
id = "bridge"
title = "Linux bridge"
rfc = ["2544"]
scenario = "l2-unicast"
topology = "port-pairs"
ports = 2
port_speed = "10G"
{nominal}direction = "unidirectional"
variants = {{ndr = "NDR", pdr = "PDR", ndr-50 = "latency trial"}}

[tests.methodology]
frame_sizes = [64, 512]
trials = 3
search = "{search}"
loss_tolerance_pct = 0.5
{limited}
[files]
measurements = ["m.csv"]
"""

# three searches at 64 bytes (the lowest first in the file), their mean with its spread, a PDR, 512 bytes, latency trials
CSV = """test,frame_size,variant,trial,offered_rate_pps,tx_frames,rx_frames,duration_s,throughput_fps,throughput_min_fps,throughput_max_fps,latency_avg_us
bridge,64,ndr,1,,,,,{q}1957,,,
bridge,64,ndr,2,,,,,{q}2959,,,
bridge,64,ndr,3,,,,,{q}2458,,,
bridge,64,ndr,,,,,,{q}2458,{q}1957,{q}2959,
bridge,64,pdr,,,,,,{q}2458,{q}1957,{q}2959,
bridge,512,ndr,,,,,,{q}3442,{q}2989,{q}3895,
bridge,64,ndr-50,1,1229,1229,1229,1.0,,,,7.161
bridge,64,ndr-50,2,1229,1229,1229,1.0,,,,5.776
"""


def summary_of(tmp_path: Path, slug: str, nominal: bool = False, limited: bool = False, search: str = "binary") -> dict:
    folder = tmp_path / "sets" / slug
    folder.mkdir(parents=True)
    (folder / "result.toml").write_text(TOML.format(slug=slug, nominal="port_speed_nominal = true\n" if nominal else "",
                                                    limited='limited_by = "generator"\n' if limited else "", search=search), encoding="utf-8")
    (folder / "m.csv").write_text(CSV.format(q=">=" if limited else ""), encoding="utf-8")
    db = tmp_path / f"{slug}.duckdb"
    (report,) = ingest([folder], db)
    assert report.action == "loaded" and not report.errors, report.errors
    con = duckdb.connect(str(db), read_only=True)
    try:
        return set_summary(con, slug)
    finally:
        con.close()


@pytest.mark.parametrize("search", ["binary", "mlrsearch"])
def test_the_mean_of_repeated_searches_is_the_headline_with_its_spread(tmp_path: Path, search: str):
    s = summary_of(tmp_path, "repeats", search=search)
    h = throughput_headline(s, "bridge")
    assert h.row["trial"] is None and h.row["variant"] == "ndr" and h.row["throughput_fps"] == 2458  # not the best search (2,959)
    assert h.repeats == 3 and h.statistic == "mean" and h.spread == (1957, 2458, 2959)
    assert h.caveats == ["mean of 3 searches: 1,957 to 2,959 frames/s, median 2,458"]
    (card,) = [c for c in headlines(s, []) if c["kind"] == "throughput"]
    assert card["figures"][0]["text"] == "2.458" and card["figures"][0]["unit"] == "kframes/s"
    # its spread in the card figure's unit, not the figure in kframes/s and its spread in frames/s
    assert card["text"].endswith(" · mean of 3 searches: 1.957 to 2.959 kframes/s, median 2.458")
    figs = figures(s)
    mark_headlines(figs, s)
    marked = {fid: f for fid, f in figs.items() if f.get("headline")}
    assert list(marked) == ["bridge/throughput/64/ndr"] and marked["bridge/throughput/64/ndr"]["text"] == "2,458"
    assert marked["bridge/throughput/64/ndr"]["label"].endswith("(mean of 3 searches: 1,957 to 2,959 frames/s, median 2,458)")
    assert figs["bridge/throughput/64/ndr/trial-2"]["text"] == "2,959"  # each search keeps a name of its own
    ranges = {d["frame"]: d["range"] for d in throughput_chart(s, "bridge", view="absolute")["data"] if d["series"] == "ndr"}
    assert ranges["64"].endswith("(3 searches, median 2,458 frames/s)"), ranges  # the chart's tooltip counts searches too


def test_a_figure_the_generator_limited_says_so_everywhere_it_is_shown(tmp_path: Path):
    s = summary_of(tmp_path, "limited", limited=True)
    h = throughput_headline(s, "bridge")
    assert h.lower_bound and h.caveats[-1] == "a lower bound, limited by the generator"
    assert h.caveats[0] == "mean of 3 searches: ≥1,957 to ≥2,959 frames/s, median ≥2,458"  # its spread's ends are bounds too
    (card,) = [c for c in headlines(s, []) if c["kind"] == "throughput"]
    assert card["figures"][0]["text"] == "≥2.458" and card["text"].endswith("a lower bound, limited by the generator")
    assert "mean of 3 searches: ≥1.957 to ≥2.959 kframes/s, median ≥2.458" in card["text"]
    figs = figures(s)
    mark_headlines(figs, s)
    assert figs["bridge/throughput/64/ndr"]["text"] == "≥2,458" and "limited by the generator" in figs["bridge/throughput/64/ndr"]["label"]
    # and the chart draws each point as the bound it is: a ≥ beside it, said in its subtitle and caption
    chart = throughput_chart(s, "bridge", view="absolute")
    assert {d["bound"] for d in chart["data"]} == {"≥"} and chart["subtitle"].endswith("≥: lower bound")
    assert chart["caption"].endswith("A point marked ≥ is a lower bound, not a measured value: the search stopped at what the generator "
                                     "could send, not at a loss of the device.")
    from wirespeed.presentation.charts import compile_chart

    drawn = compile_chart(chart)
    texts = [layer for layer in drawn["layer"] if (layer.get("mark") or {}).get("type") == "text" and layer["encoding"].get("text", {}).get("field") == "bound"]
    assert len(texts) == 1 and texts[0]["transform"] == [{"filter": "datum.bound"}]
    from wirespeed.presentation.charts.summary import summary_chart

    whole = summary_chart(s)  # the set's one chart across its tests marks them too: open points, which share a row without crowding
    assert {d["bound"] for d in whole["data"]} == {"≥"} and whole["subtitle"] == "open point: lower bound (≥)"
    assert whole["caption"].endswith("An open point is a lower bound, not a measured value (the tables print its figure with ≥): the search "
                                     "stopped at what the generator could send, not at a loss of the device.")
    layers = compile_chart(whole)["layer"]
    assert not [layer for layer in layers if layer["encoding"].get("text", {}).get("field") == "bound"]  # no symbol beside a point
    points = {json.dumps(layer.get("transform")): layer["mark"] for layer in layers if layer["mark"]["type"] == "point"}
    assert points == {'[{"filter": "!datum.bound"}]': {"type": "point", "filled": True, "opacity": 0.9, "size": 70},
                      '[{"filter": "datum.bound"}]': {"type": "point", "filled": False, "opacity": 0.95, "size": 70, "strokeWidth": 2}}
    exact = throughput_chart(summary_of(tmp_path, "exact"), "bridge", view="absolute")  # the same searches, not limited: no mark, no words
    assert {d["bound"] for d in exact["data"]} == {""} and "bound" not in exact["subtitle"] + exact["caption"]
    assert not [layer for layer in compile_chart(exact)["layer"] if (layer.get("mark") or {}).get("type") == "text"
                and layer["encoding"].get("text", {}).get("field") == "bound"]


def test_a_latency_card_from_one_of_several_trials_says_which_and_the_spread(tmp_path: Path):
    s = summary_of(tmp_path, "latency")
    (card,) = [c for c in headlines(s, []) if c["kind"] == "latency"]
    assert card["figures"][0]["text"] == "7.161" and card["figures"][-1]["text"] == "trial 1 of 2; average latency over the 2: 5.776 to 7.161 µs"


@pytest.mark.parametrize("nominal", [False, True])
def test_ports_without_a_line_rate_show_no_share_of_one(tmp_path: Path, nominal: bool):
    s = summary_of(tmp_path, f"nominal-{nominal}".lower(), nominal=nominal)
    (card,) = [c for c in headlines(s, []) if c["kind"] == "throughput"]
    shares = [f for f in card["figures"] if f["unit"] == "% of line rate"]
    chart = throughput_chart(s, "bridge")
    tables = results_tables(s, "bridge")
    labels = [c.label for c in tables[0].columns]
    if nominal:
        assert not shares and "Of line rate" not in labels and "Line rate" not in labels
        assert chart["y"]["title"] == "Throughput (frames/s)" and chart["reference"] is None and "no line rate" in chart["caption"]
    else:
        assert shares and "Of line rate" in labels and "frames/s" in chart["y"]["title"] and "all under 20 %" in chart["caption"]  # frames/s, line rate not drawn
    # the latency trials share no column with the searches: a table of their own, no row blank in the other's columns
    assert [t.id for t in tables] == ["bridge-results", "bridge-fixed-load"]
    for t in tables:
        for row in t.rows:
            assert any(c.text for c in row[len([c for c in t.columns if c.key in ("frame_size", "variant", "trial")]):]), (t.id, [c.text for c in row])


def test_a_spread_of_searches_some_of_them_bounds_marks_what_is_a_bound():
    """The lowest is a bound only when every search at it is one; the median and highest whenever any search is (one
    known only from below may lie above all the others)."""
    from wirespeed.catalog.headline_choice import _spread_bounds

    def row(v: float, q: str = "exact") -> dict:
        return {"throughput_fps": v, "cells": {"throughput": {"value": v, "qualifier": q}}}

    assert _spread_bounds([row(1900), row(1950), row(2000)]) == ("", "", "")
    assert _spread_bounds([row(1900), row(1950), row(2000, "at-least")]) == ("", "≥", "≥")
    assert _spread_bounds([row(2000, "at-least"), row(2000, "at-least")]) == ("≥", "≥", "≥")
    assert _spread_bounds([row(2000), row(2000, "at-least")]) == ("", "≥", "≥")  # an exact search at the lowest: exact
    assert _spread_bounds([row(1900, "at-most"), row(2000)]) == ("", "", "")  # an upper bound: no marks rather than wrong ones
    assert _spread_bounds([row(1900, "at-most"), row(2000, "at-least")]) == ("", "", "")  # not "≥1,900" beside a "≤1,900"
    assert _spread_bounds([row(2000, "above"), row(2100, "above")]) == ("≥", "≥", "≥")


@pytest.mark.parametrize("limited", [True, False])
def test_a_standard_deviation_of_bounds_is_flagged_as_one(tmp_path: Path, monkeypatch, limited: bool):
    """Three searches that each stopped at the generator's limit (≥) have a standard deviation of where they stopped,
    not of the device's throughput: its cell is flagged with those words and the table says what the flag means. The
    same figure of exact searches is not flagged."""
    import sys

    from wirespeed.presentation.tables.results import DISAGREES_NOTE, SPREAD_OF_BOUNDS, SPREAD_OF_BOUNDS_NOTE

    csv = CSV.replace("latency_avg_us", "latency_avg_us,throughput_stdev_fps").replace("{q}2959,\n", "{q}2959,,501\n")
    csv = "\n".join(line + ("," if line.count(",") == 11 else "") for line in csv.split("\n"))  # the other rows: no deviation
    monkeypatch.setattr(sys.modules[__name__], "CSV", csv)
    s = summary_of(tmp_path, f"stdev-{limited}".lower(), limited=limited)
    table = results_tables(s, "bridge")[0]
    col = next(i for i, c in enumerate(table.columns) if c.key == "throughput_stdev")
    flagged = [row[col] for row in table.rows if row[col].text]
    assert [c.text for c in flagged] == ["501", "501"]  # the NDR's and the PDR's summary rows
    if limited:
        assert {c.flag for c in flagged} == {SPREAD_OF_BOUNDS} and SPREAD_OF_BOUNDS_NOTE in table.notes and DISAGREES_NOTE not in table.notes
    else:
        assert {c.flag for c in flagged} == {None} and SPREAD_OF_BOUNDS_NOTE not in table.notes
