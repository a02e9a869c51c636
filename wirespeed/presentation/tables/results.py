"""Table kind: the results of one test per frame size, and the rules every table kind shares (which
figure a cell shows, column units, row order, labels). Built from the catalog: what the notebooks emit
and the site and PDF print.

Every cell is either a published figure (its printed digits, its unit) or an engine-derived one
(marked derived); a published figure that disagrees with its recomputation carries a flag, as does a standard
deviation of searches that are bounds (SPREAD_OF_BOUNDS).
"""

from __future__ import annotations

from typing import Any

from wirespeed.catalog.headline_choice import statistic
from wirespeed.engine import number_style

from wirespeed.engine import qualified
from wirespeed.engine.columns import METRICS
from wirespeed.engine.units import UNITS
from wirespeed.presentation.formatting import derived_decimals
from wirespeed.resultset.methodology import merged
from wirespeed.presentation.tables.model import Cell, Column, ResultTable

# Derived figures available per measurement row (summary rows carry them from the `derived` table).
DERIVED_FIELDS = {
    "throughput": "throughput_fps",
    "throughput_l1": "throughput_l1_bps",
    "throughput_l2": "throughput_l2_bps",
    "throughput_line_rate": "throughput_pct_line_rate",
    "throughput_max_theoretical": "throughput_pct_max_theoretical",
    "line_rate": "line_rate_fps",
    "lost": "lost_frames",
    "loss": "loss_pct",
}
FLAGGED_RULES = ("throughput-above-line-rate", "latency-order")
# A standard deviation published beside a throughput that is a bound (searches stopped by the generator: ≥) is the
# spread of where the searches stopped, not of the device's throughput: flagged with these words, not left to read as
# the device's repeatability ("std. dev. 0" under three searches that each reached the generator's 2,000 frames/s).
SPREAD_OF_BOUNDS = "a standard deviation of bounds: the spread of where the searches stopped, not of the device's throughput"
SPREAD_OF_BOUNDS_NOTE = "A flagged standard deviation is one of bounds, not of measured values."
DISAGREES_NOTE = "A flagged figure disagrees with its recomputation beyond the published rounding."
LINE_RATE = ("line_rate", "frame_rate", "Line rate", "Theoretical maximum frame rate of the ports (aggregate).")
ORDER = ["throughput", "throughput_l1", "throughput_l2", "throughput_line_rate", "throughput_max_theoretical", "throughput_upper", "throughput_upper_l1", "throughput_min", "throughput_max", "throughput_stdev",
         "offered_rate", "offered_l1", "forwarding_rate", "tx_rate", "rx_rate", "tx_l1", "rx_l1", "tx_l2", "rx_l2", "goodput", "transaction_rate",
         "latency_min", "latency_avg", "latency_max", "latency_p50", "latency_p90", "latency_p99", "latency_p99_9", "latency_p99_99",
         "jitter_avg", "jitter_max", "interarrival_jitter", "ipdv_avg", "ipdv_max", "rtt_min", "rtt_avg", "rtt_p50", "rtt_p90", "rtt_p99", "rtt_max", "cwnd", "retransmits",
         "tx", "rx", "lost", "loss", "out_of_sequence", "reordered", "duplicate", "back_to_back", "failover_time", "cpu_peak", "cpu_avg", "power", "voltage", "current", "duration"]


def metric_label(metric: str) -> str:
    if metric == "line_rate":
        return LINE_RATE[2]
    return METRICS[metric].label


def _dimension(metric: str) -> str:
    return LINE_RATE[1] if metric == "line_rate" else METRICS[metric].dimension


def machine_unit(summary: dict[str, Any], cell: dict[str, Any]) -> str | None:
    """The unit of a published cell that a machine wrote (an imported tool's or a collector's number, not a figure a lab
    printed), for number_style.published to print it by the number rule; None for a transcribed figure, which keeps its digits."""
    return cell.get("unit") if (summary.get("meta") or {}).get("source", {}).get("kind") in ("imported", "measured") else None


def frame_label(row: dict[str, Any]) -> str:
    fs = row.get("frame_size")
    return str(fs) if fs is not None else (row.get("imix") or "")


def _frame_sort(row: dict[str, Any]) -> tuple:
    fs = row.get("frame_size")
    return (0, fs, "") if fs is not None else (1, 0, row.get("imix") or "")


def _test_meta(summary: dict[str, Any], test_id: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """The test's declaration and its methodology merged over the set's defaults."""
    meta = next(t for t in summary["meta"]["tests"] if t["id"] == test_id)
    return meta, merged(summary["meta"].get("methodology"), meta.get("methodology"))


def _row_order(summary: dict[str, Any], test_id: str):
    """Sort key for rows: declared frame-size order, declared variant order, then load and trial."""
    meta, method = _test_meta(summary, test_id)
    sizes = [str(s) for s in method.get("frame_sizes", [])]
    variants = list((meta.get("variants") or {}).keys())

    components = list(dict.fromkeys(r.get("component") for r in summary["rows"] if r["test_id"] == test_id))  # file order

    def key(r: dict[str, Any]) -> tuple:
        label = frame_label(r)
        fpos = sizes.index(label) if label in sizes else (-1 if not label else len(sizes))
        v = r.get("variant")
        vpos = variants.index(v) if v in variants else (-1 if v is None else len(variants))
        return (fpos, _frame_sort(r), vpos, components.index(r.get("component")), r.get("load_pct") or 0, r.get("trial") or 0)

    return key


DIRECTION_ORDER = {"unidirectional": 0, "bidirectional": 1}


class _Builder:
    """Collects raw per-column values, then formats each column consistently."""

    def __init__(self, summary: dict[str, Any]):
        self.summary = summary
        self.agree = {(a["row_id"], a["metric"]): a for a in summary["agreements"]}
        # findings about a published cell (e.g. a rate above line rate), acknowledged errata included
        self.findings = {(f["file"], f["line"], f["field"]): f["message"].split(" — erratum:")[0].split(" — known measurement artefact:")[0]
                         for f in summary["findings"] if f["line"] and f["rule"] in FLAGGED_RULES}

    def raw(self, row: dict[str, Any], metric: str) -> dict[str, Any] | None:
        """The published cell of a metric, else the engine's derived value; None if neither."""
        cell = row["cells"].get(metric)
        if cell is not None:
            a = self.agree.get((row["row_id"], metric))
            flag = self.findings.get((row["file"], row["line"], metric))
            if a is not None and not a["agree"]:
                flag = f"recomputed {a['recomputed_text']} {a['unit_symbol']} ({a['basis']})"
            if flag is None and metric == "throughput_stdev" and qualified.throughput_bound(row):
                flag = SPREAD_OF_BOUNDS
            return {"published": True, "text": cell["text"], "qualifier": cell["qualifier"], "unit": cell["unit"], "value": cell["value"], "flag": flag,
                    "machine": machine_unit(self.summary, cell), "source": (row["row_id"], metric)}
        fieldname = DERIVED_FIELDS.get(metric)
        if fieldname and row.get(fieldname) is not None:
            return {"published": False, "value": row[fieldname], "qualified": qualified.of_derived(row, metric), "source": (row["row_id"], metric)}
        return None

    def format_column(self, metric: str, raws: list[dict[str, Any] | None], unit_hint: str | None = None) -> tuple[str, bool, list[Cell]]:
        """Unit symbol, derived?, and cells of one column (in `unit_hint`'s unit when given, a unit name or symbol)."""
        present = [r for r in raws if r is not None]
        published_units = [r["unit"] for r in present if r["published"]]
        derived_only = not published_units
        dim = _dimension(metric)
        hint = next((u.name for u in UNITS.values() if unit_hint in (u.name, u.symbol) and u.dimension == dim), None) if unit_hint else None
        if hint and not published_units:
            unit = hint
        elif published_units:
            unit = max(set(published_units), key=published_units.count)
        else:
            unit = number_style.pick_unit(dim, [r["value"] for r in present])
        factor = float(UNITS[unit].factor)
        cells = []
        for r in raws:
            if r is None:
                cells.append(Cell("", None))
            elif r["published"] and r["unit"] == unit:
                cells.append(Cell(number_style.published(r["text"], r["qualifier"], r.get("machine")), r["value"] / factor, r["flag"], source=r["source"]))
            elif r["published"]:  # same metric printed in another unit in this column: convert, keep qualifier and digits
                cells.append(Cell(qualified.published_converted(r["value"] / factor, r), r["value"] / factor, r["flag"], source=r["source"]))
            else:  # engine-derived: its inputs' qualifier and significance (wirespeed.engine.qualified)
                q = r.get("qualified") or qualified.Qualified()
                shown = r["value"] / factor  # the number rule per figure: one value, one text in every table, card and sentence
                cells.append(Cell(qualified.text(shown, q, derived_decimals(metric, [shown])), shown, None, True, r["source"]))
        return UNITS[unit].symbol, derived_only, cells


def column_texts(summary: dict[str, Any], metric: str, rows: list[dict[str, Any]], unit_hint: str | None = None) -> tuple[str, list[str]]:
    """Unit symbol and printed cells of one metric over `rows`, exactly as a results table prints that column."""
    b = _Builder(summary)
    unit, _, cells = b.format_column(metric, [b.raw(r, metric) for r in rows], unit_hint)
    return unit, [c.text for c in cells]


def _throughput_rows(summary: dict[str, Any], test_id: str) -> list[dict[str, Any]]:
    """Rows of a test at its throughput rate: no load given, or the highest load of the row's frame size."""
    rows = [r for r in summary["rows"] if r["test_id"] == test_id]
    best: dict[tuple, float] = {}
    for r in rows:
        if r["load_pct"] is not None:
            key = (r["frame_size"], r["imix"], r["direction"], r["variant"], r["component"], r.get("port"), r["trial"])
            best[key] = max(best.get(key, 0.0), r["load_pct"])
    out = []
    for r in rows:
        key = (r["frame_size"], r["imix"], r["direction"], r["variant"], r["component"], r.get("port"), r["trial"])
        # trial rows are a search over rates: every rate tried belongs in the table
        if r["load_pct"] is None or r["load_pct"] == best.get(key) or r["trial"] is not None:
            out.append(r)
    return out


def results_tables(summary: dict[str, Any], test_id: str) -> list[ResultTable]:
    """The results of one test: one table, or two when its rows are of two kinds that share no column — throughput
    rows (a search's bounds and their spread) and trials at fixed loads without a throughput (latency trials) — so
    that no row is blank in the other kind's columns."""
    rows = _throughput_rows(summary, test_id)
    searched = [r for r in rows if r.get("throughput_fps") is not None]
    fixed = [r for r in rows if r.get("throughput_fps") is None]
    if searched and fixed and not any(set(a["cells"]) & set(b["cells"]) for a in searched for b in fixed):
        parts = [results_table(summary, test_id, searched), results_table(summary, test_id, fixed, "fixed-load", "trials at fixed loads")]
    else:
        parts = [results_table(summary, test_id)]
    return [t for t in parts if t is not None]


def results_table(summary: dict[str, Any], test_id: str, rows: list[dict[str, Any]] | None = None, part: str = "results",
                  what: str = "results") -> ResultTable | None:
    """Throughput, bit rates, share of line rate, latency and the rest per frame size of one test (or of `rows` of it).

    Several directions (or device components) become column groups side by side.
    """
    test = next(t for t in summary["tests"] if t["test_id"] == test_id)
    rows = _throughput_rows(summary, test_id) if rows is None else rows
    if not rows:
        return None
    b = _Builder(summary)
    # directions, or a few components (a processor and its route processor) or ports (NFVbench's run and its two port
    # directions), side by side; many components or ports (a Spirent test's stream blocks) are rows
    pivot = next((k for k in ("direction", "component", "port") if 1 < len({r.get(k) for r in rows}) <= (99 if k == "direction" else 3)), None)
    if pivot == "direction":
        pivot_values = sorted({r[pivot] for r in rows}, key=lambda v: DIRECTION_ORDER.get(v, 2))
    elif pivot:
        pivot_values = list(dict.fromkeys(r[pivot] for r in rows))
    else:
        pivot_values = [None]
    key_names = [k for k in ("frame_size", "variant", "component", "port", "load_pct", "trial") if k != pivot and len({str(r.get(k)) for r in rows}) > 1 or (k == "frame_size" and any(r.get("frame_size") is not None or r.get("imix") for r in rows))]
    if pivot == "port" and not key_names:  # the ports side by side would be one row (iperf3's two directions): a row a port instead
        pivot, pivot_values, key_names = None, [None], ["port"]
    published = [m for m in ORDER if any(m in r["cells"] for r in rows)]
    metrics = list(published)
    if any(r.get("loss_pct") is not None for r in rows):
        for extra in ("lost", "loss"):
            if extra not in metrics:
                metrics.append(extra)
    has_tp = any(r.get("throughput_fps") is not None for r in rows)
    if has_tp:
        for extra in ("throughput", "throughput_line_rate"):
            if extra not in metrics:
                metrics.append(extra)
        if "throughput_l1" not in metrics and "throughput_l2" not in metrics:
            metrics.append(set_layer(summary))
        if any(r.get("line_rate_fps") is not None and r.get("max_theoretical_fps") is not None and r["max_theoretical_fps"] < r["line_rate_fps"] for r in rows) and "throughput_max_theoretical" not in metrics:
            metrics.append("throughput_max_theoretical")
        metrics.append("line_rate")
    metrics = sorted(metrics, key=lambda m: ORDER.index(m) if m in ORDER else len(ORDER))
    groups: dict[tuple, dict[Any, dict[str, Any]]] = {}
    for r in sorted(rows, key=_row_order(summary, test_id)):
        key = tuple(frame_label(r) if k == "frame_size" else r.get(k) for k in key_names)
        groups.setdefault(key, {})[r[pivot] if pivot else None] = r
    columns = [_key_column(k, summary, test_id) for k in key_names]
    body_cols: list[list[Cell]] = []
    for pv in pivot_values:
        tp_unit = None
        for metric in metrics:
            raws = [b.raw(g[pv], metric) if pv in g else None for g in groups.values()]
            if all(x is None for x in raws):
                continue
            unit, derived_only, cells = b.format_column(metric, raws, tp_unit if metric == "line_rate" else None)
            if metric == "throughput":
                tp_unit = unit
            group = (str(pv).capitalize() if pivot == "direction" else _port(pv) if pivot == "port" else str(pv)) if pv is not None else ("All ports" if pivot == "port" else "")
            columns.append(Column(f"{metric}{'.' + str(pv) if pv else ''}", media_label(metric, test), unit, group, derived_only))
            body_cols.append(cells)
    summaries = _summary_rows(key_names, groups)
    table_rows = []
    for i, key in enumerate(groups):
        cells = [Cell(summaries.get(key, "") if k == "trial" and v is None else _key_text(k, v), v) for k, v in zip(key_names, key)]
        cells += [col[i] for col in body_cols]
        table_rows.append(cells)

    caption = (f"{test['ports']} × {test['port_speed']} ports, {test['topology']}, {test['direction']}" + load_phrase(rows)
               if test.get("scenario") != "power-draw" else "The device's own readings, in the order the source gives them")
    notes = []
    if any(c.derived for c in columns):
        notes.append("Columns marked derived are computed by the wirespeed engine from the published figures; the others are as published.")
    if any(c.derived and not col.derived for r in table_rows for c, col in zip(r, columns)):
        notes.append("Figures marked † are computed by the wirespeed engine where the source does not print them; they carry their inputs' qualifiers (>, <, ≈).")
    flags = {c.flag for r in table_rows for c in r if c.flag}
    if flags - {SPREAD_OF_BOUNDS}:
        notes.append(DISAGREES_NOTE)
    if SPREAD_OF_BOUNDS in flags:
        notes.append(SPREAD_OF_BOUNDS_NOTE)
    return ResultTable(f"{test_id}-{part}", f"{test['title']}: {what}", caption, test_id, columns, table_rows, notes)


def _port(name: Any) -> str:
    """A port column group's title: "Port 1", or the tool's own name when it says it is a port ("Port //1/5 …")."""
    return str(name) if str(name).lower().startswith("port") else f"Port {name}"


def set_layer(summary: dict[str, Any]) -> str:
    """The layer of the bit rates the engine adds to a set's tables: the one its source publishes (L2 when it prints
    only L2 bit rates, else L1), so no two tables or a comparison of one set mix layers."""
    published = {m for r in summary["rows"] for m in r["cells"] if m in ("throughput_l1", "throughput_l2")}
    return "throughput_l2" if published == {"throughput_l2"} else "throughput_l1"


def is_sonet(test: dict[str, Any]) -> bool:
    return str(test.get("port_speed", "")).startswith(("OC-", "STM-"))


def media_label(metric: str, test: dict[str, Any]) -> str:
    """A column label in the media's own terms: on SONET/POS the 'L1' rate is IP packet plus PPP framing in the SONET
    payload (not layer 1), and what is forwarded are packets, not frames."""
    label = metric_label(metric)
    if not is_sonet(test):
        return label
    if metric == "throughput_l1":
        return "Throughput (SONET payload)"
    return label.replace("Frames", "Packets").replace("frames", "packets")


def load_phrase(rows: list[dict[str, Any]]) -> str:
    """What the caption says about offered load, from the rows the table shows (not the first row's)."""
    loads = sorted({r["load_pct"] for r in rows if r.get("load_pct") is not None})
    if not loads:
        return ""
    text = ", ".join(number_style.plain(v) for v in loads)
    if len(loads) == len(rows) or all(r.get("load_pct") is not None for r in rows):
        return f"; at {text} % of line rate"
    return f"; rows without a load at the throughput rate, the others at {text} % of line rate"


def _key_column(key: str, summary: dict[str, Any], test_id: str) -> Column:
    if key == "frame_size":
        test_row = next(t for t in summary["tests"] if t["test_id"] == test_id)
        media = test_row.get("port_speed", "")
        label = "IP packet size" if media.startswith(("OC-", "STM-")) else "Frame size"
        return Column("frame_size", label, "bytes")
    return Column(key, {"variant": "Variant", "component": "Component", "port": "Port", "load_pct": "Load", "trial": "Trial"}[key], "%" if key == "load_pct" else "")


def _summary_rows(key_names: list[str], groups: dict[tuple, dict[Any, dict[str, Any]]]) -> dict[tuple, str]:
    """The Trial cell of each row that summarises its trials (no trial number, beside rows with one and the same other
    keys): "mean of 10", "median of 3", or "all 3" when its figure is neither, so that a reader does not take it for
    a trial with no number (CSIT's avg, a search series' mean)."""
    if "trial" not in key_names:
        return {}
    at = key_names.index("trial")
    repeats: dict[tuple, list[dict[str, Any]]] = {}
    for key, by_pivot in groups.items():
        if key[at] is not None:
            repeats.setdefault(key[:at] + key[at + 1:], []).extend(by_pivot.values())
    out = {}
    for key, by_pivot in groups.items():
        trials = repeats.get(key[:at] + key[at + 1:], []) if key[at] is None else []
        n = len({r.get("trial") for r in trials})
        if n < 2:
            continue
        row = next(iter(by_pivot.values()))
        values = [repeated_figure(r) for r in trials if r.get("direction") == row.get("direction")]
        figure = repeated_figure(row)
        stat = statistic(figure, values) if figure is not None and values and None not in values else "summary"
        out[key] = f"{stat} of {n}" if stat != "summary" else f"all {n}"
    return out


REPEATED = ("forwarding_rate", "goodput", "transaction_rate")  # what a test without a throughput repeats over its trials (CSIT's MRR)


def repeated_figure(row: dict[str, Any]) -> float | None:
    """The figure a row's trials repeat, whose mean or median a summary row may be: its throughput, else the first of
    REPEATED it has."""
    if row.get("throughput_fps") is not None:
        return row["throughput_fps"]
    return next((row["cells"][m]["value"] for m in REPEATED if m in row.get("cells", {})), None)


def _key_text(key: str, value: Any) -> str:
    if value is None:
        return "All ports" if key == "port" else ""  # a port key column's row without a port: the whole run's figures
    if key == "load_pct":
        return number_style.plain(value)
    return str(value)
