"""The publishing side re-checks every copy even when validation is bypassed: a catalog row naming a
file outside the set, a symlink, or an active type keeps that set off the site (one line naming the
set and the file) while the other sets are still published; CSV downloads never carry a formula."""

from __future__ import annotations

import csv
import io
import os
import shutil
from pathlib import Path

import duckdb
import pytest

from conftest import ARCHIVE, run_cli
from wirespeed.analysis import run as analysis
from wirespeed.site import data as site
from wirespeed.resultset import publish
from wirespeed.system import csvsafe
from wirespeed.catalog.store import ingest

VICTIM = "cisco-7600-osm-acl-2001"
BYSTANDER = "keysight-ixnetwork-ve-dpdk-400g-2022"
SECRET = "wirespeed-secret-7c1f0e"


@pytest.fixture(scope="module")
def analysed(tmp_path_factory):
    """Two small sets ingested and analysed once; each test works on a copy of the catalog."""
    root = tmp_path_factory.mktemp("publish")
    archive = root / "results"
    for slug in (VICTIM, BYSTANDER):
        shutil.copytree(ARCHIVE / slug, archive / slug)
    db = root / "catalog.duckdb"
    assert all(r.action == "loaded" for r in ingest(sorted(archive.iterdir()), db))
    _plan, errors = analysis.run(db, out_root=root / "build" / "analysis")
    assert not errors, errors
    (root / "outside").mkdir()
    (root / "outside" / "secret.toml").write_text(f'token = "{SECRET}"\n')
    return root


def _hostile_row(analysed: Path, tmp_path: Path, path: str, set_path: str | None = None) -> Path:
    """A copy of the catalog with one more file row for VICTIM (and optionally its folder changed)."""
    db = tmp_path / "catalog.duckdb"
    shutil.copyfile(analysed / "catalog.duckdb", db)
    con = duckdb.connect(str(db))
    con.execute("INSERT INTO files VALUES (?, ?, 'attachment', 'x')", [VICTIM, path])
    if set_path is not None:
        con.execute("UPDATE result_sets SET path = ? WHERE slug = ?", [set_path, VICTIM])
    con.close()
    return db


def _export(analysed: Path, tmp_path: Path, db: Path) -> tuple[list[str], list[str], Path]:
    refused: list[str] = []
    static = tmp_path / "site-static"
    slugs = site.export(db, analysed / "build" / "analysis", tmp_path / "hugo-data", static, refused=refused)
    return slugs, refused, static


def _assert_left_out(slugs, refused, static, file_name, rule):
    assert slugs == [BYSTANDER]  # the other set is still published
    assert len(refused) == 1 and "\n" not in refused[0], refused
    assert VICTIM in refused[0] and file_name in refused[0] and f"[{rule}]" in refused[0], refused[0]
    assert not (static / "results" / VICTIM).exists()
    assert (static / "results" / BYSTANDER / "data" / "result.toml").is_file()
    for p in static.rglob("*"):
        assert not p.is_symlink(), p
        if p.is_file():
            assert SECRET.encode() not in p.read_bytes(), p
            assert b"HOME=" not in p.read_bytes() or p.suffix in (".ipynb", ".html"), p


@pytest.mark.parametrize("path", ["docs/../../outside/secret.toml", "../outside/secret.toml", "/etc/passwd", ".git/config", "raw/./x.csv", "a\\..\\b.csv"])
def test_traversal_rows_are_not_published(analysed, tmp_path, path):
    db = _hostile_row(analysed, tmp_path, path)
    slugs, refused, static = _export(analysed, tmp_path, db)
    _assert_left_out(slugs, refused, static, path, "publish.path")
    assert not (tmp_path / "outside").exists() and not (static / "outside").exists()


def test_site_command_names_the_refused_file_and_publishes_the_others(analysed, tmp_path):
    db = _hostile_row(analysed, tmp_path, "docs/../../outside/secret.toml")
    proc = run_cli("site", "--data-only", "--db", str(db), cwd=analysed)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr
    lines = [l for l in proc.stderr.splitlines() if l.strip()]
    assert len(lines) == 1 and VICTIM in lines[0] and "docs/../../outside/secret.toml" in lines[0] and "[publish.path]" in lines[0], lines
    assert "site data for 1 result sets" in proc.stdout
    static = analysed / "build" / "site-static" / "results"
    assert sorted(p.name for p in static.iterdir()) == [BYSTANDER]


def test_set_folder_pointed_at_another_folder_publishes_nothing_of_it(analysed, tmp_path):
    """A catalog row moving the set's folder to a parent (where `outside/secret.toml` would be inside) is refused."""
    db = _hostile_row(analysed, tmp_path, "outside/secret.toml", set_path=str(analysed))
    slugs, refused, static = _export(analysed, tmp_path, db)
    _assert_left_out(slugs, refused, static, "result.toml", "publish.folder")


def test_symlinked_attachment_is_not_followed(analysed, tmp_path):
    set_dir = analysed / "results" / VICTIM
    link = set_dir / "environ.txt"
    link.symlink_to("/proc/self/environ")
    try:
        db = _hostile_row(analysed, tmp_path, "environ.txt")
        slugs, refused, static = _export(analysed, tmp_path, db)
    finally:
        link.unlink()
    _assert_left_out(slugs, refused, static, "environ.txt", "publish.symlink")


def test_symlinked_folder_inside_the_set_is_not_followed(analysed, tmp_path):
    set_dir = analysed / "results" / VICTIM
    link = set_dir / "docs"
    link.symlink_to(analysed / "outside")
    try:
        db = _hostile_row(analysed, tmp_path, "docs/secret.toml")
        slugs, refused, static = _export(analysed, tmp_path, db)
    finally:
        link.unlink()
    _assert_left_out(slugs, refused, static, "docs/secret.toml", "publish.symlink")


@pytest.mark.parametrize("name", ["page.html", "chart.svg", "feed.xml", "app.js", "page.xhtml", "README"])
def test_active_and_unknown_types_are_refused(analysed, tmp_path, name):
    f = analysed / "results" / VICTIM / name
    f.write_text("<script>alert(1)</script>")
    try:
        db = _hostile_row(analysed, tmp_path, name)
        slugs, refused, static = _export(analysed, tmp_path, db)
    finally:
        f.unlink()
    _assert_left_out(slugs, refused, static, name, "publish.type")


def test_text_types_get_a_safe_extension(tmp_path):
    set_dir = tmp_path / "s"
    (set_dir / "raw").mkdir(parents=True)
    (set_dir / "raw" / "session.log").write_text("<script>alert(1)</script>\n")
    name = publish.publish_set_file("s", set_dir, "raw/session.log", tmp_path / "out")
    assert name == "raw/session.log.txt"
    assert (tmp_path / "out" / "data" / "raw" / "session.log.txt").read_text() == "<script>alert(1)</script>\n"
    assert not (tmp_path / "out" / "data" / "raw" / "session.log").exists()


def test_destination_outside_the_output_root_is_refused(tmp_path):
    set_dir = tmp_path / "s"
    set_dir.mkdir()
    (set_dir / "a.csv").write_text("x\n1\n")
    out = tmp_path / "out"
    out.mkdir()
    (tmp_path / "elsewhere").mkdir()
    (out / "data").symlink_to(tmp_path / "elsewhere")
    with pytest.raises(publish.PublishRefused, match=r"^s: data/a\.csv: .*\[publish\.destination\]$"):
        publish.copy_contained("s", set_dir, "a.csv", out, "data/a.csv")
    with pytest.raises(publish.PublishRefused, match=r"\[publish\.path\]$"):
        publish.copy_contained("s", set_dir, "a.csv", out, "../a.csv")
    assert list((tmp_path / "elsewhere").iterdir()) == []


def test_unsafe_slug_is_refused():
    for slug in ("../x", "a/b", "", "x'; DROP TABLE files; --"):
        with pytest.raises(publish.PublishRefused, match=r"\[publish\.slug\]"):
            publish.check_slug(slug)


@pytest.mark.parametrize("cell, shown", [
    ('=HYPERLINK("http://x","y")', '\'=HYPERLINK("http://x","y")'), ("+cmd|' /C calc'!A0", "'+cmd|' /C calc'!A0"),
    ("@SUM(1+1)", "'@SUM(1+1)"), ("-2+3", "'-2+3"), ("\tx", "'\tx"), ("\rx", "'\rx"),
    ("-5", "-5"), ("+3.2", "+3.2"), ("-.5e-3", "-.5e-3"), ("1,5", "1,5"), ("idle", "idle"), ("", ""),
])
def test_formula_cells_are_neutralised_and_numbers_kept(cell, shown):
    assert csvsafe.neutralise(cell) == shown


def test_raw_csv_is_neutralised_and_clean_csv_kept_byte_for_byte(tmp_path):
    set_dir = tmp_path / "s"
    set_dir.mkdir()
    clean = b"test,frame_size,throughput_mpps\r\nbaseline,64,-1.5\r\n"
    (set_dir / "clean.csv").write_bytes(clean)
    (set_dir / "evil.csv").write_text('name,value\n"=HYPERLINK(""http://x"",""y"")",1\n"+cmd|\' /C calc\'!A0",-5\n@SUM(1+1),+3.2\n')
    out = tmp_path / "out"
    publish.publish_set_file("s", set_dir, "clean.csv", out)
    publish.publish_set_file("s", set_dir, "evil.csv", out)
    assert (out / "data" / "clean.csv").read_bytes() == clean
    rows = list(csv.reader(io.StringIO((out / "data" / "evil.csv").read_text())))
    assert rows == [["name", "value"], ["'=HYPERLINK(\"http://x\",\"y\")", "1"], ["'+cmd|' /C calc'!A0", "-5"], ["'@SUM(1+1)", "+3.2"]]


def test_analysis_table_csv_neutralises_key_cells(tmp_path):
    """A valid set whose free-text key cells are formulas: the downloadable table CSV shows them as text."""
    archive = tmp_path / "results"
    shutil.copytree(ARCHIVE / VICTIM, archive / VICTIM)
    cpu = archive / VICTIM / "cpu.csv"
    cpu.write_text(cpu.read_text().replace(",NMP,", ',"=HYPERLINK(""http://x"",""y"")",').replace(",MSFC2,", ",@SUM(1+1),"))
    db = tmp_path / "c.duckdb"
    assert ingest([archive / VICTIM], db)[0].action == "loaded"
    _plan, errors = analysis.run(db, out_root=tmp_path / "analysis")
    assert not errors, errors
    text = "".join(p.read_text() for p in (tmp_path / "analysis" / VICTIM).rglob("tables/*.csv"))
    cells = [c for row in csv.reader(io.StringIO(text)) for c in row]
    assert any(c.startswith("'=HYPERLINK(") for c in cells) and any(c.startswith("'@SUM(1+1)") for c in cells), text
    assert not [c for c in cells if csvsafe.needs_neutralising(c)]
    assert os.path.exists(tmp_path / "analysis" / VICTIM / "index.json")
