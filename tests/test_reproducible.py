"""Byte-identical rebuilds: two full builds from clean, in two working folders, give the same public/ file for file and
byte for byte; a report rebuilds only when something it reads changed.

The two builds are the session's pipeline build (tests/pipeline.py: the steps one after the other, as `make` runs
them, in one folder) and a sharded one of the same sources (wirespeed/shards.py: `wirespeed build --shard I/2` in two
folders of their own, each running its sets' notebooks and reports, then `wirespeed merge` in a third, which builds
the site from both): other processes, other folders, other times. So one comparison shows both that a clean build is
reproducible and that the sharded build merged is the unsharded one, and the examples are built twice, not three times.

Nothing is left out of the comparison: executed notebooks (cell ids, clocks, temporary paths),
chart PDFs (vl-convert's dictionary order) and PDF reports (dates, /ID) are made stable by the build.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import WIRESPEED, run_cli
from wirespeed.system.reproducible import stable_notebook

STEPS = [["ingest"], ["analyse"], ["site", "--data-only"], ["report"], ["site"]]
SMALL_SET = "keysight-ixnetwork-ve-dpdk-400g-2022"


def tree(root: Path) -> dict[str, str]:
    return {p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(root.rglob("*")) if p.is_file()}


def report_counts(work: Path, *slugs: str) -> tuple[int, int]:
    return _reports(run_cli("report", *slugs, cwd=work, check=True).stdout)


def _notebook_runs(output: str) -> tuple[int, int]:
    m = re.search(r"(\d+) notebook runs executed, (\d+) up to date", output)
    assert m, output
    return int(m.group(1)), int(m.group(2))


def _reports(output: str) -> tuple[int, int]:
    m = re.search(r"(\d+) reports built, (\d+) up to date", output)
    assert m, output
    return int(m.group(1)), int(m.group(2))


@pytest.fixture(scope="module")
def two_builds(tmp_path_factory) -> dict:
    """The session's pipeline build (a clean build the other tests read, never change) and the sharded build of the
    same sources: the two shards' folders and the merged one, which the later tests of this file change."""
    import pipeline

    pipeline.build("site")
    root = tmp_path_factory.mktemp("reproducible")
    shards = []
    for i in (1, 2):
        folder = pipeline.prepare(root / f"shard{i}")
        shards.append((folder, run_cli("build", "--shard", f"{i}/2", cwd=folder)))
    merged = pipeline.prepare(root / "merged")
    proc = run_cli("merge", *(str(folder / "build") for folder, _ in shards), cwd=merged)
    return {"first": pipeline.PUBLIC, "second": merged / "public", "shards": shards, "merge": proc, "merged": merged}


@pytest.mark.slow
def test_two_clean_builds_give_identical_public_trees(two_builds):
    """The pipeline's steps in one folder, and two shards merged in another: the same public/, byte for byte."""
    import pipeline

    built = []
    for i, (folder, proc) in enumerate(two_builds["shards"], 1):
        assert proc.returncode == 0, proc.stderr
        record = json.loads((folder / "build" / "shard.json").read_text())
        assert record["shard"] == i and record["of"] == 2 and record["sets"], record
        assert not (folder / "public").exists(), "a shard builds no site"
        assert re.search(rf"shard {i}/2: [1-9]\d* reports built", proc.stdout), proc.stdout
        built.append(record["sets"])
    merged = two_builds["merged"]
    sets = sorted(p.name for p in (merged / "data" / "results").iterdir())
    assert sorted(built[0] + built[1]) == sets and not set(built[0]) & set(built[1])

    proc = two_builds["merge"]
    assert proc.returncode == 0, proc.stderr
    assert f"merged the notebook runs of {len(sets)} result sets from 2 shards" in proc.stdout
    runs = len(list((pipeline.BUILD / "analysis").glob("*/*/manifest.json")))
    assert _notebook_runs(proc.stdout) == (0, runs), proc.stdout  # every notebook run is a shard's
    assert _reports(proc.stdout) == (0, len(list((pipeline.BUILD / "reports").glob("*.pdf")))), proc.stdout  # and every report

    first, second = tree(two_builds["first"]), tree(two_builds["second"])
    assert first, "the build wrote nothing to public/"
    assert any(name.endswith(".pdf") and name.startswith("reports/") for name in first), "no PDF report in public/"
    assert any(name.endswith(".ipynb") for name in first), "no executed notebook in public/"
    assert any(n.startswith("pagefind/") for n in first), "no search index in public/"
    only = sorted(set(first) ^ set(second))
    assert not only, f"files in only one build: {only[:10]}"
    differ = sorted(name for name in first if first[name] != second[name])
    assert not differ, f"{len(differ)} files differ between two clean builds, e.g. public/{differ[0]}: {differ[:10]}"


@pytest.mark.slow
def test_a_build_with_nothing_out_of_date_starts_no_cluster(two_builds):
    """Given a scheduler no one listens at, a no-op build and a forced one (every step asked, every job fresh) never
    try to reach it, and the forced one writes the same site."""
    merged = two_builds["merged"]
    nowhere = {**os.environ, "WIRESPEED_SCHEDULER": "tcp://127.0.0.1:9"}
    noop = subprocess.run([*WIRESPEED, "build"], cwd=merged, env=nowhere, capture_output=True, text=True, timeout=600)
    assert noop.returncode == 0 and "up to date: nothing the build reads has changed" in noop.stdout, noop.stderr
    forced = subprocess.run([*WIRESPEED, "build", "--force"], cwd=merged, env=nowhere, capture_output=True, text=True, timeout=1200)
    assert forced.returncode == 0 and "cannot connect" not in forced.stderr, forced.stderr
    assert _notebook_runs(forced.stdout)[0] == 0 and _reports(forced.stdout)[0] == 0, forced.stdout
    assert tree(merged / "public") == tree(two_builds["first"])


@pytest.mark.slow
def test_pdf_reports_carry_their_sets_last_change_not_the_clock_nor_the_source_date(two_builds):
    """A report is dated when it was built from its data: its set's own last change (exported as `changed`), or its
    article's when that is later."""
    import datetime as dt

    import pikepdf

    from wirespeed.report import links as reportlinks

    work = two_builds["first"].parent
    data = json.loads((work / "build" / "hugo-data" / "wirespeed" / "sets" / f"{SMALL_SET}.json").read_text())
    when = dt.datetime.fromtimestamp(reportlinks.data_epoch(data, work / "content" / "reviews" / f"{SMALL_SET}.md"), dt.timezone.utc)
    assert when.isoformat() >= data["changed"].replace("Z", "+00:00")
    with pikepdf.open(two_builds["first"] / "reports" / f"{SMALL_SET}.pdf") as pdf:
        created = str(pdf.docinfo["/CreationDate"])
    assert created.startswith("D:" + when.strftime("%Y%m%d%H%M%S")), (created, data["changed"], when)
    assert not created.startswith("D:2022"), "the source's publication date is not when the report was made"


@pytest.mark.slow
def test_reports_rebuild_only_when_their_own_inputs_change(two_builds):
    work = two_builds["merged"]
    n = len(list((work / "build" / "reports").glob("*.pdf")))  # one report per published set
    assert n >= 6
    assert report_counts(work) == (0, n), "an unchanged build rebuilt reports"
    # re-running one set's notebook writes the same bytes: no report rebuilds
    manifest = next((work / "build" / "analysis" / SMALL_SET).glob("*/manifest.json"))
    manifest.unlink()
    out = run_cli("analyse", cwd=work, check=True).stdout
    assert out.startswith("1 notebook runs executed"), out
    run_cli("site", "--data-only", cwd=work, check=True)
    assert report_counts(work) == (0, n), "re-running one notebook rebuilt reports"
    # a change in one result set rebuilds that set's report and no other
    toml = work / "data" / "results" / SMALL_SET / "result.toml"
    text = toml.read_text(encoding="utf-8")
    toml.write_text(text.replace('title = "Keysight IxNetwork VE software traffic generator', 'title = "Keysight IxNetwork VE (retitled) software traffic generator', 1), encoding="utf-8")
    before = tree(work / "build" / "reports")
    for step in STEPS[:3]:
        run_cli(*step, cwd=work, check=True)
    assert report_counts(work) == (1, n - 1)
    after = tree(work / "build" / "reports")
    assert sorted(n for n in after if after[n] != before.get(n)) == [f"{SMALL_SET}.manifest.json", f"{SMALL_SET}.pdf"]


RENDER = """
import hashlib, sys
import vl_convert as vlc
from wirespeed.report import chart_pdf
spec = {"$schema": "https://vega.github.io/schema/vega-lite/v6.json", "title": "Throughput", "width": 300, "height": 200,
        "data": {"values": [{"size": s, "mfps": m, "set": k} for s, m, k in [(64, 14.9, "a"), (512, 2.35, "a"), (64, 7.4, "b"), (1518, 0.81, "b")]]},
        "mark": {"type": "line", "point": True},
        "encoding": {"x": {"field": "size", "type": "quantitative"}, "y": {"field": "mfps", "type": "quantitative"}, "color": {"field": "set"}}}
svg = vlc.vegalite_to_svg(spec)
raw = vlc.svg_to_pdf(svg)
print(hashlib.sha256(chart_pdf.draw(svg.encode())).hexdigest(), hashlib.sha256(svg.encode()).hexdigest(), hashlib.sha256(raw).hexdigest())
"""


def test_chart_pdf_and_svg_bytes_do_not_depend_on_the_process():
    """vl-convert's own PDF changes with the process's hash seed; a report's chart PDF (report/chart_pdf.py) and the SVG do not."""
    runs = [subprocess.run([sys.executable, "-c", RENDER], capture_output=True, text=True, check=True, env={"PATH": "/usr/bin:/bin", "PYTHONHASHSEED": seed}).stdout.split()
            for seed in ("1", "2", "3", "4")]
    assert len({r[0] for r in runs}) == 1, "stable PDF differs between processes"
    assert len({r[1] for r in runs}) == 1, "SVG differs between processes"


def test_executed_notebook_is_normalised():
    nb = {"metadata": {"papermill": {"start_time": "2026-11-23T02:33:17", "end_time": "x", "duration": 4.0, "input_path": "build/a/.nb.x1y2/source.ipynb",
                                     "output_path": "build/a/.nb.x1y2/nb.ipynb", "parameters": {"output_dir": "build/a/.nb.x1y2"}, "version": "2.7.0"}},
          "cells": [{"id": "23d06bd3", "cell_type": "markdown", "metadata": {}, "source": "# T"},
                    {"id": "b0f7d497", "cell_type": "code", "source": 'output_dir = "build/a/.nb.x1y2"', "execution_count": 1,
                     "metadata": {"execution": {"iopub.execute_input": "2026-11-23T02:33:18Z"}, "papermill": {"duration": 0.1, "status": "completed"}, "tags": ["injected-parameters"]},
                     "outputs": [{"output_type": "execute_result", "data": {"text/plain": ["<wirespeed.analysis.outputs._Html at 0x7f3928ce6c50>"]}}]}]}
    out = stable_notebook(nb, "nb", {"build/a/.nb.x1y2": "build/a/nb"})
    text = json.dumps(out)
    assert "x1y2" not in text and "2026" not in text and "0x7f" not in text and "duration" not in text
    assert out["metadata"]["papermill"] == {"parameters": {"output_dir": "build/a/nb"}, "version": "2.7.0"}
    assert out["cells"][1]["source"] == 'output_dir = "build/a/nb"' and out["cells"][1]["metadata"] == {"tags": ["injected-parameters"]}
    assert out["cells"][1]["outputs"][0]["data"]["text/plain"] == ["<wirespeed.analysis.outputs._Html>"]
    ids = [c["id"] for c in out["cells"]]
    assert ids == [c["id"] for c in stable_notebook(nb, "nb", {})["cells"]] and len(set(ids)) == 2
    assert all(re.fullmatch(r"[A-Za-z0-9_-]{1,64}", i) for i in ids)


def test_a_cells_printing_is_one_output_however_the_kernel_split_it():
    """The kernel sends a cell's printing in as many messages as its flush timer cuts it into; the stable notebook
    holds what was printed, not how it was cut (two runs of one notebook differed only in this)."""
    def cell(*outputs):
        return {"metadata": {"papermill": {"status": "completed"}}, "cells": [{"cell_type": "code", "source": "", "metadata": {}, "outputs": list(outputs)}]}

    whole = cell({"output_type": "stream", "name": "stdout", "text": ["loss: 14 rows\n", "\n", "latency: 7 rows\n"]})
    cut = cell({"output_type": "stream", "name": "stdout", "text": "loss: 14 rows"},
               {"output_type": "stream", "name": "stdout", "text": ["\n", "\n", "laten"]}, {"output_type": "stream", "name": "stdout", "text": "cy: 7 rows\n"})
    assert stable_notebook(cut, "nb", {}) == stable_notebook(whole, "nb", {})
    assert stable_notebook(cut, "nb", {})["cells"][0]["outputs"] == [{"output_type": "stream", "name": "stdout", "text": ["loss: 14 rows\n", "\n", "latency: 7 rows\n"]}]
    apart = cell({"output_type": "stream", "name": "stdout", "text": "a\n"}, {"output_type": "stream", "name": "stderr", "text": "w\n"},
                 {"output_type": "execute_result", "data": {"text/plain": "1"}, "metadata": {}, "execution_count": 1},
                 {"output_type": "stream", "name": "stdout", "text": "b\n"})
    assert [o.get("name") for o in stable_notebook(apart, "nb", {})["cells"][0]["outputs"]] == ["stdout", "stderr", None, "stdout"]
