"""The methodology of a test as rows of label and text: exported once with the site data, printed as
they are by the web page (Hugo partial result-methodology.html) and by the PDF report."""

from __future__ import annotations

from typing import Any

from wirespeed.engine import number_style

CONVENTIONS = {"ethernet-frame": "Ethernet frames incl. FCS", "ip-packet": "IP packets"}
# A rate search in words where its schema name is not one (the others: "binary search", "step search", …)
SEARCHES = {"mlrsearch": "MLRsearch (the rates at several loss ratios in one search, as FD.io CSIT's)"}
# A latency method in words where its schema name is not a reader's (RFC 1242's FIFO, LIFO … are printed as they are)
LATENCY_METHODS = {"one-way-capture": "one-way, from packet captures where each frame enters and leaves the device (one clock)"}


def _n(v: Any) -> str:
    """A number as the TOML wrote it (a whole float without its '.0'), a fraction by the number rule (at most six
    significant digits: an importer's 20.2031862144 % load is printed 20.2032)."""
    if isinstance(v, float):
        return str(int(v)) if v.is_integer() else number_style.plain(v)
    return str(v)


def _row(label: str, text: str, note: str = "") -> dict[str, str]:
    return {"label": label, "text": text, "note": note}


def rows(m: dict[str, Any]) -> list[dict[str, str]]:
    """Rows of a (merged) methodology: label, text, an optional note printed in parentheses."""
    out = []
    if m.get("search"):
        out.append(_row("Rate search", SEARCHES.get(m["search"], f"{m['search'].replace('-', ' ')} search")))
    if m.get("trial_duration_s"):
        trials = m.get("trials")
        out.append(_row("Trial duration", f"{_n(m['trial_duration_s'])} s" + (f" × {_n(trials)} trial{'' if float(trials) == 1.0 else 's'}" if trials else "")))
    elif m.get("trials"):
        out.append(_row("Trials", _n(m["trials"])))
    if m.get("rampup_s") or m.get("hold_s"):
        text = (f"{_n(m['warmup_s'])} s warm-up, " if m.get("warmup_s") else "") + (f"{_n(m['rampup_s'])} s ramp" if m.get("rampup_s") else "")
        text += (f" to {_n(m['ramp_target_pct'])} %" if m.get("ramp_target_pct") else "") + (f", {_n(m['hold_s'])} s hold" if m.get("hold_s") else "")
        out.append(_row("Ramp", text))
    if m.get("frame_sizes"):
        sizes = m["frame_sizes"]
        text = ", ".join(_n(s) for s in sizes) + ("" if any(isinstance(s, str) for s in sizes) else " bytes")
        out.append(_row("Frame sizes", text, CONVENTIONS.get(m.get("frame_size_convention") or "", "")))
    if m.get("imix"):
        out.append(_row("IMIX", "; ".join(f"{x['id']}: {'/'.join(_n(s) for s in x['sizes'])} bytes at {':'.join(_n(w) for w in x['weights'])}"
                                          + (f" ({x['profile']})" if x.get("profile") else "") for x in m["imix"])))
    if m.get("offered_loads_pct"):
        out.append(_row("Offered loads", ", ".join(_n(v) for v in m["offered_loads_pct"]) + " % of line rate"))
    if m.get("throughput_load_pct"):
        out.append(_row("Throughput load", f"{_n(m['throughput_load_pct'])} % of line rate"))
    if "loss_tolerance_pct" in m:
        out.append(_row("Loss tolerance", f"{_n(m['loss_tolerance_pct'])} %"))
    if m.get("latency_method"):
        note = ("with" if m["latency_compensation"] else "no") + " compensation" if "latency_compensation" in m else ""
        out.append(_row("Latency method", LATENCY_METHODS.get(str(m["latency_method"]), str(m["latency_method"])), note))
    return out
