"""`wirespeed import`: auto-detection over every importer's example files, the draft it writes and
the one list of fields left to fill in, merging into an existing set, and bad input that leaves
the set exactly as it was. The end-to-end test builds imported sets into a page and a PDF."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import tomlkit

import multifile
import realbuild
from conftest import ARCHIVE, ROOT, run_cli
from multifile import CSIT, EX, NFV, TCP, UDP
from wirespeed.importers import importers
from wirespeed.importers.importing import detect, unpacked
from wirespeed.resultset import writer

SOAK = EX / "csit" / "soak-64b-2t1c-l3fwd.info.json"


def _import(tmp: Path, *args: str):
    return run_cli("import", *args, "--root", str(tmp / "results"), cwd=tmp)


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()} if folder.exists() else {}


def _examples() -> list[tuple[str, str]]:
    return [(name, ex) for name, imp in importers().items() for ex in imp.examples]


def test_every_importer_declares_example_files_that_exist():
    for name, imp in importers().items():
        assert imp.examples, f"importer {name} declares no example file"
        for ex in imp.examples:
            assert (ROOT / ex).is_file() and ex.startswith("docs/importers/examples/"), ex


@pytest.mark.parametrize("name,example", _examples())
def test_auto_picks_the_right_importer_for_every_example(name, example):
    path = ROOT / example
    data, _compression, problems = unpacked(path.read_bytes(), example)  # a .flent.gz is read as its JSON
    assert problems == [] and detect(data, path.name, example, importers()) == (name, [])


def test_auto_says_which_importer_it_chose(tmp_path):
    proc = _import(tmp_path, "auto", str(UDP), str(NFV), str(CSIT), "--into", "mixed-2024", "--dry-run")
    assert proc.returncode == 0, proc.stderr
    assert f"auto: {UDP} is iperf3" in proc.stdout and f"auto: {NFV} is nfvbench" in proc.stdout and f"auto: {CSIT} is csit" in proc.stdout
    assert not (tmp_path / "results").exists()


def test_auto_refuses_an_unrelated_file_and_names_the_formats(tmp_path):
    other = tmp_path / "baseline.csv"
    shutil.copyfile(ARCHIVE / "cisco-7600-osm-acl-2001" / "baseline.csv", other)
    proc = _import(tmp_path, "auto", str(other), "--into", "x-set")
    assert proc.returncode == 1
    formats = ", ".join(importers())
    assert proc.stderr.splitlines() == [f"baseline.csv: no importer recognises this file: it holds text whose first line is "
                                        f"'test,frame_size,throughput_mpps,throughput_max_theoretical_pct'; expected one of the formats {formats} "
                                        "(wirespeed import --help says what each reads) [import.unknown-format]", "nothing written"]
    assert not (tmp_path / "results").exists()
    proc = _import(tmp_path, "spirent-9000", str(UDP), "--into", "x-set")
    assert proc.returncode == 1 and f"no such importer (formats: auto, {formats})" in proc.stderr


def test_plugins_lists_every_importer_with_a_line():
    proc = run_cli("plugins", "importers")
    assert proc.returncode == 0
    lines = proc.stdout.splitlines()
    for name, imp in importers().items():
        assert any(re.fullmatch(rf"\s+{re.escape(name)}\s+{re.escape(imp.summary)}", line) for line in lines), name


def test_import_writes_a_draft_and_one_list_of_unstated_fields(tmp_path):
    proc = _import(tmp_path, "iperf3", str(UDP), str(TCP), "--into", "lo-iperf3-2026")
    assert proc.returncode == 0, proc.stderr
    folder = tmp_path / "results" / "lo-iperf3-2026"
    assert (folder / "native" / "udp.json").read_bytes() == UDP.read_bytes()
    doc = tomlkit.parse((folder / "result.toml").read_text())
    assert doc["status"] == "draft" and doc["source"]["kind"] == "imported" and doc["instrument"]["software"][0]["version"] == "3.12"
    assert [dict(n) for n in doc["files"]["native"]] == [{"path": "native/udp.json", "importer": "iperf3", "test": "udp-10m"},
                                                        {"path": "native/tcp.json", "importer": "iperf3", "test": "tcp-100m"}]
    listed = proc.stdout.split("then run: wirespeed validate")[1].splitlines()[1:]
    unstated = [line.strip().split(" (test ")[0] for line in listed]
    assert unstated == ["dut.model", "dut.vendor", "licence", "source.publisher", "title", "tests[0].port_speed", "tests[0].ports", "tests[0].scenario",
                        "tests[0].topology", "tests[1].port_speed", "tests[1].ports", "tests[1].scenario", "tests[1].topology"]
    check = run_cli("validate", str(folder), cwd=tmp_path)
    assert check.returncode == 1
    fields = [re.match(r"\S+: (\S+): missing required field '\w+' \[schema.required\]$", line) for line in check.stdout.splitlines()]
    assert all(fields) and sorted(m.group(1) for m in fields) == sorted(unstated)  # validate fails on exactly those, nothing else


def test_dry_run_prints_and_writes_nothing(tmp_path):
    proc = _import(tmp_path, "csit", str(CSIT), "--into", "vpp-csit-2024", "--dry-run")
    assert proc.returncode == 0, proc.stderr
    assert "would create" in proc.stdout and ('{path = "native/ndrpdr-64b-2t1c-l3fwd.info.json", importer = "csit", '
                                             'test = "2n1l-25ge2p1xxv710-ethip4-ip4base-l3fwd-ndrpdr-2t1c", frame_size = 64}') in proc.stdout
    assert not (tmp_path / "results").exists()


def test_update_merges_and_keeps_what_the_contributor_wrote(tmp_path):
    assert _import(tmp_path, "auto", str(CSIT), "--into", "vpp-csit-2024").returncode == 0
    toml = tmp_path / "results" / "vpp-csit-2024" / "result.toml"
    text = toml.read_text().replace('status = "draft"', 'status = "draft"\ntitle = "VPP on X710, by hand"  # the contributor\'s own words')
    toml.write_text(text.replace('[dut]', '[dut]\nvendor = "Acme"\nmodel = "R1"'))
    bigger = json.loads(CSIT.read_bytes())
    bigger["tags"] = ["1518B" if t == "64B" else t for t in bigger["tags"]]
    for bound in ("ndr", "pdr"):
        for side in ("lower", "upper"):
            b = bigger["result"][bound][side]
            b["rate"]["value"] = 800000.0
            b["bandwidth"]["value"] = 800000.0 * 1538 * 8
    (tmp_path / "info-1518.json").write_text(json.dumps(bigger))
    proc = _import(tmp_path, "auto", str(SOAK), str(tmp_path / "info-1518.json"), "--into", "vpp-csit-2024")
    assert proc.returncode == 0, proc.stderr
    doc = tomlkit.parse(toml.read_text())
    assert "# the contributor's own words" in toml.read_text() and doc["title"] == "VPP on X710, by hand" and doc["dut"]["vendor"] == "Acme"
    ndrpdr, soak = "2n1l-25ge2p1xxv710-ethip4-ip4base-l3fwd-ndrpdr-2t1c", "2n1l-25ge2p1xxv710-ethip4-ip4base-l3fwd-soak-2t1c"
    assert [t["id"] for t in doc["tests"]] == [ndrpdr, soak]
    assert doc["tests"][0]["methodology"]["frame_sizes"] == [64, 1518]  # the 1518-byte file extends the same test
    assert [(n["path"], n["test"], n.get("frame_size")) for n in doc["files"]["native"]] == [
        ("native/ndrpdr-64b-2t1c-l3fwd.info.json", ndrpdr, 64), ("native/soak-64b-2t1c-l3fwd.info.json", soak, 64),
        ("native/info-1518.json", ndrpdr, 1518)]
    assert "dut.vendor" not in proc.stdout and "title\n" not in proc.stdout and "source.publisher" in proc.stdout


def test_bad_input_leaves_the_set_as_it_was(tmp_path):
    assert _import(tmp_path, "auto", str(NFV), "--into", "pvp-2024").returncode == 0
    folder = tmp_path / "results" / "pvp-2024"
    before = _snapshot(folder)
    cut = tmp_path / "cut.json"
    cut.write_bytes(UDP.read_bytes()[:1500])
    cases = [
        ((str(NFV),), "auto", [f"{NFV}: duplicated run: the same file is already imported as native/ndr-64b-generator-short.json [import.duplicate]"]),
        ((str(TCP), str(cut)), "iperf3", None),
        ((str(UDP),), "csit", [f"{UDP}: expected a CSIT test-case JSON (UTI model): an object with 'result' (1.x), 'results' (0.2.0) or "
                               "'test' (0.1.0 draft); found keys end, intervals, start [import.csit]"]),
        ((str(UDP), str(UDP)), "iperf3", [f"{UDP}: duplicated run: the same file is already imported as {UDP} [import.duplicate]"]),
    ]
    for files, fmt, expected in cases:
        proc = _import(tmp_path, fmt, *files, "--into", "pvp-2024")
        assert proc.returncode == 1 and proc.stderr.splitlines()[-1] == "nothing written", proc.stderr
        lines = proc.stderr.splitlines()[:-1]
        if expected is None:
            assert len(lines) == 1 and re.match(r"cut.json:(\d+): the JSON stops at line \1 before it closes: a truncated or interrupted "
                                                r"iperf3 run \[import.iperf3\]$", lines[0]), lines
        else:
            assert lines == expected
        assert _snapshot(folder) == before
    assert [p.name for p in folder.parent.iterdir()] == ["pvp-2024"]  # no temporary folder left behind


def test_the_writer_leaves_nothing_half_written(tmp_path, monkeypatch):
    folder = tmp_path / "s"
    writer.write_set(folder, 'format_version = 1\n# kept\n', {"native/a.json": b"{}"})
    before = _snapshot(folder)

    def broken(tmp, target):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(writer.atomic, "swap_dir", broken)
    with pytest.raises(OSError):
        writer.write_set(folder, writer.read_document(folder), {"native/b.json": b"[]"})
    assert _snapshot(folder) == before and [p.name for p in tmp_path.iterdir()] == ["s"]
    with pytest.raises(writer.WriteError):
        writer.write_set(folder, "x = [", {})
    with pytest.raises(writer.WriteError):
        writer.write_set(folder, "x = 1", {"../escape.json": b""})
    assert _snapshot(folder) == before


# --- end to end: import → fill in → ingest → analyse → site → report ------------------------------

# figure as the file states it → as the page and the PDF print it (the number rule: a derived rate to the frame
# or bit, a ratio to its significant digits); the downloads keep the file's own digits
FIGURES = {"lo-iperf3-2026": ("9928371.18033359", "9,928,371"), "pvp-nfvbench-2024": ("16701232", "16,701,232"),
           "vpp-csit-2024": ("36247378.970451966", "36,247,379"), "trex-2024": ("19886363.6", "19,886,364"),
           "stc-2024": ("40431090", "40,431,090"), "ixn-2024": ("115052349", "115,052,349"), "netperf-2011": ("15262.48", "15,262.5"),
           "k8s-netperf-2025": ("698.866667", "698.867"), "flent-2015": ("49.856", "49.856"), "iperf2-2026": ("10492942", "10,492,942"),
           "moongen-2019": ("15327522", "15,327,522"), "lo-iperf3-bidir-2026": ("100304977.2636599", "100,304,977")}


@pytest.mark.slow
def test_imported_sets_build_into_a_page_and_a_pdf():
    """The sets of tests/multifile.py IMPORTED (every importer's example files, several to a set where they belong
    together), built in the session's real-files build (tests/realbuild.py: import auto, the unstated fields filled in,
    then the whole pipeline)."""
    w = realbuild.build()[0]
    assert set(FIGURES) == set(multifile.IMPORTED) and set(FIGURES) <= set(realbuild.groups())
    for slug, (exact, printed) in FIGURES.items():
        page = (w / "public" / "results" / slug / "index.html").read_text()
        assert printed in page, slug
        pdf = subprocess.run(["pdftotext", "-layout", str(w / "build" / "reports" / f"{slug}.pdf"), "-"], capture_output=True, text=True, check=True).stdout
        assert printed in pdf, slug
        downloads = "".join(p.read_text() for p in (w / "public" / "results" / slug / "tables").iterdir())  # CSV and JSON
        assert exact in downloads, slug
    # the TCP run's figures are goodput, RTT and congestion window, charted per interval
    charts = w / "build" / "analysis" / "lo-iperf3-2026" / "loadtest" / "charts"
    assert {"tcp-100m-goodput-samples.svg", "tcp-100m-rtt-avg-samples.svg", "tcp-100m-cwnd-samples.svg", "udp-10m-goodput-samples.svg"} <= {p.name for p in charts.iterdir()}


def _damaged(example: Path):
    """The example cut short at a few places and, for JSON, with each value replaced by the wrong kind."""
    data = example.read_bytes()
    for cut in (1, len(data) // 3, len(data) - 2):
        yield data[:cut]
    try:
        base = json.loads(data)
    except ValueError:
        return

    def walk(node, path=()):
        yield path
        items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
        for k, v in items:
            yield from walk(v, (*path, k))

    for path in list(walk(base))[1:]:
        for wrong in ([], "x", None, -1):
            doc = json.loads(data)
            node = doc
            for k in path[:-1]:
                node = node[k]
            node[path[-1]] = wrong
            yield json.dumps(doc).encode()


@pytest.mark.slow  # a fuzzer: every value of every example replaced four ways, each converted (thousands of runs)
@pytest.mark.parametrize("name,example", _examples())
def test_importers_never_raise_on_damaged_input(name, example):
    """Every problem is a line, never a traceback: describe and convert survive damaged examples."""
    from wirespeed.importers import checked

    imp = importers()[name]
    plan = imp.describe((ROOT / example).read_bytes(), "x")

    class Draft:
        imixes: dict = {}

        def __init__(self, test_id):
            self.id = test_id

    for data in _damaged(ROOT / example):
        imp.describe(data, "x")
        for t in plan.tests:
            for extra in t.native:
                rows, problems, _n = imp.convert(data, "x", {"path": "x", "importer": name, "test": t.id, **extra}, Draft(t.id))
                checked(rows, problems, "x")


def test_rows_are_checked_before_anything_is_written(tmp_path):
    doc = json.loads(NFV.read_bytes())
    doc["benchmarks"]["network"]["service_chain"]["EXT"]["result"]["result"]["64"]["ndr"]["stats"]["overall"]["drop_percentage"] = 180.5
    bad = tmp_path / "nfv.json"
    bad.write_text(json.dumps(doc))
    proc = _import(tmp_path, "nfvbench", str(bad), "--into", "pvp-2024")
    assert proc.returncode == 1
    assert proc.stderr.splitlines() == ["nfv.json: loss: 180.5 % is above the possible maximum of 100 (test ext-128-flows-ndr, frame_size 64, variant ndr) [csv.range]",
                                        "nothing written"]
    assert not (tmp_path / "results").exists()
    ok = _import(tmp_path, "nfvbench", str(NFV), "--into", "pvp-2024")
    assert ok.returncode == 0 and "  native/ndr-64b-generator-short.json: 3 rows" in ok.stdout.splitlines()
