"""Hostile result sets: paths that leave the folder, symlinks, special files, active attachment
types, oversized and deeply nested input. Each is refused by `validate` and `ingest` with exit
status 1 and one line naming the file, the place and the rule; nothing from outside the set is
read into the catalog. The sets are built at test time from a copy of a small valid example."""

from __future__ import annotations

import os
import re
import resource
import subprocess
from pathlib import Path

import duckdb
import pytest

from conftest import ROOT, WIRESPEED
from wirespeed.catalog.store import result_folders
from wirespeed.resultset import limits
from wirespeed.resultset.attachments import ALLOWED
from wirespeed.resultset.paths import path_error

SECRET = "WIRESPEED-SECRET-7f3a9c"
SLUG = "cisco-7600-osm-acl-2001"
MEASUREMENTS = 'measurements = ["baseline.csv", "packet-filtering.csv", "cpu.csv"]\n'


def run(*args: str, limit_memory: int | None = None, timeout: int = 120) -> subprocess.CompletedProcess:
    """The CLI in a subprocess, optionally under an address-space limit; a hang fails the test."""
    def preexec():
        if limit_memory:
            resource.setrlimit(resource.RLIMIT_AS, (limit_memory, limit_memory))
    return subprocess.run([*WIRESPEED, *args], cwd=ROOT, capture_output=True, text=True, timeout=timeout, preexec_fn=preexec)


def files_line(s: Path, extra: str) -> None:
    """Add a line to the [files] table of the set's result.toml."""
    toml = s / "result.toml"
    text = toml.read_text()
    assert MEASUREMENTS in text
    toml.write_text(text.replace(MEASUREMENTS, MEASUREMENTS + extra + "\n", 1))


def attach(s: Path, path: str, content: bytes | None = b"plain text\n") -> None:
    files_line(s, f'attachments = [{{path = "{path}", title = "An attachment"}}]')
    if content is not None:
        (s / path).parent.mkdir(parents=True, exist_ok=True)
        (s / path).write_bytes(content)


def native(s: Path, path: str, content: bytes | None = None) -> None:
    files_line(s, f'native = [{{path = "{path}", importer = "iperf3", test = "baseline"}}]')
    if content is not None:
        (s / path).parent.mkdir(parents=True, exist_ok=True)
        (s / path).write_bytes(content)


def outside(s: Path) -> Path:
    """A secret file and another set's table beside the set, outside its folder."""
    secret = s.parent / "secret.txt"
    secret.write_text(f"TOKEN={SECRET}\n")
    other = s.parent / "other"
    other.mkdir(exist_ok=True)
    (other / "baseline.csv").write_text(f"test,frame_size,throughput_mpps\n{SECRET},64,1\n")
    return secret


def symlink(link: Path, target: Path | str) -> None:
    if link.exists() or link.is_symlink():
        link.unlink()
    os.symlink(target, link)


def csv_rows(n: int, start: int = 0) -> bytes:
    """n valid, distinct rows of packet-filtering.csv (the declared frame sizes, trials 1, 2, ...; rates far below line rate)."""
    sizes = (64, 128, 256, 512, 1024, 1500)
    return "".join(f"filter-no-acl,{sizes[(start + i) % 6]},{(start + i) // 6 + 1},0.001,31.7,0,0\n" for i in range(n)).encode()


HEADER = b"test,frame_size,trial,throughput_mpps,latency_avg_us,lost_frames,out_of_sequence_frames\n"


def traversal_table(s: Path) -> None:
    outside(s)
    toml = s / "result.toml"
    toml.write_text(toml.read_text().replace('"cpu.csv"]', '"cpu.csv", "docs/../../other/baseline.csv"]', 1))


def symlinked_result_toml(s: Path) -> None:
    copy = s.parent / "elsewhere.toml"
    copy.write_text((s / "result.toml").read_text())
    symlink(s / "result.toml", copy)


def symlinked_folder(s: Path) -> None:
    outside(s)
    target = s.parent / "outside-dir"
    target.mkdir()
    (target / "notes.txt").write_text(SECRET)
    attach(s, "raw/notes.txt", None)
    symlink(s / "raw", target)


def deep_toml(s: Path) -> None:
    toml = s / "result.toml"
    toml.write_text(toml.read_text() + "\ndeep = " + "[" * 100_000 + "]" * 100_000 + "\n")


def deep_dotted_key(s: Path) -> None:
    toml = s / "result.toml"
    toml.write_text(toml.read_text() + "\n" + ".".join(["k"] * 100_000) + " = 1\n")


def deep_header(s: Path) -> None:
    toml = s / "result.toml"
    toml.write_text(toml.read_text() + "\n[" + ".".join(["t"] * 100_000) + "]\n")


def oversize_csv(s: Path) -> None:
    rows = csv_rows(1000)
    with open(s / "packet-filtering.csv", "wb") as f:
        f.write(HEADER)
        while f.tell() <= limits.value("file_size.csv"):
            f.write(rows)


def oversized_set(s: Path) -> None:
    """Five captures under their own limit that together pass the set limit (sparse: no disk used)."""
    n = limits.value("set_size") // limits.value("file_size.pcap") + 1
    files_line(s, "attachments = [" + ", ".join(f'{{path = "cap{i}.pcap", title = "capture"}}' for i in range(n)) + "]")
    for i in range(n):
        with open(s / f"cap{i}.pcap", "wb") as f:
            f.write(b"\xd4\xc3\xb2\xa1")
            f.truncate(limits.value("file_size.pcap") - 1)


def many_files(s: Path) -> None:
    for i in range(limits.value("set_files") + 1):
        (s / f"f{i:04}.txt").write_text("x\n")


def edit_csv(name: str, old: str, new: str):
    def mutate(s: Path) -> None:
        p = s / name
        text = p.read_text()
        assert old in text
        p.write_text(text.replace(old, new, 1))
    return mutate


def edit_toml(old: str, new: str):
    return edit_csv("result.toml", old, new)


# (name, mutation, file the line must name, place it must name, rule)
CASES = [
    ("traversal-table", traversal_table, "result.toml", "files.measurements[3]", "layout.path"),
    ("traversal-attachment", lambda s: outside(s) and attach(s, "../secret.txt", None), "result.toml", "files.attachments[0].path", "layout.path"),
    ("traversal-native", lambda s: outside(s) and native(s, "raw/../../secret.txt", None), "result.toml", "files.native[0].path", "layout.path"),
    ("absolute-path", lambda s: attach(s, "/etc/passwd", None), "result.toml", "files.attachments[0].path", "layout.path"),
    ("backslash-path", lambda s: attach(s, "raw\\\\..\\\\x.txt", None), "result.toml", "files.attachments[0].path", "layout.path"),
    ("empty-segment", lambda s: attach(s, "raw//x.txt", None), "result.toml", "files.attachments[0].path", "layout.path"),
    ("hidden-file", lambda s: attach(s, ".env.txt"), "result.toml", "files.attachments[0].path", "layout.path"),
    ("hidden-folder", lambda s: attach(s, "raw/.git/config.txt"), "result.toml", "files.attachments[0].path", "layout.path"),
    ("path-too-deep", lambda s: attach(s, "/".join("abcdefghi") + ".txt", None), "result.toml", "files.attachments[0].path", "limit.path-depth"),
    ("folder-too-deep", lambda s: attach(s, "/".join("abcdefghi") + ".txt"), "/h", "8 segments", "limit.path-depth"),
    ("duplicate-path", edit_toml('"cpu.csv"]', '"cpu.csv", "CPU.csv"]'), "result.toml", "files.measurements[3]", "layout.duplicate-path"),
    ("symlink-to-environ", lambda s: attach(s, "env.txt", None) or symlink(s / "env.txt", "/proc/self/environ"), "env.txt", "env.txt", "layout.symlink"),
    ("symlink-to-outside-file", lambda s: attach(s, "secret.txt", None) or symlink(s / "secret.txt", outside(s)), "secret.txt", "secret.txt", "layout.symlink"),
    ("symlink-undeclared", lambda s: symlink(s / "notes.txt", outside(s)), "notes.txt", "notes.txt", "layout.symlink"),
    ("symlink-table", lambda s: outside(s) and symlink(s / "cpu.csv", s.parent / "other" / "baseline.csv"), "cpu.csv", "cpu.csv", "layout.symlink"),
    ("symlinked-directory", symlinked_folder, "raw", "raw", "layout.symlink"),
    ("symlinked-result-toml", symlinked_result_toml, "result.toml", "result.toml", "layout.symlink"),
    ("fifo", lambda s: os.mkfifo(s / "pipe.txt"), "pipe.txt", "FIFO", "layout.file-type"),
    ("declared-fifo", lambda s: attach(s, "pipe.txt", None) or os.mkfifo(s / "pipe.txt"), "pipe.txt", "FIFO", "layout.file-type"),
    ("hard-link", lambda s: outside(s) and os.link(s.parent / "secret.txt", s / "notes.txt"), "notes.txt", "hard link", "layout.file-type"),
    ("html-attachment", lambda s: attach(s, "report.html", b"<script>alert(document.cookie)</script>"), "result.toml", "files.attachments[0].path", "layout.attachment-type"),
    ("svg-attachment", lambda s: attach(s, "chart.svg", b'<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'), "result.toml", "files.attachments[0].path", "layout.attachment-type"),
    ("js-attachment", lambda s: attach(s, "app.js", b"alert(1)"), "result.toml", "files.attachments[0].path", "layout.attachment-type"),
    ("no-extension", lambda s: attach(s, "README", b"hello"), "result.toml", "files.attachments[0].path", "layout.attachment-type"),
    ("html-native", lambda s: native(s, "out.html", b"<script>alert(1)</script>"), "result.toml", "files.native[0].path", "layout.native-type"),
    ("pdf-wrong-magic", lambda s: attach(s, "report.pdf", b"<html><script>alert(1)</script></html>"), "report.pdf", "PDF", "layout.attachment-content"),
    ("png-wrong-magic", lambda s: attach(s, "shot.png", b"<svg onload='alert(1)'/>"), "shot.png", "PNG", "layout.attachment-content"),
    ("text-with-nul", lambda s: attach(s, "log.txt", b"line one\nline\x00two\n"), "log.txt:2:", "NUL", "encoding.text"),
    ("text-not-utf8", lambda s: attach(s, "log.txt", b"ok\nbad \xff byte\n"), "log.txt:2:", "UTF-8", "encoding.utf8"),
    ("oversize-csv", oversize_csv, "packet-filtering.csv", "16 MiB", "limit.file-size"),
    ("oversize-result-toml", lambda s: (s / "result.toml").write_text((s / "result.toml").read_text() + "#" * limits.value("file_size.toml") + "\n"), "result.toml", "1 MiB", "limit.file-size"),
    ("oversized-set", oversized_set, SLUG, "128 MiB", "limit.set-size"),
    ("too-many-files", many_files, SLUG, "256 files", "limit.files"),
    ("long-cell", edit_csv("baseline.csv", "baseline,64,26.9,91.2", "baseline" + "x" * 300 + ",64,26.9,91.2"), "baseline.csv:4:", "test", "limit.cell"),
    ("long-line", edit_csv("baseline.csv", "baseline,64,26.9,91.2", "baseline,64,26.9," + "9" * (limits.value("line_bytes") + 10)), "baseline.csv:4:", "64 KiB", "limit.line"),
    ("too-many-columns", edit_csv("baseline.csv", "throughput_max_theoretical_pct", ",".join(f"c{i}" for i in range(70))), "baseline.csv:1:", "73 columns", "limit.columns"),
    ("long-string-field", edit_toml('title = "Cisco 7600', 'title = "' + "A" * 9000 + ' Cisco 7600'), "result.toml", "title", "limit.string"),
    ("deep-toml-array", deep_toml, "result.toml:", "32 levels", "limit.depth"),
    ("deep-toml-dotted-key", deep_dotted_key, "result.toml:", "32 levels", "limit.depth"),
    ("deep-toml-header", deep_header, "result.toml:", "32 levels", "limit.depth"),
    ("deep-native-json", lambda s: native(s, "raw/deep.json", b"[" * 100_000 + b"]" * 100_000), "deep.json:1:", "32 levels", "limit.depth"),
]


@pytest.mark.parametrize("name, mutate, file, place, rule", CASES, ids=[c[0] for c in CASES])
def test_hostile_set_is_refused_in_one_line(good_set: Path, tmp_path: Path, name, mutate, file, place, rule):
    mutate(good_set)
    proc = run("validate", str(good_set))
    both = proc.stdout + proc.stderr
    assert proc.returncode == 1, both
    assert "Traceback" not in both and "internal error" not in both, both
    lines = [l for l in proc.stdout.splitlines() if f"[{rule}]" in l]
    assert lines, f"no line with [{rule}]:\n{both}"
    assert file in lines[0] and place in lines[0], lines[0]
    assert len(lines[0]) < 600 and SECRET not in both

    db = tmp_path / "x.duckdb"
    proc = run("ingest", "--db", str(db), str(good_set))
    both = proc.stdout + proc.stderr
    assert proc.returncode == 1, both
    assert "Traceback" not in both and "internal error" not in both, both
    assert f"{SLUG}: rejected" in proc.stdout and f"[{rule}]" in proc.stdout, both
    con = duckdb.connect(str(db), read_only=True)
    assert con.execute("SELECT count(*) FROM result_sets").fetchone() == (0,)
    assert con.execute("SELECT count(*) FROM rows").fetchone() == (0,)
    for (table,) in con.execute("SELECT table_name FROM information_schema.tables WHERE table_type = 'BASE TABLE'").fetchall():
        dump = str(con.execute(f'SELECT * FROM "{table}"').fetchall())
        assert SECRET not in dump, table


def test_symlinked_set_folder_is_refused_not_followed(good_set: Path, tmp_path: Path):
    archive = tmp_path / "archive"
    archive.mkdir()
    symlink(archive / SLUG, good_set)
    assert result_folders(archive) == [archive / SLUG], "a symlinked set must be listed (then refused), not dropped"
    proc = run("validate", str(archive / SLUG))
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    line = next(l for l in proc.stdout.splitlines() if "[layout.symlink]" in l)
    assert SLUG in line
    proc = run("ingest", "--db", str(tmp_path / "x.duckdb"), str(archive / SLUG))
    assert proc.returncode == 1 and f"{SLUG}: rejected" in proc.stdout and "[layout.symlink]" in proc.stdout


def test_files_are_opened_without_following_anything(good_set: Path):
    """The no-TOCTOU opener itself: a link at any segment, or a FIFO, is refused at open time, without hanging."""
    from wirespeed.resultset.setfolder import SetFolder, UnsafeFile

    target = good_set.parent / "outside-dir"
    target.mkdir()
    (target / "x.txt").write_text(SECRET)
    symlink(good_set / "raw", target)
    symlink(good_set / "link.txt", target / "x.txt")
    os.mkfifo(good_set / "pipe.txt")
    with SetFolder(good_set) as setdir:
        for rel, rule in (("raw/x.txt", "layout.symlink"), ("link.txt", "layout.symlink"), ("pipe.txt", "layout.file-type"), ("nope.txt", "layout.missing-file")):
            with pytest.raises(UnsafeFile) as exc:
                setdir.open(rel)
            assert exc.value.rule == rule, (rel, exc.value.message)
        stream, st = setdir.open("baseline.csv")
        with stream:
            assert stream.read().startswith(b"test,") and st.st_size > 0


def test_one_hostile_set_does_not_hide_the_others(archive_copy: Path):
    os.symlink("/proc/self/environ", archive_copy / SLUG / "env.txt")
    proc = run("validate", *(str(p) for p in result_folders(archive_copy)))
    assert proc.returncode == 1
    n = len(result_folders(archive_copy))
    assert f"{n} result sets: {n - 1} valid, 1 invalid" in proc.stderr, proc.stderr


def test_big_csv_is_refused_before_it_is_read_under_a_memory_limit(good_set: Path):
    """A 200 MB table: one line, quickly, and well inside 1.5 GiB of address space."""
    block = csv_rows(10_000)
    with open(good_set / "packet-filtering.csv", "wb") as f:
        f.write(HEADER)
        while f.tell() < 200 * limits.MiB:
            f.write(block)
    proc = run("validate", str(good_set), limit_memory=1536 * limits.MiB, timeout=60)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr and "MemoryError" not in proc.stderr
    line = next(l for l in proc.stdout.splitlines() if "[limit.file-size]" in l)
    assert "packet-filtering.csv" in line and "16 MiB" in line


def test_table_past_the_row_limit_stops_at_the_limit(good_set: Path):
    n = limits.value("table_rows")
    (good_set / "packet-filtering.csv").write_bytes(HEADER + csv_rows(n + 1))
    proc = run("validate", str(good_set), limit_memory=1536 * limits.MiB, timeout=300)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr, proc.stderr
    line = next(l for l in proc.stdout.splitlines() if "[limit.rows]" in l)
    assert f"packet-filtering.csv:{n + 2}:" in line, line


def test_table_just_under_the_row_limit_validates_in_bounded_memory(good_set: Path):
    n = limits.value("table_rows")
    (good_set / "packet-filtering.csv").write_bytes(HEADER + csv_rows(n - 1))
    proc = run("validate", str(good_set), limit_memory=1536 * limits.MiB, timeout=300)
    assert "Traceback" not in proc.stderr and "internal error" not in proc.stderr, proc.stderr
    assert not [l for l in proc.stdout.splitlines() if "[limit." in l], proc.stdout[:2000]
    assert "1 valid" in proc.stderr, proc.stderr[-2000:]


@pytest.mark.parametrize("path", ["a/../b.csv", "./a.csv", "/a.csv", "a\\b.csv", "a//b.csv", ".a.csv", "a/.b/c.csv",
                                  "a b.csv", "a/" * 8 + "b.csv", "-a.csv", "é.csv", "a.csv/", "C:/a.csv", "result.toml"])
def test_path_rule_refuses(path: str):
    assert path_error(path) is not None


@pytest.mark.parametrize("path", ["baseline.csv", "raw/iperf3-clients.json", "a/b/c/d/e/f/g/h.csv", "A_1-b.v2.csv"])
def test_path_rule_accepts_plain_paths_and_the_schema_agrees(path: str):
    from wirespeed.resultset.schemacheck import schema

    assert path_error(path) is None
    assert re.search(schema()["$defs"]["attachment"]["properties"]["path"]["pattern"], path)
    assert re.search(schema()["$defs"]["csvpath"]["pattern"], path) or not path.endswith(".csv")


def test_schema_pattern_refuses_what_the_path_rule_refuses():
    from wirespeed.resultset.schemacheck import schema

    pattern = re.compile(schema()["$defs"]["attachment"]["properties"]["path"]["pattern"])
    for bad in ["docs/../../x", "../x", "/etc/passwd", ".env", "a/.git/config", "a//b", "a\\b", "a/" * 8 + "b"]:
        assert path_error(bad) is not None and not pattern.search(bad), bad


def test_every_limit_is_documented():
    doc = (ROOT / "docs" / "limits.md").read_text()
    assert doc == limits.markdown(), "docs/limits.md is stale: regenerate it from wirespeed/resultset/limits.py"
    for lim in limits.LIMITS.values():
        assert f"`{lim.key}`" in doc and f"`[{lim.rule}]`" in doc and limits.describe(lim.key) in doc
        assert lim.why and lim.what and lim.guarantees  # issue 28: the time and memory each bound guarantees


def test_limits_sit_above_every_example():
    """Every bundled example is well inside every limit (the examples are the floor)."""
    proc = run("validate")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    for p in (ROOT / "data" / "results").rglob("*"):
        if p.is_file():
            assert p.stat().st_size * 10 < limits.value("file_size.csv")


def test_attachment_types_message_lists_the_allowlist(good_set: Path):
    attach(good_set, "page.xhtml", b"<html/>")
    proc = run("validate", str(good_set))
    line = next(l for l in proc.stdout.splitlines() if "[layout.attachment-type]" in l)
    assert ALLOWED in line and ".html" not in ALLOWED and ".svg" not in ALLOWED
