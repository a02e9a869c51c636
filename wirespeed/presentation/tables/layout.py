"""How a table is laid out, chosen by its shape alone, so that the web page and the PDF make the same choice:
whole; split by metric into parts that each start with the key columns (a table of many columns); or
transposed, its columns becoming rows (a table of one to three rows and many columns).

Exported with each table (site data `layout`) and read by the web table's renderer (site/table_html.py, whose HTML the
Hugo partial result-table.html prints) and the PDF report (report/shortcodes.py); the PDF may still print a part in pieces when even that part is too wide for
its page (report/tablefit.column_parts), never in a smaller type than 7 pt.
"""

from __future__ import annotations

from typing import Any

from wirespeed.engine.columns import METRICS

# Columns that name a row rather than measure it: after the first column, those that lead the table.
KEY_COLUMNS = ("frame_size", "variant", "component", "port", "direction", "test", "trial", "load_pct", "percentile", "contender")
MOST_COLUMNS = 10  # a table of more columns than this is split by metric …
PART_COLUMNS = 8  # … into parts of at most this many measurement columns besides the keys (a table of few rows transposes instead)
TRANSPOSE_ROWS = 3  # a table of at most this many rows …
TRANSPOSE_COLUMNS = 6  # … and at least this many columns is transposed

# The metric families a split keeps together (the first that a column's metric matches names its family).
FAMILIES = (
    ("Spread over the trials", ("throughput_upper", "throughput_min", "throughput_max", "throughput_stdev")),
    ("Rates", ("throughput", "offered", "forwarding", "tx_rate", "rx_rate", "tx_l1", "rx_l1", "tx_l2", "rx_l2", "goodput", "transaction", "line_rate",
               "max_tx", "max_rx", "lossless", "onset_offered", "limit", "peak_rx", "aggregate", "per_receiver", "port_line_rate", "replication")),
    ("Latency", ("latency", "rtt", "onset_t")),
    ("Jitter", ("jitter", "interarrival", "ipdv")),
    ("Frames and loss", ("tx", "rx", "lost", "loss", "out_of_sequence", "reordered", "duplicate", "back_to_back", "duration", "samples")),
)
OTHER = "Other figures"
EMPTY = ("", "—", "–", "-")  # a cell that holds no figure


def key_count(columns: list[dict[str, Any]]) -> int:
    """How many leading columns name the row: the first, then any key column that follows it; none when the first is
    itself a figure (a table pivoted by port or stream whose one row has no name: a Spirent stream table)."""
    if not columns or columns[0]["key"].split(".")[0] in METRICS:
        return 0
    n = 1
    while n < len(columns) and columns[n]["key"].split(".")[0] in KEY_COLUMNS:
        n += 1
    return min(n, len(columns))


NO_KEY_HEAD = "Figure"  # a transposed table without key columns: the head of its column of labels


def transposed_heads(rows: list[list[str]], keys: int) -> list[str]:
    """The head of each original row's column in a transposed table: its key cells, or, without key columns, "Value"
    (one row) or "Row N"."""
    if keys:
        return [" · ".join(str(row[c]) for c in range(keys) if c < len(row) and row[c]) for row in rows]
    return ["Value"] if len(rows) == 1 else [f"Row {r + 1}" for r in range(len(rows))]


def family(key: str) -> str:
    """The metric family of a column key ("throughput_l1", "latency_avg.fabric-vss"): the name a split part takes."""
    metric = key.split(".")[0]
    for name, prefixes in FAMILIES:
        if any(metric == p or metric.startswith(p + "_") for p in prefixes):
            return name
    return OTHER


def _runs(columns: list[dict[str, Any]], start: int) -> list[tuple[str, list[int]]]:
    """The measurement columns by header group (a pivoted table), else by metric family, in the order they first appear."""
    grouped = any(c.get("group") for c in columns[start:])
    runs: dict[str, list[int]] = {}
    for i in range(start, len(columns)):
        name = columns[i].get("group") or (columns[i]["label"] if grouped else family(columns[i]["key"]))
        runs.setdefault(name, []).append(i)
    return list(runs.items())


def _pieces(name: str, idx: list[int]) -> list[tuple[str, list[int]]]:
    """A run longer than a part, cut into even pieces of at most PART_COLUMNS."""
    if len(idx) <= PART_COLUMNS:
        return [(name, idx)]
    n = -(-len(idx) // PART_COLUMNS)
    size = -(-len(idx) // n)
    return [(f"{name} ({k + 1} of {n})", idx[a:a + size]) for k, a in enumerate(range(0, len(idx), size))]


def layout(columns: list[dict[str, Any]], rows: list[list[str]]) -> dict[str, Any]:
    """The layout of a table: {"kind": "whole" | "split" | "transposed", "keys": leading key columns,
    "parts": [{"title", "columns": [column indices, keys first], "rows": [row indices, split parts only]}]}
    (one part unless split; a split part lists only the rows with a figure among its columns)."""
    n, keys = len(columns), key_count(columns)
    whole = {"kind": "whole", "keys": keys, "parts": [{"title": "", "columns": list(range(n))}]}
    if 1 <= len(rows) <= TRANSPOSE_ROWS and n >= TRANSPOSE_COLUMNS:
        return {**whole, "kind": "transposed"}
    if n > MOST_COLUMNS and keys == 1 and len(rows) + 1 <= MOST_COLUMNS:  # few rows of many figures: a column per row
        return {**whole, "kind": "transposed"}
    if n <= MOST_COLUMNS or n - keys < 2:
        return whole
    parts: list[tuple[str, list[int]]] = []
    for name, idx in (p for run in _runs(columns, keys) for p in _pieces(*run)):
        if parts and len(parts[-1][1]) + len(idx) <= PART_COLUMNS:  # small neighbours share a part
            parts[-1] = (f"{parts[-1][0]}; {name}", parts[-1][1] + idx)
        else:
            parts.append((name, idx))
    if len(parts) < 2:
        return whole
    out = []
    for name, idx in parts:  # each part prints the rows that have a figure in it
        shown = [r for r, row in enumerate(rows) if any(i < len(row) and str(row[i]).strip() not in EMPTY for i in idx)]
        if shown:
            out.append({"title": name, "columns": list(range(keys)) + idx, "rows": shown})
    return {"kind": "split", "keys": keys, "parts": out}
