"""bench/site.py: the synthetic archive's copies, the pipeline copies' result.toml, and a small Hugo run
(its figures' keys, and pages growing by exactly the pages of the sets added). No timing asserts."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from conftest import ROOT

sys.path.insert(0, str(ROOT / "bench"))
import site_archive  # noqa: E402
import site_pipeline  # noqa: E402

KEYS = {"sets", "build_s", "peak_rss_mb", "cpu_s", "cpu_per_set_s", "bytes_per_set", "files_per_set", "noop_s", "one_set_s", "pages", "previous", "goals", "runs"}


def test_perturb_renames_the_slug_and_changes_every_decimal():
    text = b'{"slug": "a-1", "url": "results/a-1/charts/x.vg.json", "v": 1.25, "t": "2.5 Gbit/s", "n": 64, "d": "2015-06"}'
    out = json.loads(site_archive.perturb(text, "a-1", "a-1-synthetic-00009", b"37"))
    assert out == {"slug": "a-1-synthetic-00009", "url": "results/a-1-synthetic-00009/charts/x.vg.json", "v": 1.2375, "t": "2.537 Gbit/s", "n": 64, "d": "2015-06"}


def test_pipeline_copy_changes_only_the_top_level_slug_and_title():
    text = 'format_version = 1\nslug = "x-2020"\ntitle = "Device X"\n\n[dut]\nmodel = "X"\n\n[[tests]]\nid = "t"\ntitle = "Throughput"\n'
    out = site_pipeline.rewrite(text, slug="x-2020-copy-009", title_suffix=" (copy 9)")
    assert out == text.replace('slug = "x-2020"', 'slug = "x-2020-copy-009"').replace('title = "Device X"', 'title = "Device X (copy 9)"')
    assert site_pipeline.rewrite(out, title_suffix=" (title changed)").count("(copy 9) (title changed)") == 1


@pytest.mark.slow
def test_hugo_bench_writes_its_figures_and_pages_grow_with_the_sets(tmp_path):
    import pipeline

    pipeline.build("reports")  # the site data, site-static and PDF reports the archive is made from
    out = tmp_path / "site.json"
    real = site_archive.originals(pipeline.WORK)  # the exported sets the archive keeps; copies added beyond them
    low, high = len(real) + 2, len(real) + 12
    for n in (low, high):
        proc = subprocess.run([sys.executable, str(ROOT / "bench" / "site.py"), "--sets", str(n), "--source", str(pipeline.WORK), "--out", str(out)],
                              capture_output=True, text=True, timeout=600)
        assert proc.returncode == 0, proc.stderr[-3000:]
    r = json.loads(out.read_text())
    assert KEYS <= set(r) and r["sets"] == high and set(r["runs"]) == {f"hugo-{low}", f"hugo-{high}"}
    assert r["build_s"] > 0 and r["peak_rss_mb"] > 0 and r["cpu_s"] > 0 and r["bytes_per_set"] > 0 and r["files_per_set"] > 0
    assert r["previous"]["bytes_per_set"]["then"] == 2_900_000
    assert r["pagefind_runs"] == 1 and r["pagefind_s"] > 0 and r["pagefind_peak_rss_mb"] > 0  # the search index, one run below 1,000 sets
    assert r["linked_over_copied_wall"] > 0 and r["copied_build_s"] > 0
    # each set added brings its own pages: the set, one per test of a set of several, one per comparison, its explanation page
    per_set = {}
    for slug in real:
        d = json.loads((pipeline.WORK / site_archive.HUGO_DATA / "wirespeed" / "sets" / f"{slug}.json").read_text())
        explain = (pipeline.WORK / site_archive.SITE_STATIC / "results" / slug / "explain.html").is_file()
        per_set[slug] = 1 + (len(d["tests"]) if len(d["tests"]) > 1 else 0) + len(d.get("comparisons") or []) + explain
    assert r["runs"][f"hugo-{high}"]["pages"] - r["runs"][f"hugo-{low}"]["pages"] == sum(per_set[real[i % len(real)]] for i in range(low - len(real), high - len(real)))


def test_the_archive_indexes_every_copy_as_the_pipeline_would(tmp_path):
    """The lists read the index (wirespeed/site/setindex.py): the archive writes one entry per set, copies and retitled set included."""
    import shutil

    from wirespeed.site import setindex

    fixture = ROOT / "tests" / "site_fixture"
    src = tmp_path / "src"
    shutil.copytree(fixture / "hugo-data", src / site_archive.HUGO_DATA)
    shutil.copytree(fixture / "site-static", src / site_archive.SITE_STATIC)
    (src / site_archive.REPORTS).mkdir()
    (src / site_archive.TRENDS).mkdir()
    (src / site_archive.HUGO_DATA / "wirespeed" / "build.json").write_text('{"sets": []}\n')
    dest = tmp_path / "dest"
    slugs = site_archive.build(src, dest, 5, seed=1)
    wirespeed = dest / site_archive.HUGO_DATA / "wirespeed"

    def data(slug: str) -> dict:
        return json.loads((wirespeed / "sets" / f"{slug}.json").read_text())

    doc = json.loads((wirespeed / "index.json").read_text())
    assert setindex.problems(doc) == [] and sorted(doc["sets"]) == sorted(slugs) and len(slugs) == 5
    assert all(doc["sets"][s] == setindex.entry(data(s)) for s in slugs)
    assert doc["sets"][slugs[-1]]["title"].endswith("(synthetic copy 4)")
    site_archive.retitle(dest, slugs[-1], " (title changed)")
    after = json.loads((wirespeed / "index.json").read_text())
    assert after["sets"][slugs[-1]]["title"].endswith("(synthetic copy 4) (title changed)") and after["sets"][slugs[-1]] == setindex.entry(data(slugs[-1]))
    assert json.loads((src / site_archive.HUGO_DATA / "wirespeed" / "index.json").read_text())["sets"].keys() == {"cisco-nexus-9516-100g", "mikrotik-ccr2004-trex-ramp"}


def test_pipeline_bench_reads_the_step_lines_wirespeed_build_prints():
    import inspect

    from wirespeed.cli import pipeline as cli_pipeline

    assert 'err.print(f"[wirespeed {name}: {time.perf_counter() - t:.1f} s]"' in inspect.getsource(cli_pipeline.build.callback)  # the line it reads
    lines = "x\n[wirespeed validate: 0.1 s]\n[wirespeed site --data-only: 1.7 s]\nbuilt in 5.7 s\n"
    assert {m[1]: float(m[2]) for m in site_pipeline.STEP_LINE.finditer(lines)} == {"validate": 0.1, "site --data-only": 1.7}
