"""Issue 24 (bytes per set): a set's captures are published gzip-compressed (`<name>.pcap.gz`, which Wireshark and
tshark open as they are), reproducibly, decompressing to the set's own bytes, which stay untouched in data/results;
every link to them names the compressed file."""

from __future__ import annotations

import gzip
import hashlib
import json

import pytest

from conftest import ARCHIVE
from pipeline import BUILD, build
from wirespeed.presentation import downloads as dl
from wirespeed.resultset import publish

SLUG = "linux-netns-udp-capture-2026-11"
CAPTURES = ("native/tx.pcap", "native/rx.pcap")


def test_a_capture_is_published_gzipped_and_decompresses_to_the_sets_bytes(tmp_path):
    src = ARCHIVE / SLUG
    before = {rel: hashlib.sha256((src / rel).read_bytes()).hexdigest() for rel in CAPTURES}
    for n, out in enumerate((tmp_path / "a", tmp_path / "b")):
        for rel in CAPTURES:
            assert publish.publish_set_file(SLUG, src, rel, out, "native") == rel + ".gz"
            assert not (out / "data" / rel).exists()
    for rel in CAPTURES:
        packed = (tmp_path / "a" / "data" / (rel + ".gz")).read_bytes()
        assert packed == (tmp_path / "b" / "data" / (rel + ".gz")).read_bytes()  # no time nor name in the header
        assert gzip.decompress(packed) == (src / rel).read_bytes()
        assert len(packed) * 4 < (src / rel).stat().st_size  # 1,496,024 bytes → about 240 KB
        assert hashlib.sha256((src / rel).read_bytes()).hexdigest() == before[rel]  # the set's file is left as it is
    labelled = dl.label([{"title": "tx", "url": "data/native/tx.pcap.gz"}], tmp_path / "a")
    assert labelled[0]["format"] == "pcap, gzip-compressed" and labelled[0]["bytes"] == (tmp_path / "a" / "data" / "native" / "tx.pcap.gz").stat().st_size


def test_other_types_keep_their_names():
    assert publish.published_name(SLUG, "results/throughput.csv") == "results/throughput.csv"
    assert publish.published_name(SLUG, "native/run.pcapng", native=True) == "native/run.pcapng.gz"
    assert publish.published_name(SLUG, "native/run.pcap.gz", native=True) == "native/run.pcap.gz"  # compressed already: as it is


@pytest.mark.slow
def test_the_sets_downloads_and_inputs_link_the_compressed_captures():
    build("site-data")
    data = json.loads((BUILD / "hugo-data" / "wirespeed" / "sets" / f"{SLUG}.json").read_text(encoding="utf-8"))
    static = BUILD / "site-static"
    urls = [d["url"] for d in data["downloads"]]
    for rel in CAPTURES:
        url = f"results/{SLUG}/data/{rel}.gz"
        assert url in urls and f"results/{SLUG}/data/{rel}" not in urls
        assert gzip.decompress((static / url).read_bytes()) == (ARCHIVE / SLUG / rel).read_bytes()
    assert not list((static / "results" / SLUG / "data").rglob("*.pcap"))
    explain = (static / "results" / SLUG / "explain.json").read_text(encoding="utf-8")
    assert f"data/{CAPTURES[0]}.gz" in explain and f"data/{CAPTURES[0]}\"" not in explain
