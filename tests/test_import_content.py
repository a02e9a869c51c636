"""Files are recognised by content, never refused for their names: any extension, an explicit FORMAT
that the extension contradicts, gzip and Zstandard read transparently within the decompressed-size
limit; the set keeps each file under a name its kind's extension ends, and loading re-checks that
the importer reads that kind and that the content is that kind. `--dry-run --json` prints the rows."""

from __future__ import annotations

import gzip
import json
import shutil

import pytest

from conftest import ROOT, run_cli
from importer_sets import TEST_TOML, load_native
from wirespeed.importers import importers
from wirespeed.importers.dryrun import outcome_json
from wirespeed.importers.importing import import_files
from wirespeed.importers.kinds import kept_name
from wirespeed.problems import InputError
from wirespeed.resultset.compressed import unpack
from wirespeed.resultset.publish import PublishRefused, published_name

try:
    from compression import zstd  # Python 3.14
except ImportError:
    from backports import zstd

REAL = ROOT / "tests" / "real"
UDP = REAL / "iperf3" / "yardstick_iperf3.0.7_iperf3_sample_output_udp.json"
CAP = REAL / "trex-capture" / "basic_imix_golden.cap"
CSIT_GZ = REAL / "fdio-csit" / "64b-1c-ethip4-ip4base-frouter-mrr.info.json.gz"


def _rows(out) -> list[dict]:
    return [r for f in outcome_json(out)["files"] for r in f["rows"]]


def _as(tmp_path, src, name: str, data: bytes | None = None):
    path = tmp_path / "in" / name
    path.parent.mkdir(exist_ok=True)
    path.write_bytes(src.read_bytes() if data is None else data)
    return path


@pytest.mark.parametrize("name,fmt,kept", [
    ("run.res", "auto", "native/run.res.json"),  # JSON under an extension no tool reserves
    ("run.out", "iperf3", "native/run.out.json"),
    ("udp.csv", "iperf3", "native/udp.csv.json"),  # an explicit FORMAT is not second-guessed by the extension
    ("udp", "auto", "native/udp.json"),
])
def test_a_file_is_read_for_its_content_whatever_its_name(tmp_path, name, fmt, kept):
    out = import_files(fmt, [_as(tmp_path, UDP, name)], tmp_path / "results", "x-set")
    assert out.native == [kept] and out.kept == {kept: "iperf3"}
    assert (tmp_path / "results" / "x-set" / kept).read_bytes() == UDP.read_bytes()
    assert _rows(out) == _rows(import_files("iperf3", [UDP], tmp_path / "dry", "x-set", dry_run=True))


def test_a_capture_named_cap_is_kept_as_pcap(tmp_path):
    out = import_files("auto", [CAP], tmp_path / "results", "x-set", dry_run=True)
    assert [f for _file, f in out.chosen] == ["pcap"] and out.native == ["native/basic_imix_golden.cap.pcap"]
    # 500 packet records; the first at 0.000000 s and the last at 0.010399 s in their record headers: the time the
    # 500 frames occupied is that span plus one mean gap (capture.metrics.occupied_ns): 10,399,000 × 500 / 499 ns
    (row,) = _rows(out)
    assert row["metrics"]["rx_frames"]["value"] == 500 and row["metrics"]["duration_ns"]["value"] == round(10_399_000 * 500 / 499)


@pytest.mark.parametrize("name,pack,kept", [
    ("imix.pcap.gz", gzip.compress, "native/imix.pcap.gz"),
    ("imix.pcap.zst", zstd.compress, "native/imix.pcap.zst"),
    ("imix", gzip.compress, "native/imix.pcap.gz"),  # the compression and the kind from the content, not the name
    ("imix.bin", zstd.compress, "native/imix.bin.pcap.zst"),
])
def test_compressed_files_are_read_transparently(tmp_path, name, pack, kept):
    plain = REAL / "trex-pcap" / "imix.pcap"
    path = _as(tmp_path, plain, name, pack(plain.read_bytes()))
    out = import_files("auto", [path], tmp_path / "results", "x-set")
    assert out.native == [kept] and out.kept == {kept: "pcap"}
    assert (tmp_path / "results" / "x-set" / kept).read_bytes() == path.read_bytes()  # kept compressed, as it came
    assert _rows(out) == _rows(import_files("pcap", [plain], tmp_path / "plain", "x-set", dry_run=True))


def test_a_real_gzipped_csit_file_is_kept_as_it_is(tmp_path):
    out = import_files("auto", [CSIT_GZ], tmp_path / "results", "x-set", dry_run=True)
    assert [f for _file, f in out.chosen] == ["csit"] and out.native == ["native/64b-1c-ethip4-ip4base-frouter-mrr.info.json.gz"]
    assert out.rows[out.native[0]] > 0


@pytest.mark.parametrize("data,rule,message", [
    (gzip.compress(b"\0" * (33 << 20)), "limit.decompressed-size", "gzip-compressed: holds more than the limit of 32 MiB (reading stopped there)"),
    (zstd.compress(b"\0" * (33 << 20)), "limit.decompressed-size", "zstd-compressed: holds more than the limit of 32 MiB (reading stopped there)"),
    (gzip.compress(UDP.read_bytes())[:-9], "import.compressed", "gzip-compressed, but cannot be read: the gzip data ends early (a truncated file)"),
    (gzip.compress(gzip.compress(UDP.read_bytes())), "import.compressed", "gzip-compressed twice: expected one compression around the tool's file"),
    (gzip.compress(UDP.read_bytes()) + b"tail", "import.compressed", "gzip-compressed, but cannot be read: 4 bytes after the compressed data are not a gzip member"),
])
def test_compressed_input_is_bounded_and_checked(tmp_path, data, rule, message):
    path = _as(tmp_path, UDP, "bad.json.gz", data)
    with pytest.raises(InputError) as exc:
        import_files("auto", [path], tmp_path / "results", "x-set")
    assert [(p.rule, p.message) for p in exc.value.problems] == [(rule, message)]
    assert not (tmp_path / "results").exists()


def test_unpack_stops_reading_at_the_limit(monkeypatch):
    import wirespeed.resultset.compressed as compressed

    monkeypatch.setattr(compressed, "value", lambda key: 1000)
    monkeypatch.setattr(compressed, "_STEP", 100)
    data, kind, problems = unpack(gzip.compress(b"x" * 5000), "f")
    assert data is None and kind == "gzip" and problems[0].rule == "limit.decompressed-size"
    assert unpack(gzip.compress(b"x" * 1000), "f")[0] == b"x" * 1000


def test_the_kept_name_is_the_kind_the_importer_reads_or_a_refusal():
    iperf3, spirent = importers()["iperf3"], importers()["spirent"]
    assert kept_name("run.txt", UDP.read_bytes(), None, iperf3, "iperf3", "run.txt") == ("run.txt.json", [])
    assert kept_name("run.txt", UDP.read_bytes(), None, spirent, "spirent", "run.txt") == ("run.txt", [])  # text, which spirent reads
    name, problems = kept_name("x.json", CAP.read_bytes(), None, iperf3, "iperf3", "x.json")
    assert name is None and [(p.message, p.rule) for p in problems] == [("iperf3 reads json files; this file holds a pcap capture", "import.file-kind")]
    name, problems = kept_name("x", b"\x00\x01binary", None, spirent, "spirent", "x")
    assert [p.message for p in problems] == ["spirent reads csv, text files; this file holds binary data"]


NATIVE = '{{path = "{path}", importer = "{importer}", test = "imported"}}'


@pytest.mark.parametrize("path,importer,data,rule,message", [
    ("native/run.txt", "pcap", CAP.read_bytes(), "import.file-kind", "importer: pcap reads pcap, pcapng, erf, json files, not a text file (.txt)"),
    ("native/run.json.gz", "iperf3", UDP.read_bytes(), "layout.attachment-content", "the name says compressed with gzip; the content is not compressed"),
    ("native/run.json", "iperf3", gzip.compress(UDP.read_bytes()), "layout.attachment-content", "the name says not compressed; the content is compressed with gzip"),
    ("native/run.pcap", "pcap", UDP.read_bytes(), "layout.attachment-content", "does not start like a pcap capture (its extension says pcap): refused"),
    ("native/run.res", "iperf3", UDP.read_bytes(), "layout.native-type", None),
    ("native/run.json.gz", "iperf3", gzip.compress(b"\0" * (33 << 20)), "limit.decompressed-size", None),
])
def test_loading_rechecks_a_native_files_kind_and_content(tmp_path, path, importer, data, rule, message):
    rs, problems = load_native(tmp_path, {path: data}, NATIVE.format(path=path, importer=importer), TEST_TOML.format(extra=""))
    errors = [p for p in problems if p.severity == "error"]
    assert [p.rule for p in errors] == [rule], errors
    if message:
        assert (errors[0].field + ": " if errors[0].field else "") + errors[0].message == message


def test_a_compressed_native_file_loads_the_rows_of_the_plain_one(tmp_path):
    native = NATIVE.format(path="native/udp.json.zst", importer="iperf3")
    rs, problems = load_native(tmp_path / "z", {"native/udp.json.zst": zstd.compress(UDP.read_bytes())}, native, TEST_TOML.format(extra=""))
    plain, _ = load_native(tmp_path / "p", {"native/udp.json": UDP.read_bytes()}, NATIVE.format(path="native/udp.json", importer="iperf3"), TEST_TOML.format(extra=""))
    assert rs is not None and plain is not None, problems
    got = [(r.kind, r.keys, {m: c.figure.text for m, c in r.cells.items()}) for r in rs.rows if r.test == "imported"]
    want = [(r.kind, r.keys, {m: c.figure.text for m, c in r.cells.items()}) for r in plain.rows if r.test == "imported"]
    assert got == want and len(got) == 11  # 10 one-second intervals and the summary of the yardstick UDP run


def test_native_kinds_are_published_safely():
    assert published_name("s", "native/output.xml", native=True) == "native/output.xml.txt"  # XML is never served as XML
    assert published_name("s", "native/run.info.json.gz", native=True) == "native/run.info.json.gz"
    assert published_name("s", "native/trend.parquet", native=True) == "native/trend.parquet"
    for rel in ("docs/output.xml", "docs/run.json.gz", "docs/trend.parquet"):  # kinds a set keeps only as native files
        with pytest.raises(PublishRefused, match=r"\[publish.type\]"):
            published_name("s", rel)


def test_import_help_lists_every_format_with_its_line():
    proc = run_cli("import", "--help")
    assert proc.returncode == 0
    text = " ".join(proc.stdout.split())
    for name, imp in importers().items():
        assert f"{name} {' '.join(imp.summary.split())}" in text, name


def test_dry_run_json_prints_the_rows_and_writes_nothing(tmp_path):
    shutil.copyfile(CAP, tmp_path / "golden.cap")
    proc = run_cli("import", "auto", "golden.cap", "--into", "cap-2016", "--dry-run", "--json", "--root", str(tmp_path / "results"), cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert not (tmp_path / "results").exists()
    assert {k: doc[k] for k in ("ok", "set", "action", "written", "tests")} == {"ok": True, "set": "cap-2016", "action": "create", "written": False, "tests": ["capture"]}
    (f,) = doc["files"]
    assert (f["file"], f["format"], f["detected"], f["native"]) == ("golden.cap", "pcap", True, "native/golden.cap.pcap")
    (row,) = f["rows"]
    assert row["kind"] == "measurements" and row["keys"] == {"test": "capture", "trial": 1}
    assert row["metrics"]["rx_frames"] == {"metric": "rx", "unit": "frames", "value": 500, "text": "500"}
    assert row["metrics"]["duration_ns"] == {"metric": "duration", "unit": "ns", "value": 10419840, "text": "10419840"}  # 10,399,000 × 500 / 499: the time the frames occupied
    assert "tests[0].port_speed (test capture)" in doc["unstated"]
    (tmp_path / "junk.json").write_text('{"fields": [], "type": "struct"}')
    proc = run_cli("import", "auto", "junk.json", "--into", "cap-2016", "--dry-run", "--json", "--root", str(tmp_path / "results"), cwd=tmp_path)
    assert proc.returncode == 1
    doc = json.loads(proc.stdout)
    assert doc["ok"] is False and [p["rule"] for p in doc["problems"]] == ["import.unknown-format"]
    assert doc["problems"][0]["message"].startswith("no importer recognises this file: it holds a JSON object with the keys 'fields', 'type';")
