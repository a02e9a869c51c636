"""The static mounts published by link (wirespeed/system/hugo_static.py): the site `hugo.build` makes holds exactly
the files Hugo's own copy publishes — same paths, same bytes — for mounts that exercise Hugo's rules (files globs with
excludes, `*` and `**`, case, the later mount winning, a one-file mount, dotfiles);
the files are links to the sources, not copies; a rendered page keeps its path (where Hugo's copy races its rendering);
links under a source are not published; the overlay is gone after."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from wirespeed.system import hugo, hugo_static

ROOT = Path(__file__).resolve().parent.parent

CONFIG = """\
baseURL = "/"
title = "static"
disableKinds = ["taxonomy", "term", "rss", "sitemap", "page", "section", "404"]
[[module.mounts]]
  source = "layouts"
  target = "layouts"
[[module.mounts]]
  source = "built"
  target = "static"
  files = ["! results/*/explain.json", "! results/*/charts/*.pdf", "! trends/*/*/*.pdf"]
[[module.mounts]]
  source = "reports"
  target = "static/reports"
  files = ["*.pdf", "{a,b}?.txt"]
[[module.mounts]]
  source = "static"
  target = "static"
[[module.mounts]]
  source = "NOTES.md"
  target = "static/notes.md"
"""

FILES = {
    "built/results/one/explain.json": "never published",
    "built/results/one/EXPLAIN.JSON": "never published either: Hugo's globs ignore case",
    "built/results/one/explain.html": "published",
    "built/results/one/charts/a.pdf": "not published",
    "built/results/one/charts/a.svg": "<svg/>",
    "built/results/one/charts/deep/b.pdf": "published: * stops at a folder",
    "built/results/one/.hidden": "dotfiles are published",
    "built/trends/x/y/t.pdf": "not published",
    "built/trends/x/y/t.svg": "published",
    "built/same.txt": "the earlier mount's",
    "reports/one.pdf": "%PDF-",
    "reports/one.tex": "not published",
    "reports/nested/two.pdf": "not published: *.pdf is one level",
    "reports/a1.txt": "published",
    "reports/c1.txt": "not published",
    "static/same.txt": "the later mount's",
    "static/css/site.css": "body{}",
    "NOTES.md": "# notes",
    "layouts/home.html": "<!doctype html><html lang=en><title>home</title><body><main data-pagefind-body><p>home</p></main></body></html>",
}


def _site(root: Path) -> None:
    for rel, text in FILES.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    (root / "config.toml").write_text(CONFIG, encoding="utf-8")
    (root / "node_modules").symlink_to(ROOT / "node_modules")  # the search index is built with the repository's Pagefind


def _tree(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file() and not p.is_symlink()
            and not p.relative_to(folder).as_posix().startswith("pagefind/")}


@pytest.mark.slow
def test_linked_site_is_hugos_copied_site_byte_for_byte(tmp_path):
    _site(tmp_path)
    copied = tmp_path / "copied"
    proc = subprocess.run([str(hugo.binary()), "--source", str(tmp_path), "--destination", str(copied), "--logLevel", "warn"],
                          capture_output=True, text=True, env=hugo.environment())
    assert proc.returncode == 0, proc.stderr
    linked = tmp_path / "linked"
    hugo.build(tmp_path, linked)
    want, got = _tree(copied), _tree(linked)
    assert got == want
    # the oracle covers each rule: what Hugo published and left out
    assert got["same.txt"] == b"the later mount's" and got["notes.md"] == b"# notes" and "results/one/.hidden" in got
    for gone in ("results/one/explain.json", "results/one/EXPLAIN.JSON", "results/one/charts/a.pdf", "trends/x/y/t.pdf",
                 "reports/one.tex", "reports/nested/two.pdf", "reports/c1.txt"):
        assert gone not in got
    for kept in ("results/one/charts/deep/b.pdf", "reports/one.pdf", "reports/a1.txt", "trends/x/y/t.svg"):
        assert kept in got
    # published by link: the same file as the source, not a copy
    assert os.path.samefile(linked / "results/one/charts/a.svg", tmp_path / "built/results/one/charts/a.svg")
    assert os.path.samefile(linked / "reports/one.pdf", tmp_path / "reports/one.pdf")
    assert not list(tmp_path.glob(f"*{hugo_static.OVERLAY_SUFFIX}"))


@pytest.mark.slow
def test_a_rendered_page_keeps_its_path(tmp_path):
    _site(tmp_path)
    (tmp_path / "built/index.html").write_text("a static file at the home page's path", encoding="utf-8")
    hugo.build(tmp_path, tmp_path / "site")
    assert b"<p>home</p>" in (tmp_path / "site/index.html").read_bytes()


@pytest.mark.slow
def test_links_under_a_source_are_not_published(tmp_path):
    _site(tmp_path)
    outside = tmp_path / "outside.txt"
    outside.write_text("secret", encoding="utf-8")
    (tmp_path / "built/results/one/link.txt").symlink_to(outside)
    (tmp_path / "built/results/linked-folder").symlink_to(tmp_path / "reports", target_is_directory=True)
    hugo.build(tmp_path, tmp_path / "site")
    assert not (tmp_path / "site/results/one/link.txt").exists()
    assert not (tmp_path / "site/results/linked-folder").exists()
    assert (tmp_path / "site/results/one/charts/a.svg").is_file()


def test_a_mount_with_keys_this_module_does_not_know_stays_with_hugo(tmp_path):
    kept, linked = hugo_static.split(tmp_path, [{"source": "a", "target": "static", "lang": "en"},
                                                {"source": "b", "target": "static/x", "files": ["*.pdf"]},
                                                {"source": "layouts", "target": "layouts"}])
    assert [m.source.name for m in linked] == ["b"] and linked[0].target == "x"
    assert kept[:2] == [{"source": "a", "target": "static", "lang": "en"}, {"source": "layouts", "target": "layouts"}]
    assert kept[2] == {"source": str(tmp_path / "b"), "target": "static", "files": ["! **"]}  # no fallback to static/


@pytest.mark.parametrize(("pattern", "path", "match"), [
    ("*.pdf", "a.pdf", True), ("*.pdf", "x/a.pdf", False), ("**.pdf", "x/y/a.pdf", True), ("results/*/explain.json", "results/s/explain.json", True),
    ("results/*/explain.json", "results/s/t/explain.json", False), ("{a,b}?.txt", "b9.txt", True), ("{a,b}?.txt", "c9.txt", False),
    ("[ab].txt", "B.TXT", True), ("[!ab].txt", "c.txt", True), ("[!ab].txt", "a.txt", False), ("a+b(c).txt", "a+b(c).txt", True),
])
def test_globs_read_as_hugos(pattern, path, match):
    assert bool(hugo_static.glob_regex(pattern).match(path)) is match


@pytest.mark.slow
def test_a_configuration_that_cannot_be_read_is_one_line_naming_it(tmp_path):
    bad = tmp_path / "config.toml"
    bad.write_text("[module\n", encoding="utf-8")
    with pytest.raises(hugo.HugoError) as err:
        hugo.build(tmp_path, tmp_path / "site")
    assert str(bad) in str(err.value) and "\n" not in str(err.value)


def test_the_overlay_restates_the_kept_mounts(tmp_path):
    path = hugo_static.overlay([{"source": "layouts", "target": "layouts"}], tmp_path / "o.json")
    assert json.loads(path.read_text(encoding="utf-8")) == {"module": {"mounts": [{"source": "layouts", "target": "layouts"}]}}
