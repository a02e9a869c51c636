"""Check: a throughput row reports no loss."""

from __future__ import annotations

from wirespeed.checks import Finding


def check_zero_loss(rs):
    """A row that states a throughput reports no more loss than the test's tolerance (RFC 2544 throughput is loss-free)."""
    for row in rs.measurements():
        if "throughput" not in row.cells or "trial" in row.keys:
            continue
        tol = float(rs.tests[row.test].methodology.get("loss_tolerance_pct", 0))
        lost, loss = row.cells.get("lost"), row.cells.get("loss")
        if lost is not None and lost.canonical.value > 0 and tol == 0:
            yield Finding("zero-loss", row, "lost", f"throughput is stated but {lost.figure.text} frames were lost", "warning")
        elif loss is not None and float(loss.canonical.value) > tol:
            yield Finding("zero-loss", row, "loss", f"throughput is stated but loss is {loss.figure.text} %, above the {tol:g} % tolerance", "warning")
