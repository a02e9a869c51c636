"""Check: rows use the offered loads their test's methodology declares."""

from __future__ import annotations

from wirespeed.checks import Finding


def check_declared_loads(rs):
    """A row's load_pct is one of the test's methodology.offered_loads_pct, when the test declares them."""
    for row in rs.measurements() + rs.histograms():
        load = row.keys.get("load_pct")
        declared = rs.tests[row.test].methodology.get("offered_loads_pct")
        if load is None or not declared:
            continue
        lo, hi = load.interval()
        if any(lo - 1e-9 <= float(d) <= hi + 1e-9 for d in declared):
            continue
        shown = ", ".join(f"{d:g}" for d in declared)
        yield Finding("undeclared-load", row, "load_pct", f"load {load.text} % is not among the test's methodology.offered_loads_pct ({shown}): declare it there or correct the row")
