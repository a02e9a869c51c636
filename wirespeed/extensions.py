"""The extension points, in one place: five entry-point groups, each with its typed signature and its
documentation. Built-ins register the same way as third parties (pyproject.toml), and both
`wirespeed plugins` and docs/architecture.md read this module (tests/test_architecture.py checks it).
It sits in the bottom layer (pyproject.toml, [tool.importlinter]): it names each group's contract by its
dotted path and loads plugins through entry points, so it imports no wirespeed package at run time; the
types its signatures name are imported for annotations only.

A plugin is an object registered under `[project.entry-points."wirespeed.<group>"]`; it carries a
one-line docstring (importers: their `summary`) that `wirespeed plugins` prints.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import lru_cache
from importlib.metadata import entry_points
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from wirespeed.checks import Finding
    from wirespeed.problems import Problem
    from wirespeed.resultset.model import ResultSet
    from wirespeed.sitecheck.site import Site


class CheckHook(Protocol):
    """`wirespeed.checks`: `check(result_set) -> findings`, a semantic rule over a loaded result set.

    Yields `wirespeed.checks.Finding`s (check name, row, metric, message, severity); never raises on
    bad input (an exception is reported on the set as an internal problem, the other checks still run)."""

    def __call__(self, rs: ResultSet, /) -> Iterable[Finding]: ...


class ChartTypeHook(Protocol):
    """`wirespeed.charts`: `chart_type(definition) -> altair.Chart`, a chart type.

    The definition is plain data (id, type, title, caption, alt, data and the type's own fields);
    `wirespeed.presentation.charts.compile_chart` themes the chart and makes the one Vega-Lite spec that
    the site embeds and the PDF renders."""

    def __call__(self, definition: dict[str, Any], /) -> Any: ...


@dataclass(frozen=True)
class CollectorOption:
    """A command-line option of one collector, beyond the ones every collector takes (`run.options`)."""

    name: str  # run()'s keyword argument; the flag is --name with hyphens
    help: str
    metavar: str | None = None
    flag: bool = False  # an on/off switch
    kind: type = str  # str, int, float or Path
    default: Any = None
    required: bool = False


class CollectorHook(Protocol):
    """`wirespeed.collectors`: `run(out_dir, slug, *, progress=None, provenance=None, **params) -> Path`, a traffic run.

    Runs a traffic generator and writes the result set folder `out_dir/slug` atomically (through
    `wirespeed.resultset.writer`). Its docstring's first line is its `collect --help` entry; its
    `options` attribute (CollectorOption, …) its own flags; `provenance` is what every collector takes
    (--publisher, --licence, --location, --status: wirespeed.collectors.provenance); any other keyword
    parameter is `--param KEY=VALUE`. Raises its own error with a one-line message when the run cannot
    be done; nothing is written then."""

    def __call__(self, out_dir: Path, slug: str, *, progress: Callable[[int, int], None] | None = None, **params: Any) -> Path: ...


class SiteCheckHook(Protocol):
    """`wirespeed.site_checks`: `check(site) -> problems`, a rule of the publication check over a built site.

    Reads the built pages, downloads, feed and PDF text through `wirespeed.sitecheck.site.Site` and yields
    one `wirespeed.problems.Problem` per failure, naming the page, the element and the rule."""

    def __call__(self, site: Site, /) -> Iterable[Problem]: ...


@dataclass(frozen=True)
class Group:
    """One extension point: its entry-point group name, what a plugin is, and where the built-ins live."""

    name: str
    summary: str
    contract: str
    builtins: str

    @property
    def entry_point_group(self) -> str:
        return f"wirespeed.{self.name}"


GROUP_SPECS: tuple[Group, ...] = (
    Group("importers", "read a native tool format at import and load time",
          "wirespeed.importers.contract.Importer", "wirespeed/importers/"),
    Group("checks", "semantic checks of a loaded result set", "wirespeed.extensions.CheckHook", "wirespeed/checks/"),
    Group("charts", "chart types that compile a chart definition into one Vega-Lite spec",
          "wirespeed.extensions.ChartTypeHook", "wirespeed/presentation/charts/"),
    Group("collectors", "run a traffic generator and write a new result set", "wirespeed.extensions.CollectorHook",
          "wirespeed/collectors/"),
    Group("site_checks", "rules of the publication check over the built pages, downloads, feed and PDFs",
          "wirespeed.extensions.SiteCheckHook", "wirespeed/sitecheck/"),
)
GROUPS = tuple(g.name for g in GROUP_SPECS)


def group(name: str) -> Group:
    """The Group named `name` (KeyError for an unknown one)."""
    for g in GROUP_SPECS:
        if g.name == name:
            return g
    raise KeyError(name)


@lru_cache(maxsize=None)
def registry(group: str) -> dict[str, Any]:
    """Name → loaded object for one extension point."""
    if group not in GROUPS:
        raise KeyError(group)
    return {ep.name: ep.load() for ep in sorted(entry_points(group=f"wirespeed.{group}"), key=lambda e: e.name)}


def describe(group: str) -> list[tuple[str, str]]:
    """(name, first docstring line) for every plugin of a group."""
    out = []
    for name, obj in registry(group).items():
        summary = getattr(obj, "summary", None)  # importers (importers/contract.py) carry theirs
        doc = (summary if isinstance(summary, str) else obj.__doc__ or "").strip().splitlines()
        out.append((name, doc[0] if doc else ""))
    return out

