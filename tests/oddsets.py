"""Odd-shaped but valid result sets, made at test time, for the PDF layout checks: very long names,
20 frame sizes, 9-digit and 14-digit numbers, many variants, and a set with every optional part left out.
Each is a fresh set (not a copy of an example's figures): the numbers are synthetic shapes, not benchmark data,
and the sets say so in their notes."""

from __future__ import annotations

import json
import math
from pathlib import Path

LONG = ("Extraordinarily long device and scenario name that goes on and on to test line breaking "
        "in headers, captions and running heads of the generated PDF report without any natural break points")
SIZES = [64, 72, 96, 128, 160, 192, 256, 320, 384, 512, 640, 768, 1024, 1280, 1518, 2048, 3072, 4096, 6144, 9216]


def _t(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def _line_fps(size: int, gbps: float, ports: int) -> float:
    return ports * gbps * 1e9 / ((size + 20) * 8)


def _set(root: Path, slug: str, title: str, tests: str, files: dict[str, str], optional: bool = True) -> None:
    d = root / slug
    d.mkdir(parents=True)
    extra = f'summary = {_t("Synthetic layout-test set: " + title)}\n' if optional else ""
    source_extra = ('document = ' + _t(title) + '\nnotes = "Synthetic numbers made by the layout test; not a benchmark."\n') if optional else ""
    dut_extra = '[[dut.software]]\nname = "Layout OS"\nversion = "1.0"\n\n' if optional else ""
    toml = (f'format_version = 1\nslug = "{slug}"\ntitle = {_t(title)}\n{extra}status = "published"\nlicence = "CC0-1.0"\n\n'
            f'[source]\nkind = "transcribed"\npublisher = "Layout Test Lab"\n{source_extra}published = "2020-05"\n\n'
            f'[dut]\nvendor = "Layout"\nmodel = {_t("Switch " + (LONG if optional else "9"))}\nkind = "switch"\n\n{dut_extra}'
            f'[instrument]\nvendor = "Layout"\nproduct = "Generator"\n\n[methodology]\nframe_size_convention = "ethernet-frame"\n\n'
            f'{tests}\n[files]\nmeasurements = {json.dumps(sorted(files))}\n')
    (d / "result.toml").write_text(toml, encoding="utf-8")
    for name, text in files.items():
        (d / name).write_text(text, encoding="utf-8")


def _test(tid: str, title: str, ports: int, speed: str, sizes: list[int], variants: dict[str, str] | None = None) -> str:
    v = "".join(f"{k} = {_t(val)}\n" for k, val in (variants or {}).items())
    return (f'[[tests]]\nid = "{tid}"\ntitle = {_t(title)}\nrfc = ["2544"]\nscenario = "l2-unicast"\ntopology = "port-pairs"\n'
            f'ports = {ports}\nport_speed = "{speed}"\nmedia = "ethernet"\ndirection = "bidirectional"\n'
            + (f"\n[tests.variants]\n{v}" if v else "")
            + f"\n[tests.methodology]\nframe_sizes = {json.dumps(sizes)}\n" + ("max_frame_bytes = 9216\n" if max(sizes) > 1518 else "") + "\n")


def make(root: Path) -> list[str]:
    """Write the odd sets under root; returns their slugs."""
    slugs = []
    # 20 frame sizes, 9-digit frame rates, 14-digit frame counts, latency with many digits.
    rows = ["test,frame_size,throughput_fps,tx_frames,rx_frames,latency_avg_us,latency_max_us"]
    for i, s in enumerate(SIZES):
        line = _line_fps(s, 400, 32)
        tp = math.floor(line * 0.95)
        tx = 12345678901234 + i
        rows.append(f"wide,{s},{tp},{tx},{tx - 1000 * i},{1.234 + i:.3f},{123456.789 + i:.3f}")
    _set(root, "layout-twenty-sizes-2020", "Twenty frame sizes, nine- and fourteen-digit figures",
         _test("wide", "Throughput, counts and latency over twenty frame sizes", 32, "400G", SIZES),
         {"wide.csv": "\n".join(rows) + "\n"})
    slugs.append("layout-twenty-sizes-2020")
    # very long names everywhere, and many variants
    variants = {f"v{i}": f"Variant {i}: {LONG[:60 + 7 * i]}" for i in range(1, 9)}
    rows = ["test,frame_size,variant,throughput_fps,latency_avg_us"]
    for k in variants:
        for s in (64, 1518, 9216):
            rows.append(f"many,{s},{k},{math.floor(_line_fps(s, 100, 16) * 0.5)},{2.5 + int(k[1:]) / 10:.2f}")
    _set(root, "layout-long-names-2020", LONG + " — " + LONG,
         _test("many", LONG, 16, "100G", [64, 1518, 9216], variants), {"many.csv": "\n".join(rows) + "\n"})
    slugs.append("layout-long-names-2020")
    # every optional part left out
    _set(root, "layout-bare-2020", "Bare set", _test("bare", "Bare", 2, "10G", [64]),
         {"bare.csv": f"test,frame_size,throughput_fps\nbare,64,{math.floor(_line_fps(64, 10, 2))}\n"}, optional=False)
    slugs.append("layout-bare-2020")
    return slugs
