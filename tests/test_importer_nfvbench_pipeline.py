"""Every real NFVbench file (tests/real/nfvbench/) through the whole pipeline as a contributor would
take it: `wirespeed import auto` (which must pick nfvbench), the unstated fields filled in, then
validate, ingest, analyse, site data, PDF report and site (the session's build of every real file, tests/realbuild.py). Each set gets a page and a PDF, and both
print the file's own figures: the rates the generator SENT (never the rates NFVbench asked for),
the frames, and the latency, with the percentage of line rate of the incident run at 22.4 %
(NFVbench's own 200.0 % is the sum of what it asked for in both directions)."""

from __future__ import annotations

import re
import subprocess
from html import unescape

import pytest

import realbuild
import realsets
from conftest import ROOT

pytestmark = pytest.mark.slow
REAL = ROOT / "tests" / "real" / "nfvbench"

# name → (file, what the page and the PDF print, read by hand from the file)
SETS = {
    # the incident: benchmarks.network.service_chain.EXT.result.result["64"].ndr.stats.total_tx_rate = 16701232 (frames sent
    # overall.tx_pkts 167,012,327 in duration_sec 10.0), "at least" as NFVbench warned (stats.warning) that it asked for 74404760;
    # the share of line rate the engine derives: 16,701,232 ÷ 74,404,762 (2 × 25 Gbit/s at 64 bytes) = 22.45 %
    "nfvbench-ndr-64b": ("amical_2022-04-25_nfvbench-throughput-fs_64-fc_128-rate_ndr-2.json",
                         ["≥16,701,232", "167,012,327", "≥16.70 Mframes/s", "≥22.45 % of line rate",
                          "NFVbench warned at 64 bytes (NDR): the generator sent 16,701,232 of 74,404,760 frames/s asked (22.4 %)."]),
    # …["IMIX"].ndr.stats.total_tx_rate 14161735 of rate_pps 16368398 asked; overall.tx_pkts 141617354; IMIX 64/594/1518 at 7:4:1
    "nfvbench-ndr-imix": ("amical_2022-04-25_nfvbench-throughput-fs_IMIX-fc_128-rate_ndr-2.json",
                          ["≥14,161,735", "141,617,354", "imix: 64/594/1518 bytes at 7:4:1",
                           "NFVbench warned at IMIX (NDR): the generator sent 14,161,735 of 16,368,398 frames/s asked (86.5 %)."]),
    # …["64"].stats.overall.tx.total_pkts 150321326; run_config.direction-total.tx.rate_pps 15032132.0, tx.rate_percent 40.4063724288 (both
    # directions) = 20.2031862144 % of the aggregate line rate (printed 20.2032 by the number rule); overall.rx.max_delay_usec 41
    "nfvbench-fixed-64b": ("amical_2022-04-25_nfvbench-latency-fs_64-fc_100k-rate_90pct.json", ["150,321,326", "15,032,132", "20.2032 % of line rate"]),
    # results[0]…throughput[0] (64 bytes, 100k flows): ndr.stats.total_tx_rate 577711; throughput[2] (1518 bytes): 512701
    "nfvbench-non-regression": ("testapi_nfvbench_non-regression_page1.json", ["577,711", "512,701"]),
    # results[0]…throughput[0] (64 bytes, 128 flows, PVP): total_tx_rate 216641
    "nfvbench-characterization-p2": ("testapi_nfvbench_characterization_page2.json", ["216,641"]),
    # results[0] (EXT, 2022-04-25)…throughput[1] (128 bytes, 128 flows): 18016784 (warned); results[1] (PVP, 2022-03-29)…throughput[9] (9000 bytes): 265611
    "nfvbench-characterization-p1": ("testapi_nfvbench_characterization_page1.json", ["≥18,016,784", "265,611"]),
}


def _text(html: str) -> str:
    """A page's text: tags out, entities decoded, white space collapsed."""
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S))).split())


def test_real_nfvbench_files_build_into_pages_and_pdfs_with_the_files_figures():
    """Read from the session's build of every real file (tests/realbuild.py: `import auto`, the unstated fields filled in,
    then validate, ingest, analyse, site data, PDF report and site, each step without a traceback)."""
    w, slugs, refused, chosen = realbuild.build()
    for name, _figures in SETS.values():
        rel = f"nfvbench/{name}"
        assert rel not in refused and chosen.get(rel) == "nfvbench", (rel, refused.get(rel), chosen.get(rel))
        assert realsets.slug_of(REAL / name) in slugs, rel
    for name, figures in SETS.values():
        slug = realsets.slug_of(REAL / name)
        page = _text((w / "public" / "results" / slug / "index.html").read_text())
        pdf = " ".join(subprocess.run(["pdftotext", str(w / "public" / "reports" / f"{slug}.pdf"), "-"], capture_output=True, text=True, check=True).stdout.split())
        for figure in figures:
            assert figure in page, (slug, figure)
            assert figure in pdf.replace("- ", "-"), (slug, figure)
        for text in (page, pdf):  # what NFVbench asked for is named as asked, never published as sent
            assert "74,404,760" not in text.replace("of 74,404,760 frames/s asked", "") and "200.0 %" not in text, slug


def _chart_data(spec: dict) -> list[dict]:
    """The data rows of a chart spec's first layer that has them (the marks', not the references')."""
    found = []

    def walk(node):
        if isinstance(node, dict):
            values = node.get("values")
            if isinstance(values, list) and values and isinstance(values[0], dict) and "value" in values[0]:
                found.append(values)
                return
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    walk(spec)
    return found[0] if found else []


def test_a_chart_of_the_device_draws_its_figures_not_its_ports_as_if_they_were_trials():
    """NFVbench reports a run's figures and each port direction's ("0->1", "1->0"). A chart of the device draws the run's
    figure, read from the file, once a point: never the median of the run's and its ports' figures called "3 trials"."""
    import json

    w, _slugs, _refused, _chosen = realbuild.build()
    charts = w / "public" / "results" / realsets.slug_of(REAL / "testapi_nfvbench_characterization_page1.json") / "charts"
    # results[1] (PVP, 2022-03-29), 100k flows at a fixed rate: details.results.latency[1] (64 bytes at 0.696 % of line
    # rate): synthesis.avg_delay_usec 84.00010464861909; its ports' 86 and 82 µs are in the results table
    vs_load = _chart_data(json.loads((charts / "2022-03-29-pvp-100k-flows-fixed-rate-latency-avg-vs-load.vl.json").read_text()))
    points = [(d["series"], d["load"]) for d in vs_load]
    assert len(points) == len(set(points)) == 8, points  # 4 frame sizes × 2 loads, one point each
    at = next(d for d in vs_load if d["series"] == "64" and round(d["load"], 4) == 0.6961)
    assert at["value"] == pytest.approx(84.00010464861909) and at["printed"] == "84.0001 µs"
    # the same run's NDR search, 64 bytes: details.results.throughput[20].synthesis.avg_delay_usec 119.99994997501346
    latency = _chart_data(json.loads((charts / "2022-03-29-pvp-100k-flows-ndr-latency.vl.json").read_text()))
    avg = [d for d in latency if d["frame"] == "64" and d["series"] == "average"]
    assert len(avg) == 1 and avg[0]["value"] == pytest.approx(0.11999994997501346) and "trials" not in avg[0]["printed"], avg
    assert not any("median of" in d["printed"] for d in latency)
