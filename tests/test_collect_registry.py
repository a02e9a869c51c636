"""`wirespeed collect NAME` runs the collector the entry point NAME names, and only that one: no command is
registered beside the entry points (an earlier `collect trex` registered twice shadowed the entry point)."""

from __future__ import annotations

from importlib.metadata import EntryPoint, entry_points
from pathlib import Path

import pytest
from click.testing import CliRunner

from wirespeed import extensions
from wirespeed.cli import cli, collect

CALLS: list[tuple[Path, str, dict]] = []


def recording_collector(out_dir: Path, slug: str, *, progress=None, provenance=None, rounds: int = 1) -> Path:
    """A collector that records its call and writes nothing (the entry point this test puts in trex's place)."""
    CALLS.append((out_dir, slug, {"provenance": provenance, "rounds": rounds}))
    return out_dir / slug


@pytest.fixture
def fresh_registry():
    extensions.registry.cache_clear()
    yield
    extensions.registry.cache_clear()


def test_every_collector_is_registered_once_and_trex_is_the_trex_collector(fresh_registry) -> None:
    names = [ep.name for ep in entry_points(group="wirespeed.collectors")]
    assert len(names) == len(set(names)), names
    assert [ep.value for ep in entry_points(group="wirespeed.collectors") if ep.name == "trex"] == ["wirespeed.collectors.trex_collect:run"]
    assert collect.commands == {}, "a collector registered as a command beside its entry point"


def test_collect_trex_runs_whatever_the_trex_entry_point_names(fresh_registry, monkeypatch, tmp_path: Path) -> None:
    real = [ep for ep in entry_points(group="wirespeed.collectors") if ep.name != "trex"]
    swapped = EntryPoint("trex", f"{__name__}:recording_collector", "wirespeed.collectors")
    monkeypatch.setattr(extensions, "entry_points", lambda group: real + [swapped] if group == "wirespeed.collectors" else entry_points(group=group))
    CALLS.clear()
    res = CliRunner().invoke(cli, ["collect", "trex", "--into", "lab-run", "--root", str(tmp_path), "-p", "rounds=3", "--publisher", "Lab"])
    assert res.exit_code == 0, res.output
    assert len(CALLS) == 1
    out_dir, slug, given = CALLS[0]
    assert (out_dir, slug, given["rounds"]) == (tmp_path, "lab-run", 3)
    assert given["provenance"]["publisher"] == "Lab"
    assert f"wrote {tmp_path / 'lab-run'}" in res.output
