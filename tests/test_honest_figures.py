"""Issue 13: every printed figure honest — qualifiers carried into derived figures, significance that follows
the inputs, derived marks (also in CSV downloads), one bit-rate layer per set, dates at their published
precision, and an attribution that names wirespeed as the preparer."""

from __future__ import annotations

import csv
import io
import json
import re

import pytest

from conftest import ARCHIVE, run_cli
from wirespeed.engine import dates, qualified
from wirespeed.site import data as site
from wirespeed.presentation.tables import results as tables
from wirespeed.analysis.outputs import table_csv
from wirespeed.catalog.view import set_summary

CATALYST = "cisco-catalyst-6500-vss-2008"
KEYSIGHT = "keysight-ixnetwork-ve-dpdk-400g-2022"



def _table(summary, test_id):
    return tables.results_table(summary, test_id)


def _column(table, key):
    i = next(i for i, c in enumerate(table.columns) if c.key == key)
    return [row[i] for row in table.rows]


def _row_for(table, frame):
    return next(r for r in table.rows if r[0].text == frame)


def test_catalyst_above_770_carries_greater_than_into_bit_rate_and_share(catalog):
    s = set_summary(catalog, CATALYST)
    t = _table(s, "fabric-vss")
    row = dict(zip([c.key for c in t.columns], _row_for(t, "64")))
    assert row["throughput"].text == ">770"
    assert row["throughput_l2"].text.startswith(">") and row["throughput_l2"].derived
    assert row["throughput_line_rate"].text.startswith(">") and row["throughput_line_rate"].derived
    # three significant digits from a three-digit input: no "394.2" or "39.80"
    assert row["throughput_l2"].text == ">394" and row["throughput_line_rate"].text == ">39.8"
    # the prose figures (shortcodes, key findings) print the same text
    figs = site.figures(s)
    assert figs["fabric-vss/throughput_line_rate/64"]["text"] == ">39.8"
    assert figs["fabric-vss/throughput_l2/64"]["text"] == ">394"
    # the CSV download keeps the qualifier and says which cells are derived
    rows = list(csv.reader(io.StringIO(table_csv(t))))
    assert rows[0][-1] == "Notes"
    line = next(r for r in rows if r[0] == "64")
    assert ">394" in line and ">39.8" in line and "derived by wirespeed" in line[-1]


def test_keysight_below_94_mpps_gives_below_share_not_100_016(catalog):
    s = set_summary(catalog, KEYSIGHT)
    t = _table(s, "multi-flow")
    row = dict(zip([c.key for c in t.columns], _row_for(t, "512")))
    assert row["throughput"].text == "<94"
    assert row["throughput_line_rate"].text == "<100"
    for r in t.rows:  # no 5–6 significant digits from 2–3 digit inputs anywhere in the share column
        for c in r:
            assert not re.fullmatch(r"[<>≈]?\d+\.\d{3,}", c.text) or not c.derived, c.text
    assert site.figures(s)["multi-flow/throughput_line_rate/512"]["text"] == "<100"


def test_approximate_inputs_give_approximate_derived_figures(catalog):
    s = set_summary(catalog, KEYSIGHT)
    t = _table(s, "multi-flow")
    row = dict(zip([c.key for c in t.columns], _row_for(t, "64")))
    assert row["throughput_line_rate"].text == "≈18.8"


def test_qualifier_algebra_rules():
    assert qualified.combine([("above", 1)]) == "above"
    assert qualified.combine([("above", -1)]) == "below"
    assert qualified.combine([("above", 1), ("below", -1)]) == "above"
    assert qualified.combine([("above", 1), ("approx", 1)]) == "approx"
    assert qualified.combine([("exact", 1), ("exact", -1)]) == "exact"
    assert qualified.significant_digits("770") == 3 and qualified.significant_digits("9.752") == 4
    assert qualified.significant_digits("0.050") == 2 and qualified.significant_digits("12..17") == 2
    assert qualified.text(100.016, qualified.Qualified("below", 2)) == "<100"
    assert qualified.text(35.2801, qualified.Qualified("exact", 3)) == "35.3"
    assert qualified.text(12.0, qualified.Qualified("range", 2, 17 / 12)) == "12–17"
    assert qualified.text(1934.5, qualified.Qualified("exact", 5)) == "1,934.5"


def test_one_layer_per_set_so_vss_reads_as_twice_single_chassis(catalog):
    s = set_summary(catalog, CATALYST)
    vss, single = _table(s, "fabric-vss"), _table(s, "fabric-single")
    assert any(c.key == "throughput_l2" for c in vss.columns) and any(c.key == "throughput_l2" for c in single.columns)
    assert not any(c.key == "throughput_l1" for c in vss.columns + single.columns)
    a = float(_row_for(vss, "64")[[c.key for c in vss.columns].index("throughput_l2")].value)
    b = float(_row_for(single, "64")[[c.key for c in single.columns].index("throughput_l2")].value)
    assert round(a / b, 2) == 2.0


def test_sonet_rate_is_payload_not_layer_1(catalog):
    s = set_summary(catalog, "cisco-7600-osm-acl-2001")
    labels = [c.label for t in s["meta"]["tests"] if (tb := _table(s, t["id"])) for c in tb.columns]
    assert "Throughput (L1)" not in labels
    assert any("SONET payload" in label for label in labels)


def test_caption_follows_the_rows_it_shows(catalog):
    s = set_summary(catalog, CATALYST)
    caption = _table(s, "fabric-vss").caption
    assert "throughput rate" in caption and "10 %" in caption


def test_dates_at_their_published_precision():
    assert dates.text("2015-06") == "June 2015"
    assert dates.text("2001-08") == "August 2001"
    assert dates.text("2022-11-16") == "16 November 2022"
    assert dates.text(None) == "undated"
    assert dates.span("2001-07", "2001-07") == "July 2001"
    assert dates.span("2015-05", "2015-06") == "May 2015 to June 2015"
    assert dates.epoch(None) == dates.epoch("") == 0  # an undated set still builds deterministically


def test_undated_catalyst_set_is_valid_and_never_gets_an_invented_date(catalog):
    s = set_summary(catalog, CATALYST)
    assert "published" not in s["meta"]["source"]
    for md in (ARCHIVE.parent.parent / "content" / "reviews").glob("*.md"):
        front = md.read_text().split("---")[1]
        assert not re.search(r"^date: \d{4}-\d{2}-01$", front, re.M), md.name  # no first-of-month stand-ins


def test_report_attribution_names_wirespeed_and_not_the_lab_as_author(catalog):
    import wirespeed
    from wirespeed.report import structure as report, links as reportlinks
    s = set_summary(catalog, CATALYST)
    data = {"slug": CATALYST, "title": s["meta"]["title"], "source": s["meta"]["source"], "dut": s["meta"]["dut"],
            "instrument": s["meta"]["instrument"], "campaign": s["meta"]["campaign"], "tests": s["meta"]["tests"], "tags": [], "licence": s["meta"]["licence"]}
    meta = report.metadata(data, None)
    words = " ".join(re.findall(r'"t": "Str", "c": "([^"]*)"', json.dumps(meta, ensure_ascii=False)))
    assert meta["pdf-author"]["c"] == "wirespeed"  # PDF metadata: authored by the project, not the lab
    assert "wirespeed from" in words and "Network World" in report.prepared_by(data)
    assert "undated" in words and "1 January" not in words
    assert "wirespeed did not run these tests" in words
    # issue 23: the cover states the lab's facts (where it was tested, with what), never the build; the colophon says what built it
    facts = dict(report.cover_facts(data))
    assert facts["Test instrument"] == "Spirent TestCenter" and "Network Test" in facts["Tested"], facts
    assert not any(label == "Built" for label, _ in report.links(data))
    assert any(label == "Built" and text.endswith(f"by wirespeed {wirespeed.__version__}") for label, text in reportlinks.colophon(data))
    # an undated source: the PDF is dated by the set's own last change, never the epoch's 1970
    data["changed"] = "2026-11-22T05:59:32Z"
    assert report.source_date_epoch(data, None) == "1795327172"


def test_show_prints_thousands_separators(catalog, tmp_path):
    proc = run_cli("show", CATALYST, "--db", str(tmp_path / "c.duckdb"))
    assert "6,883" in proc.stdout and "(undated)" in proc.stdout


QUALIFIER_WORDS = ("about", "around", "roughly", "approximately", "nearly", "almost", "over", "than", "under", "some")


def test_articles_never_double_a_qualifier(catalog):
    """'about ≈66 µs': a word that qualifies a figure must not stand before a figure that carries its own qualifier."""
    figs: dict[str, dict] = {}
    bad = []
    for md in sorted((ARCHIVE.parent.parent / "content" / "reviews").glob("*.md")):
        for m in re.finditer(r'(\b\w+\b)\s+\{\{< result-figure set="([^"]+)" figure="([^"]+)"', md.read_text()):
            slug = m.group(2)
            figs.setdefault(slug, site.figures(set_summary(catalog, slug)))
            f = figs[slug][m.group(3)]
            if f["text"][:1] in "≈<>≥≤" and m.group(1).lower() in QUALIFIER_WORDS:
                bad.append(f"{md.name}: {m.group(1)} {f['text']}")
    assert not bad


def test_published_content_completed(catalog):
    """Item 8: Keysight per-vCPU rates, the Catalyst backbone delay, the 7600's 30 Mpps limit as a reference line."""
    from wirespeed.presentation.charts.definitions import throughput_chart

    ks = site.figures(set_summary(catalog, KEYSIGHT))
    assert ks["per-vcpu-dpdk/throughput"]["text"] == ">20" and ks["per-vcpu-dpdk/throughput"]["unit"] == "Mpps"
    assert ks["per-vcpu-software/throughput"]["text"] == "≈2"
    cat = site.figures(set_summary(catalog, CATALYST))
    assert cat["backbone/latency_avg"]["text"] == "26–90" and cat["backbone/latency_avg"]["unit"] == "µs"
    s7600 = set_summary(catalog, "cisco-7600-osm-acl-2001")
    chart = throughput_chart(s7600, "baseline", view="absolute")
    assert chart["limits"] == [{"value": 30.0, "label": "forwarding limit 30 Mpps"}]
    pct = throughput_chart(s7600, "baseline")  # the default view, % of line rate: the limit is a labelled reference line
    assert [r["label"] for r in pct["references"]] == ["forwarding limit"]


def test_test_kind_specific_tables_and_captions(catalog):
    """The RFC 2544 trial table only for RFC 2544 tests; a fixed-rate latency chart says its load, not 'at the throughput rate'."""
    from wirespeed.presentation.charts.definitions import latency_chart
    from wirespeed.presentation.tables.trial_throughput import trial_throughput_table

    netns = set_summary(catalog, "linux-netns-ipv4-ramp-2026-11")
    assert netns["trial_throughput"] and trial_throughput_table(netns) is None  # a ramp loadtest, not RFC 2544
    summary = set_summary(catalog, "cisco-7600-osm-acl-2001")
    fixed = json.loads(json.dumps(summary))
    for r in fixed["rows"]:
        if r["test_id"] == "filter-no-acl":
            r["load_pct"] = 50.0
    for s, expected in ((summary, "at the throughput rate"), (fixed, "at 50 % load")):
        chart = latency_chart(s, "filter-no-acl")
        assert expected in chart["caption"] and expected in chart["title"]


def test_asr9006_power_readings_and_scaling_counters(catalog):
    """Item 8: the ASR9006's idle power readings (three supply modules, their total, each card's draw) and the
    counters of the scaling test, as tables of the set (page and PDF), in the review's units."""
    s = set_summary(catalog, "cisco-asr9006-rsp440-trex-2022")
    power = tables.results_table(s, "power-idle")
    assert [(c.label, c.unit) for c in power.columns] == [("Component", ""), ("Power draw", "W"), ("Voltage", "V"), ("Current", "A")]
    rows = [[c.text for c in r] for r in power.rows]
    assert rows[:4] == [["power supply module PS0/M1", "741.1", "54.9", "13.5"], ["power supply module PS0/M2", "712.4", "54.8", "13.0"],
                        ["power supply module PS0/M3", "765.8", "55.1", "13.9"], ["all three power supply modules", "2,219.3", "", ""]]
    assert sum(float(r[1]) for r in rows[:3]) == pytest.approx(2219.3)  # the published total is the modules' sum
    assert "ports" not in power.caption  # no traffic: the caption does not describe test ports
    scaling = {t: [[c.text for c in r] for r in tables.results_table(s, t).rows] for t in ("scaling-l2xc", "scaling-bridge", "scaling-ipv4-lag")}
    assert scaling["scaling-l2xc"] == [["64", "29.83", "20.05", "17.67"]]
    assert scaling["scaling-ipv4-lag"] == [["64", "59.46", "39.96", "24.43"]]
    article = (ARCHIVE.parent.parent / "content" / "reviews" / "cisco-asr9006-rsp440-trex-2022.md").read_text()
    assert 'table="power-idle-results"' in article and 'table="scaling-l2xc-results"' in article
