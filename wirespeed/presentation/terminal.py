"""Rendering a result set summary for the terminal (`wirespeed show`)."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.table import Table

from wirespeed.engine import dates

from wirespeed.engine import number_style
from wirespeed.engine.columns import METRICS
from wirespeed.presentation import devicename

KEY_COLUMNS = (("frame_size", "Frame"), ("load_pct", "Load %"), ("direction", "Direction"), ("variant", "Variant"), ("trial", "Trial"), ("component", "Component"))


def _key_text(row: dict[str, Any], key: str) -> str:
    if key == "frame_size":
        return str(row["frame_size"] if row["frame_size"] is not None else (row["imix"] or ""))
    v = row.get(key)
    if v is None:
        return ""
    return f"{v:g}" if isinstance(v, float) else str(v)


def render(summary: dict[str, Any], console: Console) -> None:
    """Print metadata, one table per test, and the list of disagreements."""
    m = summary["meta"]
    src, dut, inst = m["source"], m["dut"], m["instrument"]
    console.print(f"[bold]{m['title']}[/bold]  ({summary['slug']}, status {m['status']})")
    sw = "; ".join(f"{s['name']} {s['version']}" for s in dut.get("software", [])) or "software version not stated"
    console.print(f"DUT: {dut['vendor']} {dut['model']} — {sw}", markup=False)
    isw = "; ".join(f"{s['name']} {s['version']}" for s in inst.get("software", []))
    console.print(f"Instrument: {devicename.full(inst['vendor'], inst['product'])}" + (f" — {isw}" if isw else ""), markup=False)
    console.print(f"Source: {src['publisher']}, {src.get('document', '')} ({dates.text(src.get('published'))}), {src['kind']}", markup=False)
    agree = {(a["row_id"], a["metric"]): a for a in summary["agreements"]}
    for test in summary["tests"]:
        rows = [r for r in summary["rows"] if r["test_id"] == test["test_id"]]
        if not rows:
            continue
        metrics = [k for k in METRICS if any(k in r["cells"] for r in rows)]
        keys = [(k, label) for k, label in KEY_COLUMNS if any(_key_text(r, k) for r in rows)]
        table = Table(title=f"{test['test_id']}: {test['title']} — RFC {', '.join(test['rfc'])}, {test['ports']} × {test['port_speed']}, {test['topology']}, {test['direction']}",
                      title_justify="left", show_lines=False, header_style="bold")
        for _, label in keys:
            table.add_column(label)
        units = {}
        for metric in metrics:
            unit = next(r["cells"][metric]["unit_symbol"] for r in rows if metric in r["cells"])
            units[metric] = unit
            table.add_column(f"{METRICS[metric].label} ({unit})", justify="right")
        table.add_column("Line rate (frames/s)", justify="right")
        for r in rows:
            cells = [_key_text(r, k) for k, _ in keys]
            for metric in metrics:
                c = r["cells"].get(metric)
                if c is None:
                    cells.append("")
                    continue
                a = agree.get((r["row_id"], metric))
                text = number_style.published(c["text"], c["qualifier"])  # the same digits, qualifier and separators as the page
                if a is not None:
                    text += f" [{'green' if a['agree'] else 'red'}]({a['recomputed_text']} {'✓' if a['agree'] else '✗'})[/]"
                cells.append(text)
            cells.append(f"{r['line_rate_fps']:,.0f}" if r["line_rate_fps"] else "")
            table.add_row(*cells)
        console.print(table)
    bad = [a for a in summary["agreements"] if not a["agree"]]
    console.print(f"{len(summary['agreements'])} published derived figures recomputed: {len(summary['agreements']) - len(bad)} agree, {len(bad)} disagree.")
    for a in bad:
        console.print(f"  ✗ {a['where']}: {a['metric']} published {a['published']}, recomputed {a['recomputed_text']} {a['unit_symbol']} ({a['basis']})", markup=False)
    for f in summary["findings"]:
        if f["rule"] != "published-figure-mismatch":
            where = f"{f['file']}:{f['line']}" if f["line"] else f["file"]
            console.print(f"  {'✗ ' if f['severity'] != 'warning' else ''}{f['severity']}: {where}: {f['message']} [{f['rule']}]", markup=False)
