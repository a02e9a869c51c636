"""The analysis notebooks show their work: the DuckDB SQL they run over the catalog, each derived figure
beside its formula, computed in view and checked against the engine's figure. The check is real: a
catalog whose stored figure differs from the formula by one part in 2**40, or a notebook whose formula
differs from the engine's, stops the run with Disagreement (wirespeed/analysis/notebook.py) and leaves the
set out, named with the notebook and the cell."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import duckdb
import pytest

from conftest import ROOT, catalog_of

pytestmark = pytest.mark.slow  # runs notebooks on Jupyter kernels: processes

NEXUS, RAMP = "cisco-nexus-9516-128x100g-2015", "linux-netns-ipv4-ramp-2026-11"


def _notebooks(tmp_path: Path, name: str, edit: tuple[str, str] | None = None) -> Path:
    """A notebooks folder holding one of the project's notebooks (with one text replaced, when `edit` says)."""
    folder = tmp_path / "notebooks"
    folder.mkdir(exist_ok=True)
    text = (ROOT / "notebooks" / f"{name}.py").read_text(encoding="utf-8")
    if edit:
        assert text.count(edit[0]) == 1, edit[0]
        text = text.replace(*edit)
    (folder / f"{name}.py").write_text(text, encoding="utf-8")
    return folder


def _cells(ipynb: Path) -> tuple[list[str], list[str], str]:
    """Markdown sources, code sources and everything the code printed or displayed as text."""
    nb = json.loads(ipynb.read_text(encoding="utf-8"))
    md = ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown"]
    code = ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code"]
    shown = []
    for c in nb["cells"]:
        for o in c.get("outputs", []):
            shown.append("".join(o.get("text", "")) + "".join(o.get("data", {}).get("text/plain", "")))
    return md, code, "\n".join(shown)


def test_throughput_notebook_shows_its_sql_formulas_and_the_catalogs_figures(tmp_path):
    from wirespeed.analysis import run as analysis

    db, out = catalog_of(tmp_path, NEXUS), tmp_path / "analysis"
    _, errors = analysis.run(db, [NEXUS], out_root=out, notebooks_dir=_notebooks(tmp_path, "throughput"))
    assert not errors, errors
    md, code, shown = _cells(out / NEXUS / "throughput" / "throughput.ipynb")
    assert any("CREATE TEMP TABLE line_rate AS" in c and "payload_bps / wire_bits * streams" in c for c in code)
    assert any("FROM rows r" in c and "JOIN derived d" in c and "$slug" in c for c in code)
    line_md = next(m for m in md if m.startswith("## Line rate"))
    assert "RFC 2544 §20" in line_md and "(frame bytes + 20) × 8" in line_md and "payload bit/s ÷ bits on the wire" in line_md
    assert any("RFC 2544 §26.3" in m and "(tx − rx) × 100 ÷ tx" in m for m in md)
    assert "line rate: 308 rows computed here, each equal to the catalog's" in shown
    assert "throughput: 308 rows computed here (77 with a throughput), each equal to the catalog's" in shown
    con = duckdb.connect(str(db), read_only=True)
    line, pct = con.execute("SELECT d.line_rate_fps, d.throughput_pct_line_rate FROM rows r JOIN derived d USING (slug, row_id)"
                            " WHERE r.test_id = 'l2-unicast' AND r.frame_size = 64").fetchone()
    con.close()
    assert line == 128 * 100e9 / ((64 + 20) * 8)  # 128 ports of 100 Gbit/s, 84 bytes on the wire per 64-byte frame
    assert f"│ l2-unicast │ 64      │        64.0 │     672.0 │     128 │  {line!r} │     {line!r} │" in shown  # computed here │ the catalog's
    assert repr(pct) in shown  # the share of line rate, to the last digit


def test_a_catalog_figure_one_part_in_2_40_off_stops_the_notebook(tmp_path):
    from wirespeed.analysis import run as analysis

    db, out = catalog_of(tmp_path, NEXUS), tmp_path / "analysis"
    con = duckdb.connect(str(db))
    con.execute("UPDATE derived SET line_rate_fps = line_rate_fps * (1 + 2 ** -40) WHERE row_id = 5")  # as if the engine's formula changed
    con.close()
    _, errors = analysis.run(db, [NEXUS], out_root=out, notebooks_dir=_notebooks(tmp_path, "throughput"))
    assert len(errors) == 1, errors
    assert errors[0].startswith(f"{NEXUS}: analyse failed in notebook") and "throughput.py, code cell" in errors[0], errors[0]
    assert "Disagreement" in errors[0] and "line rate: computed here line_rate_fps" in errors[0], errors[0]
    assert not (out / NEXUS / "index.json").exists()


def test_a_notebook_formula_unlike_the_engines_stops_the_ramp_notebook(tmp_path):
    from wirespeed.analysis import run as analysis

    db, out = catalog_of(tmp_path, RAMP), tmp_path / "analysis"
    _, errors = analysis.run(db, [RAMP], out_root=out, notebooks_dir=_notebooks(tmp_path, "loadtest"))
    assert not errors, errors
    md, code, shown = _cells(out / RAMP / "loadtest" / "loadtest.ipynb")
    assert any("CREATE TEMP TABLE ramp_summary AS" in c for c in code)
    assert any("loss onset = the first lossy sample after the last sample that was not" in m for m in md)
    assert "1 ramp summarised here, each equal to the engine's summary" in shown
    # the highest rate without loss read from what was sent instead of what was received: the engine disagrees
    shutil.rmtree(out)
    bad = _notebooks(tmp_path, "loadtest", ("max(rx) FILTER (WHERE NOT lossy)", "max(tx) FILTER (WHERE NOT lossy)"))
    _, errors = analysis.run(db, [RAMP], out_root=out, notebooks_dir=bad)
    assert len(errors) == 1 and "Disagreement" in errors[0] and "ramp summary of ('ipv4-ramp-1518', '1518', None, None, None)" in errors[0] \
        and "max_lossless_rx_fps" in errors[0], errors


def test_agree_compares_bit_for_bit_and_names_the_row():
    from wirespeed.analysis.notebook import Analysis, Disagreement

    con = duckdb.connect()
    run = Analysis("some-set", con, {}, None)
    same = con.sql("SELECT 1 AS id, 0.1::DOUBLE + 0.2::DOUBLE AS mine, 0.30000000000000004::DOUBLE AS theirs UNION ALL SELECT 2, NULL, NULL")
    assert run.agree(same, {"mine": "theirs"}, "sum") == 2
    off = con.sql("SELECT 1 AS id, 0.1::DOUBLE + 0.2::DOUBLE AS mine, 0.3::DOUBLE AS theirs")  # one unit in the last place apart
    with pytest.raises(Disagreement, match=r"some-set: sum: computed here mine = 0\.30000000000000004, the catalog has theirs = 0\.3"):
        run.agree(off, {"mine": "theirs"}, "sum")
    missing = con.sql("SELECT 1 AS id, NULL::DOUBLE AS mine, 0.3::DOUBLE AS theirs")
    with pytest.raises(Disagreement):
        run.agree(missing, {"mine": "theirs"}, "sum")
    assert run.agree_rows({("a",): {"x": 1.5, "y": None}}, {("a",): {"x": 1.5, "y": None}}, "rows") == 1
    with pytest.raises(Disagreement, match=r"rows of \('a',\): computed here x = 1\.5, the engine has 1\.25"):
        run.agree_rows({("a",): {"x": 1.5}}, {("a",): {"x": 1.25}}, "rows")
    with pytest.raises(Disagreement, match="computed here for"):
        run.agree_rows({("a",): {"x": 1.5}}, {("a",): {"x": 1.5}, ("b",): {"x": 2.0}}, "rows")
    con.close()
