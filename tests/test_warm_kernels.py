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
