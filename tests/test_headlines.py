"""Headline figures of every example set, against the figures the seeds publish (data/results): chosen per
test kind, in human units, qualifiers kept, derived figures marked, no two identical cards; the same
cards in the site data, near the title of the set page and in the PDF; the ramp's declared limit and
its per-ramp loss-onset table; download labels with sizes."""

from __future__ import annotations

import csv
import html
import json
import math
import re

import pytest
from bs4 import BeautifulSoup

from conftest import ARCHIVE, EXAMPLES, ROOT, example_folders
from pipeline import BUILD, PUBLIC, build, read_catalog
from wirespeed.engine import ramp
from wirespeed.presentation.downloads import size_text
from wirespeed.presentation.headlines import headlines
from wirespeed.catalog.view import samples, set_summary

SETS = sorted(EXAMPLES | {"linux-netns-udp-capture-2026-11"})


@pytest.fixture(scope="module")
def cards():
    with read_catalog() as con:
        return {slug: headlines(set_summary(con, slug), samples(con, slug)) for slug in SETS}


def published(slug: str, file: str, **keys: str) -> dict[str, str]:
    """The one row of a seed CSV whose key columns have these values."""
    with open(ARCHIVE / slug / file, newline="", encoding="utf-8") as f:
        rows = [r for r in csv.DictReader(f) if all(r.get(k) == v for k, v in keys.items())]
    assert len(rows) == 1, (file, keys, rows)
    return rows[0]


def figs(card: dict) -> list[str]:
    return [f"{f['text']} {f['unit']}".strip() for f in card["figures"]]


def of_kind(cs: list[dict], kind: str) -> list[dict]:
    return [c for c in cs if c["kind"] == kind]


def test_every_example_set_has_headlines_and_no_two_cards_print_the_same(cards):
    assert len(SETS) == len(EXAMPLES)
    for slug, cs in cards.items():
        assert cs, f"{slug}: no headline figures"
        shown = [(c["kind"], c["text"]) for c in cs]
        assert len(shown) == len(set(shown)), f"{slug}: duplicate cards {shown}"
        assert len(cs) <= 7


def test_nexus_throughput_in_human_units_with_line_rate_and_loss(cards):
    row = published("cisco-nexus-9516-128x100g-2015", "throughput.csv", test="l2-unicast", frame_size="64", load_pct="99.999")
    assert row["throughput_fps"] == "19047430585" and row["throughput_l2_tbps"] == "9.752"
    tp = of_kind(cards["cisco-nexus-9516-128x100g-2015"], "throughput")[0]
    assert figs(tp) == ["19.05 Gframes/s", "9.752 Tbit/s L2", f"{row['throughput_line_rate_pct']} % of line rate", "no loss"]
    assert not any(f["derived"] for f in tp["figures"])  # all three are printed by the source
    assert {"ipv4-unicast", "ipv4-bgp"} <= set(tp["tests"])  # the same figures in the other unicast tests: one card
    lat = of_kind(cards["cisco-nexus-9516-128x100g-2015"], "latency")[0]
    assert figs(lat)[0] == f"{row['latency_avg_us']} µs average" and "at the throughput rate" in lat["context"]


def test_7600_shows_two_throughput_cards_not_three(cards):
    cs = cards["cisco-7600-osm-acl-2001"]
    row = published("cisco-7600-osm-acl-2001", "baseline.csv", test="baseline", frame_size="40")
    tps = of_kind(cs, "throughput")
    # the baseline prints its share of the maximum theoretical rate (95.6 %, as published); the two filter tests do not
    # (their tables derive 95.7 % from 28.7 Mpps): one card says "the same in" only for tests with every figure the same
    assert len(tps) == 2
    assert figs(tps[0])[0] == f"{row['throughput_mpps']} Mframes/s"
    assert f"{row['throughput_max_theoretical_pct']} % of maximum theoretical" in figs(tps[0]) and tps[0]["also"] == []
    line = next(f for f in tps[0]["figures"] if f["unit"] == "% of line rate")
    assert line["derived"] and "†" in tps[0]["text"]  # from the catalog's % of line rate, marked
    assert tps[1]["tests"] == ["filter-no-acl", "filter-acl-15k"] and not any("maximum theoretical" in f for f in figs(tps[1]))
    assert "Gbit/s SONET payload" in tps[0]["text"] and " L1" not in tps[0]["text"]  # a POS payload rate is not layer 1
    lat = published("cisco-7600-osm-acl-2001", "packet-filtering.csv", test="filter-no-acl", frame_size="40")
    assert figs(of_kind(cs, "latency")[0])[0] == f"{lat['latency_avg_us']} µs average"


def test_catalyst_keeps_qualifiers_and_shows_failover_times(cards):
    cs = cards["cisco-catalyst-6500-vss-2008"]
    row = published("cisco-catalyst-6500-vss-2008", "fabric.csv", test="fabric-vss", frame_size="64")
    tp = of_kind(cs, "throughput")[0]
    assert figs(tp)[0] == f"{row['throughput_mfps']} Mframes/s" == ">770 Mframes/s"
    assert all(f["text"].startswith(">") for f in tp["figures"])  # "more than" carries to the derived figures
    times = {c["tests"][0]: figs(c)[0] for c in of_kind(cs, "failover")}
    ms = {r["test"]: int(r["failover_time_ms"]) for r in csv.DictReader(open(ARCHIVE / "cisco-catalyst-6500-vss-2008" / "failover.csv"))}
    assert times == {t: (f"{v / 1000:.3f} s" if v >= 1000 else f"{v} ms") for t, v in ms.items()}
    assert of_kind(cs, "latency")[0]["figures"][0]["text"] == "12–17"  # a published range stays a range


def test_asr9006_and_keysight_pick_the_best_smallest_frame_row(cards):
    row = published("cisco-asr9006-rsp440-trex-2022", "loadtests.csv", test="l2xc-10g", frame_size="64", variant="multi-flow", direction="bidirectional")
    tp = of_kind(cards["cisco-asr9006-rsp440-trex-2022"], "throughput")[0]
    assert figs(tp)[:3] == [f"{row['throughput_mpps']} Mframes/s", f"{row['throughput_l1_gbps']} Gbit/s L1", f"{row['throughput_line_rate_pct']} % of line rate"]
    k = published("keysight-ixnetwork-ve-dpdk-400g-2022", "throughput.csv", test="multi-flow", frame_size="64")
    multi = next(c for c in cards["keysight-ixnetwork-ve-dpdk-400g-2022"] if c["tests"] == ["multi-flow"])
    assert figs(multi)[:2] == ["≈112 Mframes/s", "≈75 Gbit/s L1"] and k["throughput_mpps"] == "~112" and k["throughput_l1_gbps"] == "~75"


def test_ramp_limit_is_the_declared_definition_with_the_other_readings(cards):
    slug = "linux-netns-ipv4-ramp-2026-11"
    with open(ARCHIVE / slug / "samples.csv", newline="") as f:  # a second's loss: the frames the router counted dropping ÷ sent
        pts = [(float(r["t_s"]), float(r["tx_rate_pps"]), float(r["rx_rate_pps"]), int(r["lost_frames"]) / int(r["tx_frames"]) * 100)
               for r in csv.DictReader(f)]
    lossless = [rx for _, tx, rx, loss in pts if loss <= ramp.DEFAULT_THRESHOLD_PCT]
    onset = next(t for i, (t, *_) in enumerate(pts) if all(loss > ramp.DEFAULT_THRESHOLD_PCT for *_, loss in pts[i:]))
    (card,) = of_kind(cards[slug], "ramp")
    four = lambda fps: f"{fps / 1000:.{3 - math.floor(math.log10(fps / 1000))}f}"  # noqa: E731 - a headline's four significant digits
    assert figs(card)[0] == f"{four(max(lossless))} kframes/s"
    assert figs(card)[-1] == f"loss from {onset:.0f} s"
    assert card["definition"] == ramp.LIMIT_DEFINITION
    declared = [r for r in card["readings"] if r["declared"]]
    assert len(declared) == 1 and declared[0]["key"] == "limit" and len(card["readings"]) == 4
    assert all(r["explanation"] for r in card["readings"])
    peak = next(r for r in card["readings"] if r["key"] == "peak_rx")
    assert peak["text"] == four(max(rx for _, _, rx, _ in pts))


def test_capture_set_shows_latency_and_loss(cards):
    cs = cards["linux-netns-udp-capture-2026-11"]
    assert [c["kind"] for c in cs] == ["latency", "loss"]
    assert figs(cs[1])[:2] == ["no loss", "14,000 frames sent"]
    assert figs(cs[0])[0].endswith("µs average")


@pytest.fixture(scope="module")
def exported():
    build("site")
    return {p.stem: json.loads(p.read_text()) for p in (BUILD / "hugo-data" / "wirespeed" / "sets").glob("*.json")}


def test_site_page_and_pdf_show_the_exported_cards(exported, cards):
    from wirespeed.report.typesetting import pdf_text

    assert set(exported) == set(SETS) | {p.name for p in example_folders(None)}
    for slug in SETS:  # the examples' cards (the trend series' sets are the same shape as the measured examples)
        data = exported[slug]
        assert [c["text"] for c in data["headlines"]] == [c["text"] for c in cards[slug]]
        page = (PUBLIC / "results" / slug / "index.html").read_text()
        header = BeautifulSoup(page, "lxml").select_one("header.page-header")
        assert header.find(attrs={"aria-label": "Headline figures"}) and "Test report, PDF, " in header.get_text()  # near the title
        first = data["headlines"][0]["figures"][0]
        assert first["text"] in header.get_text()
        text = re.sub(r"\s+", " ", pdf_text(BUILD / "reports" / f"{slug}.pdf"))
        assert "Headline figures" in text
        assert f"{first['text']} {first['unit']}" in text.replace("\u00a0", " "), slug


def test_loss_onset_table_per_ramp(exported):
    t = exported["linux-netns-ipv4-ramp-2026-11"]["tables"]["ipv4-ramp-1518-loss-onset"]
    assert t["test"] == "ipv4-ramp-1518"
    assert [c["key"] for c in t["columns"]][:4] == ["frame_size", "limit", "limit_pct", "onset_t"]
    (row,) = t["values"]
    card = exported["linux-netns-ipv4-ramp-2026-11"]["headlines"][0]
    assert f"{row[1] / 1000:.{3 - math.floor(math.log10(row[1] / 1000))}f}" == card["figures"][0]["text"]
    assert row[3] == 19  # the first second the router counted drops beyond 0.1 % (the 65 % step), as the samples say
    assert any(ramp.LIMIT_DEFINITION in n for n in t["notes"])
    assert "ipv4-ramp-1518-loss-onset" not in exported["linux-netns-udp-capture-2026-11"]["tables"]


def test_downloads_are_labelled_in_words_with_their_sizes(exported):
    for slug, data in exported.items():
        page = (PUBLIC / "results" / slug / "index.html").read_text()
        for d in data["downloads"]:
            assert d["format"] and not d["title"].startswith("Result set file")
            if d["url"].startswith("reports/"):
                size = (BUILD / d["url"]).stat().st_size
            else:
                size = (PUBLIC / d["url"]).stat().st_size
                assert d["bytes"] == size
            assert f", {d['format']}, {size_text(size)}</span>" in html.unescape(page), (slug, d)
    assert size_text(312) == "312 bytes" and size_text(4712) == "4.7 kB" and size_text(12345) == "12 kB" and size_text(1_496_024) == "1.5 MB"
