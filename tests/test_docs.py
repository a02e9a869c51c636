"""Docs checked by tests: every schema field, column, hook and command is documented."""

from __future__ import annotations

from conftest import ROOT, run_cli
from wirespeed.engine.columns import KEYS, METRICS
from wirespeed.extensions import GROUPS, describe
from wirespeed.resultset.schemacheck import schema
from wirespeed.resultset.schemadoc import fields


def test_every_schema_field_has_a_description():
    missing = [path for path, _kind, _req, desc in fields(schema()) if not desc.strip()]
    assert not missing, missing


def test_field_reference_is_generated_from_the_schema():
    proc = run_cli("schema", "--markdown")
    assert proc.returncode == 0
    for path, *_ in fields(schema()):
        assert f"`{path}`" in proc.stdout


def test_every_column_and_plugin_is_described():
    assert all(m.description and m.label for m in METRICS.values())
    assert all(desc for table in KEYS.values() for _type, desc in table.values())
    for group in GROUPS:
        for name, doc in describe(group):
            assert doc, f"{group} {name} has no docstring"


def test_readme_names_every_command():
    readme = (ROOT / "README.md").read_text()
    help_text = run_cli("--help").stdout
    commands = [line.split()[0] for line in help_text.split("Commands:")[1].splitlines() if line.strip()]
    for cmd in commands:
        assert f"wirespeed {cmd}" in readme, cmd
