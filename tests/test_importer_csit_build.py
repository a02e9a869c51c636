"""Sets imported from real CSIT files of every model and container (UTI 1.5.1 gzipped, 1.0.0 of
DPDK and of T-Rex alone, 0.2.0, the 0.1.0 draft, the trending Parquet) build through the whole
pipeline into a page and a PDF that print the files' own figures."""

from __future__ import annotations

import pytest
import tomlkit

import workdir
from conftest import ROOT

pytestmark = pytest.mark.slow
REAL = ROOT / "tests" / "real" / "fdio-csit"

# one set per DUT software version (a set describes one DUT): its files, and figures each file states as the page
# and the PDF print them (a rate to the frame: the downloads keep the file's own digits)
SETS = {
    "csit-vpp-frouter-2024": (["64b-1c-ethip4-ip4base-frouter-mrr.info.json.gz", "imix-4c-ethip4-ip4scale100k-frouter-mrr.info.json.gz"],
                              ["11,598,963",  # result.receive_rate.rate.values[0] of the 64B file
                               "13,628,073"]),  # result.receive_rate.rate.avg of the IMIX file
    "csit-dpdk-l3fwd-2021": (["dpdk_64b-1c-ethip4-ip4base-l3fwd-ndrpdr.info.json", "dpdk_64b-1c-ethip4-ip4base-l3fwd-mrr.info.json",
                              "dpdk_64b-1c-ethip4-ip4base-l3fwd-soak.info.json"],
                             ["36,247,379",  # result.ndr.lower.rate.value
                              "36,272,617"]),  # result.critical_rate.lower.rate.value
    "csit-trex-2021": (["trex_64b-eth-l2bdscale1mmaclrn-tg-ndrpdr.info.json"], ["29,761,904"]),  # result.ndr.lower.rate.value
    "csit-vpp-2101": (["uti-draft-0.1.0_2101-3n-hsw.64_64b-1t1c-eth-l2patch-ndrpdr.json", "uti-draft-0.1.0_2101-3n-hsw.63_64b-1t1c-eth-l2patch-mrr.json",
                       "uti-draft-0.1.0-flat_78b-1c-ethip6-ip6base-ndrpdr.json", "uti-draft-0.1.0_2101-2n-skx.68_64b-2t1c-ethip4-ip4base-soak.json"],
                      ["21,554,817",  # test.results.test.ndr.value_pps.lower
                       "14,879,532"]),  # test.results.test.throughput.lower of the soak
    "csit-vpp-2202-trend": (["glue_ndrpdr_2021-12-06_part-00000.snappy.parquet"], ["33,733,838"]),  # row 1, result_ndr_lower_rate_value
    "csit-vpp-2202-mrr": (["uti-0.2.0_storage_test_mrr.info.json"], ["12,245,515"]),  # results.mrr.samples[0].rate.value
}
STEPS = (["validate"], ["ingest"], ["analyse"], ["site", "--data-only"], ["report"], ["site"])


def test_csit_sets_build_into_pages_and_pdfs(tmp_path):
    import subprocess

    w = workdir.make(tmp_path, examples=False)
    for article in (w / "content" / "reviews").glob("*.md"):  # the reviews cite the bundled examples, which are not here
        if article.name != "_index.md":
            article.unlink()
    for slug, (files, _figures) in SETS.items():
        proc = workdir.wirespeed(w, "import", "auto", *[str(REAL / f) for f in files], "--into", slug)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        toml = w / "data" / "results" / slug / "result.toml"
        doc = tomlkit.parse(toml.read_text())  # what a contributor adds: the fields CSIT's files do not state
        doc["title"], doc["licence"], doc["status"] = f"FD.io CSIT {slug}", "Apache-2.0", "published"
        doc["source"]["publisher"] = "FD.io CSIT"
        doc["dut"]["vendor"], doc["dut"]["model"] = "FD.io", "CSIT testbed"
        toml.write_text(tomlkit.dumps(doc))
    for step in STEPS:
        proc = workdir.wirespeed(w, *step)
        assert proc.returncode == 0 and "Traceback" not in proc.stderr, f"wirespeed {' '.join(step)}:\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
    for slug, (_files, figures) in SETS.items():
        pages = "".join(p.read_text() for p in (w / "public" / "results" / slug).rglob("index.html"))
        pdf = subprocess.run(["pdftotext", "-layout", str(w / "build" / "reports" / f"{slug}.pdf"), "-"], capture_output=True, text=True, check=True).stdout
        for figure in figures:
            assert figure in pages, (slug, figure)
            assert figure in pdf, (slug, figure)
