"""Warm kernels (wirespeed/pipeline/kernels.py): the notebook runs of one worker share one kernel, reset
before each run. A set's executed outputs are the same bytes whether its notebooks ran alone, in a
fresh kernel, or after another set's in a warm one; a run sees nothing an earlier run left (names,
working folder, environment, sys.path); a failed run's kernel is replaced and the next set still runs."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from conftest import catalog_of

pytestmark = pytest.mark.slow  # runs notebooks on Jupyter kernels: processes

FIRST, SECOND = "cisco-7600-osm-acl-2001", "keysight-ixnetwork-ve-dpdk-400g-2022"  # runs go in slug order

PROBE = '''# %% tags=["parameters"]
slug = ""
catalog = ""
output_dir = ""

# %%
import os, sys
print("pid", os.getpid())
print("left behind:", sorted(n for n in ("secret", "helper") if n in globals()), os.environ.get("WIRESPEED_LEAK"),
      "/nonexistent" in sys.path, os.getcwd() == "/", "zz_probe_helper" in sys.modules)

# %%
secret = slug
os.environ["WIRESPEED_LEAK"] = slug
sys.path.insert(0, "/nonexistent")
scratch = os.path.dirname(os.path.dirname(output_dir))  # the analysis folder: a module beside the notebooks' outputs
sys.path.insert(0, scratch)
with open(os.path.join(scratch, "zz_probe_helper.py"), "w") as f:
    f.write("VALUE = 1\\n")
import zz_probe_helper as helper
os.chdir("/")

# %%
import json
os.makedirs(output_dir, exist_ok=True)
with open(os.path.join(output_dir, "outputs.json"), "w") as f:
    json.dump({"slug": slug, "tables": {}, "charts": {}}, f)
'''


def _files(root: Path) -> dict[str, bytes]:
    """Every file the run left for a set, by path (the worker's own log beside the runs left out: it is not an output)."""
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file() and not p.name.endswith(".kernel.log")}


def _stdout(ipynb: Path) -> list[str]:
    """The lines the notebook printed."""
    nb = json.loads(ipynb.read_text(encoding="utf-8"))
    return "".join("".join(o["text"]) for c in nb["cells"] if c["cell_type"] == "code" for o in c.get("outputs", []) if o.get("name") == "stdout").splitlines()


def test_outputs_are_the_same_bytes_alone_and_after_another_set(tmp_path):
    from wirespeed.analysis import run as analysis

    db, out = catalog_of(tmp_path, FIRST, SECOND), tmp_path / "analysis"
    _, errors = analysis.run(db, [SECOND], jobs=1, out_root=out)  # alone: a new worker, a fresh kernel
    assert not errors, errors
    alone = _files(out / SECOND)
    assert any(name.endswith(".ipynb") for name in alone) and any(name.endswith(".svg") for name in alone)
    shutil.rmtree(out)
    plan, errors = analysis.run(db, jobs=1, out_root=out)  # one worker: SECOND's notebooks run in the kernel FIRST's ran in
    assert not errors, errors
    assert [j.slug for j in plan.run] == [FIRST, FIRST, SECOND, SECOND]
    after = _files(out / SECOND)
    assert sorted(after) == sorted(alone)
    differ = [name for name in alone if alone[name] != after[name]]
    assert not differ, f"outputs of {SECOND} differ after another set's run: {differ}"


def test_a_run_sees_nothing_the_previous_run_left(tmp_path):
    from wirespeed.analysis import run as analysis

    db, out, nbs = catalog_of(tmp_path, FIRST, SECOND), tmp_path / "analysis", tmp_path / "notebooks"
    nbs.mkdir()
    (nbs / "probe.py").write_text(PROBE, encoding="utf-8")
    plan, errors = analysis.run(db, jobs=1, out_root=out, notebooks_dir=nbs)
    assert not errors, errors
    assert [j.slug for j in plan.run] == [FIRST, SECOND]
    first, second = (_stdout(out / slug / "probe" / "probe.ipynb") for slug in (FIRST, SECOND))
    assert first[0] == second[0], "the two runs of one worker did not share its kernel"
    for printed in (first, second):
        assert printed[1] == "left behind: [] None False False False"
    nb = json.loads((out / SECOND / "probe" / "probe.ipynb").read_text(encoding="utf-8"))
    assert [c["execution_count"] for c in nb["cells"] if c["cell_type"] == "code"] == [1, 2, 3, 4, 5]  # the injected parameters are cell 2


def test_a_failed_run_replaces_the_kernel_and_the_next_set_runs(tmp_path):
    from wirespeed.analysis import run as analysis

    db, out, nbs = catalog_of(tmp_path, FIRST, SECOND), tmp_path / "analysis", tmp_path / "notebooks"
    nbs.mkdir()
    breaks = PROBE.replace("# %%\nsecret = slug", f'# %%\nsecret = slug\nif slug == "{FIRST}":\n    raise ValueError("deliberate failure")', 1)
    (nbs / "probe.py").write_text(breaks, encoding="utf-8")
    plan, errors = analysis.run(db, jobs=1, out_root=out, notebooks_dir=nbs)
    assert [j.slug for j in plan.run] == [FIRST, SECOND]
    assert len(errors) == 1 and errors[0].startswith(f"{FIRST}: analyse failed in notebook") and "ValueError: deliberate failure" in errors[0], errors
    assert not (out / FIRST / "probe").exists() and not (out / FIRST / "index.json").exists()
    printed = _stdout(out / SECOND / "probe" / "probe.ipynb")
    assert printed[1] == "left behind: [] None False False False"
    assert json.loads((out / SECOND / "index.json").read_text())["notebooks"][0]["name"] == "probe"


def _pid(_job=None, _root=None) -> int:
    import os

    return os.getpid()


def test_a_kernel_warmed_before_the_runs_is_the_one_they_use_and_changes_no_byte(tmp_path):
    """`wirespeed build` warms each worker's kernel while it validates (runner.shared_pool, analysis.run.warm): the
    notebooks' modules are loaded before the first run, which runs in that kernel, and the outputs are those of a
    run in a cold kernel, byte for byte."""
    from wirespeed.analysis import run as analysis
    from wirespeed.pipeline import runner

    db, out = catalog_of(tmp_path, SECOND), tmp_path / "analysis"
    modules = analysis.preloads()
    assert {"wirespeed.analysis.notebook", "IPython.display", "wirespeed.presentation.charts.definitions"} <= set(modules), modules
    _, errors = analysis.run(db, [SECOND], jobs=1, out_root=out)  # cold: a new worker, a fresh kernel
    assert not errors, errors
    cold = _files(out / SECOND)
    shutil.rmtree(out)
    with runner.shared_pool(1):
        warmed = [f.result() for f in runner.warm(analysis.warm, str(Path.cwd()), modules, out)]
        assert warmed == [{"ok": True}]
        _, errors = analysis.run(db, [SECOND], jobs=1, out_root=out)
        assert not errors, errors
        # the shared pool's one worker ran the warm-up and both notebooks, and is still there for the next step
        assert [pid for _, pid in runner.execute([object()], _pid)] == [pid for _, pid in runner.execute([object()], _pid)]
    after = _files(out / SECOND)
    assert sorted(after) == sorted(cold)
    differ = [name for name in cold if cold[name] != after[name]]
    assert not differ, f"outputs of {SECOND} differ after a warm-up: {differ}"


def test_a_warmed_kernels_modules_are_loaded_before_the_first_run(tmp_path):
    from wirespeed.analysis import run as analysis
    from wirespeed.pipeline import runner

    db, out, nbs = catalog_of(tmp_path, SECOND), tmp_path / "analysis", tmp_path / "notebooks"
    nbs.mkdir()
    (nbs / "probe.py").write_text(PROBE.replace('"zz_probe_helper" in sys.modules)', '"zz_probe_helper" in sys.modules, "altair" in sys.modules)'),
                                  encoding="utf-8")
    with runner.shared_pool(1):
        assert [f.result() for f in runner.warm(analysis.warm, str(Path.cwd()), ["altair", "no_such_module_anywhere"], out)] == [{"ok": True}]
        _, errors = analysis.run(db, jobs=1, out_root=out, notebooks_dir=nbs)
    assert not errors, errors
    assert _stdout(out / SECOND / "probe" / "probe.ipynb")[1] == "left behind: [] None False False False True"


def test_a_build_warms_the_kernels_only_when_a_notebook_may_run():
    from wirespeed.cli.pipeline import warms

    assert warms(None)  # no last build
    assert warms({"data/results/x/result.toml"}) and warms({"notebooks/load.py"}) and warms({"<wirespeed>/engine/units.py"})
    assert not warms(set()) and not warms({"content/articles/a.md", "layouts/_partials/x.html", "static/css/site.css"})


def _die(_job=None, _root=None) -> None:
    import os

    os._exit(9)


def test_a_step_after_a_worker_died_runs_on_a_pool_of_its_own():
    """A worker of the build's shared pool that dies breaks that pool (it takes no more work): the next step's jobs
    run on a pool of their own instead of failing with it."""
    from concurrent.futures.process import BrokenProcessPool

    from wirespeed.pipeline import runner

    with runner.shared_pool(1):
        with pytest.raises(BrokenProcessPool):
            runner.execute([object()], _die)
        assert len(runner.execute([object(), object()], _pid)) == 2
