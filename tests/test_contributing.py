"""The contributor's documents: CONTRIBUTING.md linked from the README, the site's About page and the
scaffold; the column vocabulary generated from the code, complete and in sync; the pull-request template."""

from __future__ import annotations

import re

from conftest import ROOT, run_cli
from wirespeed.catalog.columndoc import example
from wirespeed.engine.columns import KEYS, METRICS, TABLE_METRICS
from wirespeed.engine.figures import Figure
from wirespeed.engine.units import UNITS, split_column


def test_column_reference_is_generated_and_in_sync():
    proc = run_cli("columns", "--markdown")
    assert proc.returncode == 0, proc.stderr
    assert (ROOT / "docs" / "columns.md").read_text(encoding="utf-8") == proc.stdout, "docs/columns.md is stale: run wirespeed columns --markdown > docs/columns.md"


def test_column_reference_names_every_key_metric_and_unit_with_an_example():
    doc = (ROOT / "docs" / "columns.md").read_text(encoding="utf-8")
    for kind, keys in KEYS.items():
        section = doc.split(f"## {kind} tables", 1)[1].split("\n## ", 1)[0]
        for name in keys:
            assert f"| `{name}` |" in section, (kind, name)
        for metric in TABLE_METRICS[kind]:
            col, cell = example(metric)
            assert f"| `{metric}` |" in section and f"`{col}` = `{cell}`" in section, (kind, metric)
    for unit in UNITS:
        assert f"| `{unit}` |" in doc, unit


def test_every_example_column_is_valid():
    for metric in METRICS:
        col, cell = example(metric)
        got_metric, unit = split_column(col)
        assert got_metric == metric and unit.dimension == METRICS[metric].dimension, col
        Figure.parse(cell)


def test_contributing_is_linked_and_covers_what_a_contributor_needs():
    guide = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    for topic in ("wirespeed new", "docs/columns.md", "files.native", "importer", "Modelling guidance", "per-direction",
                  "packets per second", "does not state", "Licensing of third-party data", "What CI checks", "make serve", "wirespeed validate"):
        assert topic.lower() in guide.lower(), topic
    assert "[CONTRIBUTING.md](CONTRIBUTING.md)" in (ROOT / "README.md").read_text(encoding="utf-8")
    about = (ROOT / "content" / "about.md").read_text(encoding="utf-8")
    assert "[CONTRIBUTING.md](../contributing.md)" in about
    config = (ROOT / "config.toml").read_text(encoding="utf-8")
    assert 'source = "CONTRIBUTING.md"\n    target = "static/contributing.md"' in config


def test_native_example_in_the_guide_names_installed_importers():
    guide = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    installed = run_cli("plugins", "importers").stdout
    for name in re.findall(r'importer = "([^"]+)"', guide):
        assert f"  {name} " in installed, name


def test_scaffold_points_at_documents_that_exist(tmp_path):
    proc = run_cli("new", "acme-s1-2026", "--root", str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    text = (tmp_path / "acme-s1-2026" / "result.toml").read_text(encoding="utf-8")
    assert "format page" not in text
    for doc in re.findall(r"\b([A-Za-z/]+\.md)\b", text):
        assert (ROOT / doc).is_file(), doc


def test_pull_request_template_has_a_checklist():
    text = (ROOT / ".github" / "pull_request_template.md").read_text(encoding="utf-8")
    assert text.count("- [ ]") >= 5
    assert "CONTRIBUTING.md" in text and "wirespeed validate" in text and "Licence" in text
