"""The comparison engine (wirespeed/engine/compare.py) on the example sets: the Nexus 9516 and the Catalyst 6500
at 64 bytes, as % of line rate and per port, against figures computed here by hand from the published ones in
data/results/*; and the engine's rules (one unit per table, qualifiers carried into ×N ratios, no mixed layers)."""

from __future__ import annotations

import csv
import tomllib

import pytest

from conftest import ARCHIVE, ROOT
from pipeline import read_catalog
from wirespeed.engine import compare
from wirespeed.engine.compare import CompareError, Figure, normalised_figures

NEXUS, CATALYST = "cisco-nexus-9516-128x100g-2015", "cisco-catalyst-6500-vss-2008"
WIRE_64 = (64 + 20) * 8  # bits on the wire per 64-byte frame: preamble, start delimiter and inter-frame gap add 20 bytes


def published(slug: str, file: str, test: str, size: str, column: str) -> str:
    with open(ARCHIVE / slug / file, newline="", encoding="utf-8") as f:
        return next(r[column] for r in csv.DictReader(f) if r["test"] == test and r["frame_size"] == size)


def declared_test(slug: str, test: str) -> dict:
    meta = tomllib.loads((ARCHIVE / slug / "result.toml").read_text(encoding="utf-8"))
    return next(t for t in meta["tests"] if t["id"] == test)


# Hand computations from the published figures and each test's ports and port speed.
NEXUS_FPS = float(published(NEXUS, "throughput.csv", "ipv4-unicast", "64", "throughput_fps"))  # 19,047,430,585 frames/s
CATALYST_MFPS = published(CATALYST, "fabric.csv", "fabric-vss", "64", "throughput_mfps")  # ">770" Mframes/s
NEXUS_PORTS, CATALYST_PORTS = declared_test(NEXUS, "ipv4-unicast")["ports"], declared_test(CATALYST, "fabric-vss")["ports"]  # 128 × 100G, 130 × 10G
NEXUS_LINE = NEXUS_PORTS * 100e9 / WIRE_64  # 19,047,619,047.6 frames/s
CATALYST_LINE = CATALYST_PORTS * 10e9 / WIRE_64  # 1,934,523,809.5 frames/s


def test_the_hand_figures_are_what_the_sources_print():
    assert (NEXUS_FPS, CATALYST_MFPS, NEXUS_PORTS, CATALYST_PORTS) == (19047430585, ">770", 128, 130)
    assert round(NEXUS_FPS / NEXUS_LINE * 100, 4) == 99.999  # the source prints 99.999 %
    assert round(770e6 / CATALYST_LINE * 100, 2) == 39.80


@pytest.fixture(scope="module")
def entries():
    from wirespeed.site.compare_data import entries as all_entries

    with read_catalog() as con:
        return all_entries(con, [NEXUS, CATALYST])


def at_64(entries, normalisation, rate="frames"):
    chosen = compare.select(entries, sets=[NEXUS, CATALYST], kinds=["ipv4-unicast"], xs=[64])
    return compare.table(chosen, "throughput", normalisation, rate)


def row(t, test):
    return next(r for r in t["rows"] if r["test"] == test)


def test_percent_of_line_rate_at_64_bytes(entries):
    t = at_64(entries, "line-rate")
    assert t["unit"] == "% of line rate" and [c["label"] for c in t["columns"]] == ["64 bytes"]
    assert "L1" in t["statement"] and "line rate" in t["statement"]
    nexus, vss, single = row(t, "ipv4-unicast")["cells"][0], row(t, "fabric-vss")["cells"][0], row(t, "fabric-single")["cells"][0]
    assert nexus["value"] == pytest.approx(NEXUS_FPS / NEXUS_LINE * 100, rel=1e-12)  # 99.99901 %
    assert vss["value"] == pytest.approx(770e6 / CATALYST_LINE * 100, rel=1e-12)  # 39.803 %
    # the published digits limit what is printed: 11 digits (capped at 6) for the Nexus, 3 for "more than 770"
    assert (nexus["text"], vss["text"], single["text"]) == ("99.9990", ">39.8", "39.8")
    # ×N against the best of the column; "more than 770" makes the Nexus "less than" 2.51 times better
    assert (nexus["ratio_text"], nexus["best"], nexus["heat"]) == ("×1", True, 0)
    assert vss["ratio"] == pytest.approx((NEXUS_FPS / NEXUS_LINE) / (770e6 / CATALYST_LINE), rel=1e-12)
    assert (vss["ratio_text"], single["ratio_text"]) == ("<×2.51", "×2.51")
    assert 0 < vss["heat"] < compare.HEAT_LEVELS


def test_per_port_at_64_bytes_in_one_unit(entries):
    t = at_64(entries, "per-port")
    assert t["unit"] == "Mframes/s per port"  # one unit for the whole table, by magnitude
    nexus, vss = row(t, "ipv4-unicast")["cells"][0], row(t, "fabric-vss")["cells"][0]
    assert nexus["value"] == pytest.approx(NEXUS_FPS / NEXUS_PORTS / 1e6, rel=1e-12)  # 148.808 Mframes/s per port
    assert vss["value"] == pytest.approx(770 / CATALYST_PORTS, rel=1e-12)  # 5.923 Mframes/s per port
    assert (nexus["text"], vss["text"]) == ("148.808", ">5.92")
    assert vss["ratio_text"] == "<×25.1"


def test_per_100g_and_bit_rates_never_mix_layers(entries):
    t = at_64(entries, "per-100g")
    assert t["unit"] == "Mframes/s per 100G"
    assert row(t, "fabric-vss")["cells"][0]["value"] == pytest.approx(770 / (CATALYST_PORTS * 10 / 100), rel=1e-12)  # 59.2 per 100G
    l1, l2 = at_64(entries, "per-port", "L1"), at_64(entries, "per-port", "L2")
    assert l1["unit"] == l2["unit"] == "Gbit/s per port"
    assert "L1 bit rate" in l1["statement"] and "L2" not in l1["statement"]
    assert "L2 bit rate" in l2["statement"] and "L1" not in l2["statement"]
    assert row(l1, "ipv4-unicast")["cells"][0]["value"] == pytest.approx(NEXUS_FPS * WIRE_64 / NEXUS_PORTS / 1e9, rel=1e-12)
    assert row(l2, "ipv4-unicast")["cells"][0]["value"] == pytest.approx(NEXUS_FPS * 64 * 8 / NEXUS_PORTS / 1e9, rel=1e-12)
    absolute = at_64(entries, "absolute")
    assert absolute["unit"] == "Mframes/s" and row(absolute, "ipv4-unicast")["cells"][0]["text"] == "19,047.4"


def test_latency_is_compared_as_measured_and_lower_is_better(entries):
    chosen = compare.select(entries, sets=[NEXUS, CATALYST], kinds=["ipv4-unicast"], x="load")
    t = compare.table(chosen, "latency_avg", "per-port", "L2", x="load")  # a normalisation does not apply to latency
    assert t["normalisation"] == "absolute" and t["better"] == "lower" and "as measured" in t["statement"]
    assert t["unit"] == "µs"
    loads = [c["key"] for c in t["columns"]]
    assert loads == sorted(loads, key=float)  # ascending
    vss = row(t, "fabric-vss")  # "12..17" µs at 10 % load: a range, kept as one
    assert [c["text"] for c in vss["cells"] if c] == ["12–17"]


def test_qualifiers_flow_into_ratios():
    best, more, less, about = Figure(100.0), Figure(40.0, "above", 3), Figure(40.0, "below", 3), Figure(40.0, "approx", 2)
    assert compare.ratio(more, best, True)[1] == "below"  # best ÷ (more than 40): less than 2.5
    assert compare.ratio(less, best, True)[1] == "above"
    assert compare.ratio(about, best, True)[1] == "approx"
    assert compare.ratio(Figure(4.0, "above", 2), Figure(2.0), False)[1] == "above"  # lower is better: (more than 4) ÷ 2
    assert compare.ratio_text(2.5, "below", 3) == "<×2.50" and compare.ratio_text(1.0, "exact", 3) == "×1"
    assert compare.heat(1.0) == 0 and compare.heat(compare.HEAT_CAP * 2) == compare.HEAT_LEVELS


def test_normalised_figures_come_from_the_catalog_columns():
    figs = {"throughput": Figure(1000.0), "throughput_l1": Figure(672000.0), "throughput_l2": Figure(512000.0), "throughput_line_rate": Figure(50.0)}
    n = normalised_figures(figs, ports=4, link_bps=10e9, line_rate_l1_bps=1344000.0)
    assert n["line-rate/frames"] is figs["throughput_line_rate"] and n["line-rate/L1"] is figs["throughput_line_rate"]
    assert n["line-rate/L2"].value == pytest.approx(512000 / 1344000 * 100)
    assert n["per-port/frames"].value == 250 and n["per-100g/L1"].value == pytest.approx(672000 * 100e9 / 40e9)
    assert normalised_figures({}, 4, 10e9, None) == {}


@pytest.mark.parametrize("metric, normalisation, rate", [("speed", "absolute", "frames"), ("throughput", "per-rack", "frames"), ("throughput", "absolute", "L3")])
def test_an_unknown_choice_is_refused(metric, normalisation, rate):
    with pytest.raises(CompareError):
        compare.table([], metric, normalisation, rate)


RAMP = "linux-netns-ipv4-ramp-2026-11"  # measured by wirespeed itself: one trial per offered load, no published throughput


def test_a_ramp_compares_as_forwarding_rate_over_offered_load():
    from wirespeed.site.compare_data import entries as all_entries

    with read_catalog() as con:
        ramp = all_entries(con, [RAMP])
    with open(ARCHIVE / RAMP / "measurements.csv", newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    t = compare.table(compare.select(ramp, sets=[RAMP], x="load"), "forwarding_rate", x="load")
    assert [float(c["key"]) for c in t["columns"]] == [float(r["load_pct"]) for r in rows]  # every offered load, ascending
    assert t["columns"][1]["label"] == "5 % load"
    (line,) = t["rows"]
    first = rows[0]  # e.g. 704 frames received in 1.000024 s at 1.667 % load
    assert line["cells"][0]["value"] == pytest.approx(int(first["rx_frames"]) / float(first["duration_s"]))
    assert float(line["cells"][0]["text"].replace(",", "")) == pytest.approx(int(first["rx_frames"]) / float(first["duration_s"]), abs=0.001)
    assert t["unit"] == "frames/s"
    best = max(range(len(rows)), key=lambda i: int(rows[i]["rx_frames"]) / float(rows[i]["duration_s"]))
    assert line["cells"][best]["ratio_text"] == "×1"
    loss = compare.table(compare.select(ramp, sets=[RAMP], x="load"), "loss", x="load")
    assert loss["better"] == "lower" and loss["unit"] == "%"
    # the page's address spells a whole load as "5" (JavaScript's String(5.0)); picking it selects the 5 % trial
    picked = compare.table(compare.select(ramp, sets=[RAMP], x="load", xs=["5", "18.333"]), "loss", x="load")
    assert [c["label"] for c in picked["columns"]] == ["5 % load", "18.333 % load"]
    assert compare.x_key(5.0) == "5" and compare.x_key(18.333) == "18.333" and compare.x_key("imix") == "imix"
