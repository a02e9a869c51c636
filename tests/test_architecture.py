"""The layout keeps its promises: no import climbs a layer (import-linter checks the contracts of
pyproject.toml, and docs/architecture.md lists the same layers), docs/architecture.md describes every
package, the extension points are declared in one module with contracts the installed plugins fulfil,
ingest's cache key covers only the code ingest imports, and the presentation layer reads the catalog's
derived figures without ever computing a line rate itself."""

from __future__ import annotations

import inspect
import json
import re
import tomllib
from pathlib import Path

import pytest

from conftest import ARCHIVE, ROOT

PACKAGE = ROOT / "wirespeed"
ARCHITECTURE = ROOT / "docs" / "architecture.md"


def _contracts() -> dict[str, dict]:
    """The import-linter contracts of pyproject.toml, by id."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]
    return {c["id"]: c for c in config["contracts"]}


def _import_linter():
    from importlinter import configuration

    configuration.configure()  # what the lint-imports command does first


def test_no_import_climbs_a_layer():
    """import-linter (the `lint-imports` command's own function) keeps every contract of pyproject.toml;
    a broken one fails with its report: which import, in which file and line, climbs which layer."""
    _import_linter()
    from importlinter.application.output import console
    from importlinter.application.use_cases import lint_imports

    with console.capture() as captured:
        kept = lint_imports(config_filename=str(ROOT / "pyproject.toml"), cache_dir=None, no_logo=True)
    report = captured.get()
    assert kept, report
    for contract in _contracts().values():
        assert f"{contract['name']} KEPT" in report, report
    assert "ignore_imports" not in json.dumps(_contracts()), "no import is let off a contract"


def test_the_layers_contract_catches_an_import_that_climbs():
    """The contract sees an upward import: the engine importing the presentation's number display (as
    engine/compare.py once did) breaks it, and the report names the import."""
    import grimp

    _import_linter()
    from importlinter.application.output import console
    from importlinter.contracts.layers import LayersContract

    spec = _contracts()["layers"]
    contract = LayersContract(name=spec["name"], session_options={"root_packages": ["wirespeed"]},
                              contract_options={k: v for k, v in spec.items() if k not in ("id", "name", "type")})
    graph = grimp.build_graph("wirespeed", cache_dir=None, exclude_type_checking_imports=True)
    assert contract.check(graph, verbose=False).kept
    graph.add_import(importer="wirespeed.engine.compare", imported="wirespeed.presentation.formatting", line_number=17,
                     line_contents="from wirespeed.presentation import formatting")
    check = contract.check(graph, verbose=False)
    assert not check.kept
    with console.capture() as captured:
        contract.render_broken_contract(check)
    assert "wirespeed.engine.compare -> wirespeed.presentation.formatting (l.17)" in captured.get()


def test_the_architecture_page_lists_the_layers_of_the_contract():
    """docs/architecture.md's layer list is the layers contract, in order (siblings as `a` | `b`)."""
    text = ARCHITECTURE.read_text(encoding="utf-8")
    section = text.split("\n## Layers\n", 1)[1].split("\n## ", 1)[0]
    listed = [" | ".join(re.findall(r"`(\w+)`", head)) for head in re.findall(r"^\d+\. (.+?) — ", section, re.M)]
    assert listed == _contracts()["layers"]["layers"]
    top = {p for p in _packages() if "/" not in p} | {p.stem for p in PACKAGE.glob("*.py") if p.stem not in ("__init__", "__main__")}
    layered = {name for layer in listed for name in layer.split(" | ")}
    assert layered == top, f"in no layer: {sorted(top - layered)}; no such package: {sorted(layered - top)}"


def test_each_independence_contract_lists_the_plugins_of_its_extension_point():
    """The built-in plugins of an extension point never import each other: each independence contract
    names exactly the modules its entry-point group registers."""
    entry_points = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["entry-points"]
    groups = {"importers": "importers", "checks": "checks", "site-checks": "site_checks", "chart-types": "charts", "collectors": "collectors"}
    independent = {cid: c for cid, c in _contracts().items() if c["type"] == "independence"}
    assert set(independent) == set(groups)
    for cid, group in groups.items():
        registered = sorted({target.split(":")[0] for target in entry_points[f"wirespeed.{group}"].values()})
        assert independent[cid]["modules"] == registered, cid


def test_ingest_hash_covers_what_ingest_imports_and_not_the_number_display(tmp_path, monkeypatch):
    """The catalog re-derives every set when the code ingest runs changes (catalog.store.engine_hash): that
    is the modules ingest imports, and no module of a layer above the catalog. Editing how the pages
    show numbers (presentation/formatting.py) leaves the hash as it is; editing the engine changes it."""
    from wirespeed.catalog import store
    from wirespeed.system import codehash

    modules = store.ingest_code()
    assert "wirespeed.catalog.store" in modules and "wirespeed.engine.derive" in modules and "wirespeed.checks.consistency" in modules
    above = ("cli", "shards", "sitecheck", "collectors", "report", "site", "analysis", "pipeline", "presentation")
    assert not [m for m in modules if m.split(".")[1:2] and m.split(".")[1] in above], sorted(modules)
    before = store.engine_hash()
    real = codehash._module_file

    def edit(module: str, old: str, new: str) -> None:
        text = real(module).read_text(encoding="utf-8")
        assert old in text
        copy = tmp_path / f"{module}.py"
        copy.write_text(text.replace(old, new, 1), encoding="utf-8")
        monkeypatch.setattr(codehash, "_module_file", lambda name: copy if name == module else real(name))

    edit("wirespeed.presentation.formatting", 'if metric == "loss":\n        return 3', 'if metric == "loss":\n        return 4')
    assert store.engine_hash() == before  # the loss figure printed with 4 decimals: nothing to re-derive
    monkeypatch.setattr(codehash, "_module_file", real)
    assert store.engine_hash() == before
    edit("wirespeed.engine.columns", "class Metric:", "class Metric:  # edited")
    assert store.engine_hash() != before


def _packages() -> list[str]:
    """Every package folder of wirespeed/ (with an __init__.py), as a path relative to wirespeed/."""
    return sorted(p.parent.relative_to(PACKAGE).as_posix() for p in PACKAGE.rglob("__init__.py") if p.parent != PACKAGE)


def test_every_package_has_its_paragraph_in_the_architecture_page():
    text = ARCHITECTURE.read_text(encoding="utf-8")
    assert text.count("```mermaid") == 1, "one diagram of the flow"
    described = set(re.findall(r"^- \*\*`wirespeed/([a-z_]+)/`\*\*", text, re.M))
    top = {p for p in _packages() if "/" not in p}
    assert top, "no packages found"
    assert top <= described, f"packages missing from docs/architecture.md: {sorted(top - described)}"
    assert described <= top, f"docs/architecture.md describes packages that do not exist: {sorted(described - top)}"
    for nested in (p for p in _packages() if "/" in p):  # subpackages are named in their parent's paragraph
        assert f"`{nested.split('/', 1)[1]}/`" in text, f"wirespeed/{nested}/ is not named in docs/architecture.md"


def test_no_two_modules_differ_by_a_suffix_only():
    stems = sorted({p.stem for p in PACKAGE.rglob("*.py") if p.stem != "__init__"})
    clashes = [(a, b) for a in stems for b in stems if a != b and b.startswith(a) and b[len(a):] in ("s", "es", "ing")]
    assert not clashes, clashes


def test_extension_groups_are_declared_once_and_documented():
    from wirespeed import extensions

    text = ARCHITECTURE.read_text(encoding="utf-8")
    assert extensions.GROUPS == ("importers", "checks", "charts", "collectors", "site_checks")
    for g in extensions.GROUP_SPECS:
        assert g.name in text, g.name
        assert (ROOT / g.builtins).is_dir(), g.builtins
        assert g.summary and g.contract.startswith("wirespeed.")
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    declared = set(re.findall(r'^\[project\.entry-points\."wirespeed\.([a-z_]+)"\]', pyproject, re.M)) - {"collector_hooks"}
    assert declared == set(extensions.GROUPS)


def test_every_installed_plugin_fulfils_its_contract():
    from wirespeed import extensions
    from wirespeed.importers.contract import Importer

    for name, obj in extensions.registry("importers").items():
        assert isinstance(obj, Importer), name
    for group in ("checks", "charts", "collectors", "site_checks"):
        plugins = extensions.registry(group)
        assert plugins, group
        for name, obj in plugins.items():
            assert callable(obj) and (obj.__doc__ or "").strip(), f"{group}/{name}: a callable with a one-line docstring"
    for name, run in extensions.registry("collectors").items():
        params = inspect.signature(run).parameters
        assert list(params)[:2] == ["out_dir", "slug"] and "progress" in params, name


def test_presentation_never_computes_a_line_rate(tmp_path, monkeypatch):
    """Tables and charts of every example set are built with the engine's line-rate functions
    disabled: every line rate they print comes from the catalog."""
    from wirespeed.catalog.store import ingest, result_folders
    from wirespeed.catalog.view import histograms, ramps, samples, set_summary
    from wirespeed.engine import derive, linerate
    from wirespeed.presentation.charts import compile_chart
    from wirespeed.presentation.charts import definitions as charts
    from wirespeed.presentation.tables import comparison, latency_percentiles, load, multicast, ramp, results, trial_throughput

    db = tmp_path / "c.duckdb"
    ingest(result_folders(ARCHIVE), db)  # the catalog derives the figures, with the engine

    calls: list[str] = []
    for module in (linerate, derive):
        for fname, fn in inspect.getmembers(module, inspect.isfunction):
            if fn.__module__ == module.__name__:
                def refuse(*a, _name=f"{module.__name__}.{fname}", **k):
                    calls.append(_name)
                    raise AssertionError(f"presentation called {_name}")
                monkeypatch.setattr(module, fname, refuse)

    import duckdb

    con = duckdb.connect(str(db), read_only=True)
    built_tables = built_charts = 0
    slugs = [r[0] for r in con.execute("SELECT slug FROM result_sets ORDER BY slug").fetchall()]
    assert len(slugs) >= 7
    for slug in slugs:
        summary = set_summary(con, slug)
        tests = {t["id"]: t for t in summary["meta"]["tests"]}
        tables = [results.results_table(summary, t) for t in tests]
        tables += [multicast.multicast_table(summary, t) for t in tests]
        tables += [load.load_table(summary, t, m) for t in tests for m in ("latency_min", "latency_avg", "latency_max", "jitter_avg", "jitter_max")]
        tables += [comparison.comparison_table(summary, c) for c in summary["meta"].get("comparisons", [])]
        tables.append(trial_throughput.trial_throughput_table(summary))
        defs = [charts.throughput_chart(summary, t) for t in tests] + [charts.latency_chart(summary, t) for t in tests]
        defs += [charts.load_chart(summary, t, m) for t in tests for m in ("latency_min", "latency_avg", "latency_max")]
        defs += [charts.comparison_chart(summary, c) for c in summary["meta"].get("comparisons", [])]
        rows = samples(con, slug)
        tables.append(ramp.ramp_table(rows, summary))
        for rmp in ramps(rows):
            defs.append(charts.ramp_chart(rmp.points, tests[rmp.test_id], rmp.summary.onset_t_s))
            assert rmp.line_rate_fps is None or rmp.line_rate_fps > 0
        groups: dict[tuple, list] = {}
        for b in histograms(con, slug):
            groups.setdefault((b["test_id"], results.frame_label(b), b["load_pct"], b["variant"]), []).append(b)
        for (test_id, frame, at, variant), buckets in groups.items():
            tables.append(latency_percentiles.histogram_table(buckets, tests[test_id], frame, at, variant))
            defs.append(charts.histogram_chart(buckets, tests[test_id], frame, at, variant))
        built_tables += sum(t is not None for t in tables)
        for d in filter(None, defs):
            compile_chart(d)
            built_charts += 1
    con.close()
    assert not calls
    assert built_tables > 20 and built_charts > 20, (built_tables, built_charts)


@pytest.mark.parametrize("path", ["README.md", "CONTRIBUTING.md", "docs/architecture.md", "docs/security.md"])
def test_paths_named_in_the_docs_exist(path):
    """A doc that names a module of the package names one that exists (the layout moved many)."""
    text = (ROOT / path).read_text(encoding="utf-8")
    missing = sorted({m for m in re.findall(r"`(wirespeed/[\w/]+(?:\.py|/))`", text) if not (ROOT / m).exists()})
    assert not missing, missing


def test_readme_links_the_architecture_page():
    assert "docs/architecture.md" in (ROOT / "README.md").read_text(encoding="utf-8")
    assert Path(ARCHITECTURE).is_file()


_OFFERED_RATE = re.compile(r"(/\s*100\s*\*\s*[\w.]*line_rate|line_rate\w*\s*\*\s*[\w.()\[\]\"']*load|load\w*[\w.()\[\]\"']*\s*/\s*100\s*\*)")


def test_offered_rate_has_one_owner():
    """load × line rate is written once, in the engine; the catalog stores what the engine computes."""
    owners = sorted(p.relative_to(PACKAGE).as_posix() for p in PACKAGE.rglob("*.py") if _OFFERED_RATE.search(p.read_text(encoding="utf-8")))
    assert owners == ["engine/derive.py"], owners
    from wirespeed.catalog import store

    assert "offered_from_load" in inspect.getsource(store)


def test_charts_and_headlines_take_their_decimals_from_the_one_rule():
    """Chart labels, the overview and the headline cards never fix a number of decimals themselves:
    they ask formatting.derived_decimals (or print the results table's own cells)."""
    fixed = re.compile(r"formatting\.derived\(.*,\s*[1-9]\)")
    files = [*(PACKAGE / "presentation" / "charts").glob("*.py"), PACKAGE / "presentation" / "overview.py",
             PACKAGE / "presentation" / "headlines.py", PACKAGE / "report" / "headlines.py"]
    offenders = [f"{p.name}:{n}" for p in files for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1) if fixed.search(line)]
    assert not offenders, offenders
    assert "derived_decimals" in (PACKAGE / "presentation" / "charts" / "definitions.py").read_text(encoding="utf-8")


def test_methodology_is_merged_once_and_printed_from_the_exported_rows():
    """The set's methodology merged with a test's overrides in one function (resultset/methodology.py);
    the Hugo partial and the PDF print the exported rows and merge or word nothing themselves."""
    merge = re.compile(r"\{\*\*[^{}\n]*,\s*\*\*[^{}\n]*methodology")
    offenders = sorted(p.relative_to(PACKAGE).as_posix() for p in PACKAGE.rglob("*.py") if merge.search(p.read_text(encoding="utf-8")))
    assert not offenders, offenders
    partial = (ROOT / "layouts" / "_partials" / "result-methodology.html").read_text(encoding="utf-8")
    assert "merge (" not in partial and "merge(" not in partial and "$m." not in partial and "$t.methodology_rows" in partial
    from wirespeed.presentation import methodology
    from wirespeed.resultset.methodology import merged
    from wirespeed.report import structure as report

    m = merged({"trials": 3, "trial_duration_s": 60, "throughput_load_pct": 100, "search": "binary", "notes": "set"},
               {"trial_duration_s": 30.0, "frame_sizes": [64, 1518], "frame_size_convention": "ethernet-frame"})
    rows = methodology.rows(m)
    assert [(r["label"], r["text"], r["note"]) for r in rows] == [
        ("Rate search", "binary search", ""), ("Trial duration", "30 s × 3 trials", ""),
        ("Frame sizes", "64, 1518 bytes", "Ethernet frames incl. FCS"), ("Throughput load", "100 % of line rate", "")]
    table = next(b for b in report.methodology_blocks({"methodology": m, "tests": [], "methodology_rows": rows}) if b["t"] == "Table")
    printed = json.dumps(table, ensure_ascii=False)
    for r in rows:  # the PDF prints the web's labels and texts, word for word
        for word in f"{r['label']} {r['text']}".split():
            assert f'"{word}"' in printed, word
    source = inspect.getsource(report)
    assert "throughput_load_pct" not in source and "declared at" not in source


def test_item_lists_are_exported_once_and_printed_by_the_web_and_the_pdf():
    """Which tables and charts a test shows, and the loose ones of a set, come from the site data
    (site/data.py); no Hugo template recomputes them from the set's tables and charts."""
    layouts = ROOT / "layouts"
    recomputing = sorted(p.relative_to(layouts).as_posix() for p in layouts.rglob("*.html")
                         if re.search(r"range \$\w+, \$\w+ := \$s\.(tables|charts)", p.read_text(encoding="utf-8")))
    assert not recomputing, recomputing
    assert "$s.other_tables" in (layouts / "results" / "result-set.html").read_text(encoding="utf-8")
    assert "$t.tables" in (layouts / "_partials" / "result-test-body.html").read_text(encoding="utf-8")
    from wirespeed.report import structure as report

    source = inspect.getsource(report.generated_blocks)
    assert 'd["other_tables"]' in source and 't["tables"]' in source


def test_test_bed_rows_are_worded_once_for_the_web_and_the_pdf():
    """The test bed's rows come from presentation/testbed.py through the site data; the Hugo partial
    and the PDF appendix print them and word no device, instrument or software row themselves."""
    from wirespeed.presentation import testbed
    from wirespeed.report import testbed as report_testbed

    partial = (ROOT / "layouts" / "_partials" / "result-meta.html").read_text(encoding="utf-8")
    assert "$s.testbed_rows" in partial and "$s.dut" not in partial and "$s.instrument" not in partial
    source = inspect.getsource(report_testbed.testbed_blocks)
    assert 'd["testbed_rows"]' in source and '"Instrument' not in source and '"Device under test"' not in source
    rows = testbed.rows({"vendor": "V", "model": "M", "software": [{"name": "OS", "version": "1.2"}]},
                        {"vendor": "I", "product": "P", "modules": ["m1", "m2"]}, {"start": "2022-02", "location": "lab"})
    assert [(r["label"], r["text"], r["note"]) for r in rows] == [
        ("Device under test", "V M", ""), ("DUT software", "OS 1.2", ""), ("Test instrument", "I P", "with m1, m2"), ("Tested", "February 2022, lab", "")]
    table = next(b for b in report_testbed.testbed_blocks({"testbed_rows": rows, "versions": []}, ROOT) if b["t"] == "DefinitionList")
    printed = json.dumps(table, ensure_ascii=False)
    for r in rows:
        for word in (f"{r['label']} {r['text']}" + (f" ({r['note']})" if r["note"] else "")).split():
            assert f'"{word}"' in printed, word


def test_a_step_that_draws_charts_keys_on_every_registered_chart_type():
    """Chart types are found by entry point (registry("charts")), never imported by name: the code part of a chart's
    cache key still covers each of them, so a change to the trend chart's code redraws the trend charts."""
    from importlib.metadata import entry_points

    from wirespeed.system.codehash import code_closure

    closure = code_closure("import wirespeed.analysis.outputs")
    registered = {ep.module for ep in entry_points(group="wirespeed.charts")}
    assert "wirespeed.presentation.charts.trend" in registered
    assert registered <= set(closure), sorted(registered - set(closure))
    assert "wirespeed.presentation.charts.trend" not in code_closure("import wirespeed.engine.units")


def test_the_code_closure_sees_an_import_wherever_it_is_written():
    """Read without importing: a late import in a function, in a with, try or match block, a loop's else and an
    except handler all count; one under `if TYPE_CHECKING:` does not, its else does; a registry call in an expression
    counts its group's plugins."""
    from wirespeed.system.codehash import _imports, _module_file

    source = """
from typing import TYPE_CHECKING
if TYPE_CHECKING:
    import wirespeed.engine.units
else:
    import wirespeed.engine.figures
def f(x):
    with open(x):
        for _ in x:
            pass
        else:
            import wirespeed.engine.linerate
    try:
        pass
    except ImportError:
        from wirespeed.engine import rfc2544
    finally:
        import wirespeed.engine.rfc2889
    match x:
        case 1:
            import wirespeed.engine.ramp
"""
    found = _imports(source)
    assert {"wirespeed.engine.figures", "wirespeed.engine.linerate", "wirespeed.engine.rfc2544", "wirespeed.engine.rfc2889", "wirespeed.engine.ramp"} <= found
    assert "wirespeed.engine.units" not in found
    assert "wirespeed.presentation.charts.trend" in _imports("y = [registry('charts')]")
    assert _module_file("wirespeed") == ROOT / "wirespeed" / "__init__.py"
    assert _module_file("wirespeed.engine") == ROOT / "wirespeed" / "engine" / "__init__.py"
    assert _module_file("wirespeed.engine.units") == ROOT / "wirespeed" / "engine" / "units.py"
    assert _module_file("wirespeed.engine.units.to_canonical") is None and _module_file("wirespeed.no_such_module") is None


def test_the_code_closure_remembered_across_processes_is_the_one_parsed(tmp_path):
    """The memo of what each module imports (build/cache/imports.json, written at a process's end) gives the closure a
    fresh parse gives; an entry is named by its text, so a module whose imports change is parsed again; a memo file
    that is not one is ignored. Each run in a process of its own, as the steps of a build do."""
    import subprocess
    import sys

    memo = tmp_path / "build" / "cache" / "imports.json"
    (tmp_path / "build").mkdir()
    ask = ("import json, sys\nfrom pathlib import Path\nfrom wirespeed.system import codehash\n"
           "if sys.argv[1] != '-': codehash.remember_in(Path(sys.argv[1]))\n"
           "print(json.dumps(codehash.code_closure(sys.argv[2])))")

    def closure(memo_arg: str, source: str) -> dict:
        proc = subprocess.run([sys.executable, "-c", ask, memo_arg, source], capture_output=True, text=True, cwd=ROOT, check=True)
        return json.loads(proc.stdout)

    source = "import wirespeed.analysis.outputs\nimport wirespeed.site.data"
    parsed = closure("-", source)
    assert not memo.exists()
    assert closure(str(memo), source) == parsed and memo.is_file()
    entries = json.loads(memo.read_text())
    assert len(entries) >= len(parsed)
    assert closure(str(memo), source) == parsed  # from the memo
    # an entry for another text never answers for this one: a module importing more is parsed, not looked up
    extra = next(m for m in ("wirespeed.collectors.trex_tape", "wirespeed.sitecheck", "wirespeed.capture.scan") if m not in parsed)
    assert extra in closure(str(memo), f"{source}\nimport {extra}")
    assert extra not in closure(str(memo), source)
    memo.write_text("[1, 2")
    assert closure(str(memo), source) == parsed
    kept = json.loads(memo.read_text())
    assert isinstance(kept, dict) and kept  # rewritten whole
    # bounded: past its limit the memo keeps only what the last process used
    from wirespeed.system.codehash import MEMO_ENTRIES

    memo.write_text(json.dumps({**{f"{i:064x}": [[], []] for i in range(MEMO_ENTRIES + 1)}, **kept}))
    assert closure(str(memo), source + "\nimport wirespeed.engine.units") == closure("-", source + "\nimport wirespeed.engine.units")
    bounded = json.loads(memo.read_text())
    assert len(bounded) <= len(kept) + 1 and f"{0:064x}" not in bounded and f"{MEMO_ENTRIES:064x}" not in bounded
    assert closure(str(memo), source) == parsed
