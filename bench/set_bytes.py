"""Published bytes per result set, by kind of file: everything under public/results/<slug>/ and the set's PDF
(public/reports/<slug>.pdf), averaged over the sets, with and without the PDF, beside a previous measurement
(issue 24: within 500 KB a set on average, the PDF included). Assets shared by every set (the notebook
pages' stylesheets, scripts) are counted once, apart.

    .venv/bin/python bench/set_bytes.py [--site public] [--before build/bench/set_bytes-before.json] [--keep-as-before]

--keep-as-before: save this measurement as the "before" file (default build/bench/set_bytes-before.json)
for a later run to compare with.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import OUT, ROOT, save  # noqa: E402

TARGET = 500_000
CAPTURES = (".pcap", ".pcapng", ".erf", ".pcap.gz", ".pcapng.gz", ".erf.gz")


def kind(rel: str) -> str:
    """The kind of a file under a set's folder (its path relative to results/<slug>/)."""
    name = rel.rsplit("/", 1)[-1]
    if rel.startswith("notebooks/"):
        return "notebook .ipynb" if name.endswith(".ipynb") else "notebook page" if name.endswith(".html") else "notebook other"
    if rel.startswith("charts/"):
        if name.startswith("specs-") and name.endswith(".json"):
            return "chart spec bundle"
        for suffix, k in ((".vl.json", "chart spec .vl.json"), (".vg.json", "chart spec .vg.json"), (".svg", "chart .svg"), (".pdf", "chart .pdf")):
            if name.endswith(suffix):
                return k
        return "chart other"
    if rel.startswith("tables/"):
        return "tables"
    if rel.startswith("data/"):
        if name.lower().endswith(CAPTURES):
            return "captures"
        return "parquet" if name.endswith(".parquet") else "set files"
    if name == "index.html":
        return "web pages (Hugo)"
    if name.startswith("testbed."):
        return "test-bed diagram " + name.rsplit(".", 1)[-1].upper()
    return {"preview.png": "preview image"}.get(name, "other (" + name.rsplit(".", 1)[-1] + ")")


def measure(site: Path) -> dict:
    sets = sorted(d for d in (site / "results").iterdir() if d.is_dir())
    by_kind: dict[str, int] = defaultdict(int)
    for d in sets:
        for f in d.rglob("*"):
            if f.is_file():
                by_kind[kind(f.relative_to(d).as_posix())] += f.stat().st_size
    # the earlier design bundled each page's chart specs in the site's charts/ folder (not under a set's): counted per set
    page_bundles = sum(f.stat().st_size for f in (site / "charts").glob("specs-*.json")) if (site / "charts").is_dir() else 0
    if page_bundles:
        by_kind["page chart bundles (charts/)"] += page_bundles
    pdf = sum((site / "reports" / f"{d.name}.pdf").stat().st_size for d in sets if (site / "reports" / f"{d.name}.pdf").is_file())
    shared = sum(f.stat().st_size for f in (site / "notebooks").rglob("*") if f.is_file()) if (site / "notebooks").is_dir() else 0
    n = max(len(sets), 1)
    per = {k: round(v / n) for k, v in sorted(by_kind.items(), key=lambda kv: -kv[1])}
    without = sum(by_kind.values()) / n
    return {"sets": len(sets), "per_set_kind": per, "pdf": round(pdf / n), "without_pdf": round(without), "with_pdf": round(without + pdf / n),
            "shared_notebook_assets": shared}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--site", default=str(ROOT / "public"))
    ap.add_argument("--before", default=str(OUT / "set_bytes-before.json"))
    ap.add_argument("--keep-as-before", action="store_true")
    args = ap.parse_args()
    now = measure(Path(args.site))
    before_path = Path(args.before)
    if args.keep_as_before:
        before_path.parent.mkdir(parents=True, exist_ok=True)
        before_path.write_text(json.dumps(now, indent=1) + "\n")
    before = json.loads(before_path.read_text()) if before_path.is_file() else None

    def kb(v: int | None) -> str:
        return "—" if v is None else f"{v / 1000:.1f}"

    results: dict[str, str] = {"sets": f"{now['sets']}" + (f" (before {before['sets']})" if before else "")}
    kinds = list(now["per_set_kind"]) + [k for k in (before or {}).get("per_set_kind", {}) if k not in now["per_set_kind"]]
    for k in kinds:
        b = before["per_set_kind"].get(k) if before else None
        results[f"KB per set: {k}"] = f"{kb(now['per_set_kind'].get(k, 0))}  (before {kb(b)})"
    for k in ("pdf", "without_pdf", "with_pdf"):
        results[f"KB per set: {k.replace('_', ' ')}"] = f"{kb(now[k])}  (before {kb(before[k] if before else None)})"
    results["shared notebook assets KB (once)"] = f"{kb(now['shared_notebook_assets'])}  (before {kb(before['shared_notebook_assets'] if before else None)})"
    results["target KB per set, PDF included"] = kb(TARGET)
    results["ratio with PDF / target"] = f"{now['with_pdf'] / TARGET:.3f}"
    save("set_bytes", results)


if __name__ == "__main__":
    main()
