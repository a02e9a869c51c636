"""The test bed of a result set as rows of label and text (device, components, instrument, software,
when and where): exported once with the site data, printed as they are by the web page (Hugo partial
result-meta.html) and by the PDF report's appendix. `compact` rows are the ones test pages show too."""

from __future__ import annotations

from typing import Any

from wirespeed.engine import dates
from wirespeed.presentation import devicename


def _row(label: str, text: str, note: str = "", compact: bool = True) -> dict[str, Any]:
    return {"label": label, "text": text, "note": note, "compact": compact}


def software_text(items: list[dict[str, Any]]) -> str:
    return "; ".join(f"{s['name']} {s['version']}" for s in items)


def rows(dut: dict[str, Any], instrument: dict[str, Any], campaign: dict[str, Any] | None) -> list[dict[str, Any]]:
    """Rows of a set's test bed: label, text, an optional note printed in parentheses, compact or not."""
    count = int(dut.get("count") or 1)
    out = [_row("Device under test", (f"{count} × " if count > 1 else "") + devicename.full(dut["vendor"], dut["model"]),
                dut["kind"].replace("-", " ") if dut.get("kind") else "")]
    if dut.get("chassis"):
        out.append(_row("Chassis", str(dut["chassis"])))
    out.append(_row("DUT software", software_text(dut["software"]) if dut.get("software") else "version not stated by the source"))
    for c in dut.get("components", []):
        out.append(_row("Component", (f"{c['count']} × " if c.get("count") else "") + c["model"] + (f" — {c['description']}" if c.get("description") else ""),
                        f"{c['ports']} × {c['port_speed']} each" if c.get("ports") else "", compact=False))
    if dut.get("optics"):
        out.append(_row("Optics", ", ".join(dut["optics"]), compact=False))
    notes = [f"with {', '.join(instrument['modules'])}"] if instrument.get("modules") else []
    if instrument.get("timestamp_resolution_ns"):
        notes.append(f"{instrument['timestamp_resolution_ns']} ns timestamps")
    out.append(_row("Test instrument", devicename.full(instrument["vendor"], instrument["product"]), "; ".join(notes)))
    if instrument.get("software"):
        out.append(_row("Instrument software", software_text(instrument["software"])))
    camp = campaign or {}
    when = dates.span(camp.get("start"), camp.get("end"))
    where = ", ".join(x for x in (when, camp.get("location")) if x)
    if where:
        text = where + (f"; engineers: {', '.join(camp['engineers'])}" if camp.get("engineers") else "")
        out.append(_row("Tested", text, str(camp["lab"]) if camp.get("lab") else ""))
    if camp.get("testbed"):  # trending starts a new group where it changes
        out.append(_row("Test bed", str(camp["testbed"])))
    return out


def versions(dut: dict[str, Any], instrument: dict[str, Any]) -> list[dict[str, str]]:
    """The version matrix: every piece of software (and firmware) the set names, on the device under test and on
    the instrument, as rows of where it runs, its name and its version exactly as the source gives it."""
    out = [{"where": f"Device under test ({dut['vendor']} {dut['model']})", "name": s["name"], "version": s["version"]} for s in dut.get("software", [])]
    out += [{"where": f"Test instrument ({devicename.full(instrument['vendor'], instrument['product'])})", "name": s["name"], "version": s["version"]}
            for s in instrument.get("software", [])]
    return out
