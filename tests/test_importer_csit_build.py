"""Sets imported from real CSIT files of every model and container (UTI 1.5.1 gzipped, 1.0.0 of
DPDK and of T-Rex alone, 0.2.0, the 0.1.0 draft, the trending Parquet) build through the whole
pipeline into a page and a PDF that print the files' own figures. The sets (tests/multifile.py CSIT_SETS, one per
DUT software version) are built in the session's real-files build (tests/realbuild.py)."""

from __future__ import annotations

import subprocess

import pytest

import multifile
import realbuild

pytestmark = pytest.mark.slow

# figures each file states, as the page and the PDF print them (a rate to the frame: the downloads keep the file's own digits)
FIGURES = {
    "csit-vpp-frouter-2024": ["11,598,963",  # result.receive_rate.rate.values[0] of the 64B file
                              "13,628,073"],  # result.receive_rate.rate.avg of the IMIX file
    "csit-dpdk-l3fwd-2021": ["36,247,379",  # result.ndr.lower.rate.value
                             "36,272,617"],  # result.critical_rate.lower.rate.value
    "csit-trex-2021": ["29,761,904"],  # result.ndr.lower.rate.value
    "csit-vpp-2101": ["21,554,817",  # test.results.test.ndr.value_pps.lower
                      "14,879,532"],  # test.results.test.throughput.lower of the soak
    "csit-vpp-2202-trend": ["33,733,838"],  # row 1, result_ndr_lower_rate_value
    "csit-vpp-2202-mrr": ["12,245,515"],  # results.mrr.samples[0].rate.value
}


def test_csit_sets_build_into_pages_and_pdfs():
    w = realbuild.build()[0]
    assert set(FIGURES) == set(multifile.CSIT_SETS) and set(FIGURES) <= set(realbuild.groups())
    for slug, figures in FIGURES.items():
        pages = "".join(p.read_text() for p in (w / "public" / "results" / slug).rglob("index.html"))
        pdf = subprocess.run(["pdftotext", "-layout", str(w / "build" / "reports" / f"{slug}.pdf"), "-"], capture_output=True, text=True, check=True).stdout
        for figure in figures:
            assert figure in pages, (slug, figure)
            assert figure in pdf, (slug, figure)
