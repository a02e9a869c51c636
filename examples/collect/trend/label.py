"""The trend series' checks and labels (run by collect.sh after each collection).

    python examples/collect/trend/label.py check FOLDER
        exit 3 when the generator sent any search trial more than 10 % slower than asked (the search's
        bounds would be the generator's, not the device's; such an attempt is discarded and repeated)
    python examples/collect/trend/label.py label FOLDER RULES RUN RUNS SERIES_RULES DISCARDED
        name the device configuration in result.toml: the nftables forward chain the before-test hook
        loaded becomes a software component of the device, its version the rule count, so that the trend
        pages order the runs by it; the title says which run it is, the summary what it measured, the notes
        how many attempts before it were discarded; the set stays a draft until the series is looked at.
        The hook's own record (raw/hooks.json) must hold the rule count. Everything else the collector
        wrote is kept.
"""

from __future__ import annotations

import csv
import json
import sys
from pathlib import Path

import tomlkit

SHORTFALL = 0.1  # the collector's own threshold (netns_config.CollectConfig.shortfall)


def check(folder: Path) -> None:
    with open(folder / "raw" / "trials.csv", encoding="utf-8") as f:
        short = [r for r in csv.DictReader(f) if float(r["tx_rate_fps"]) < (1 - SHORTFALL) * float(r["load_fps"])]
    if short:
        print(f"{folder}: the generator sent {len(short)} search trial(s) more than {SHORTFALL:.0%} slower than asked "
              f"(e.g. {short[0]['tx_rate_fps']} of {short[0]['load_fps']} frames/s)", file=sys.stderr)
        sys.exit(3)


def label(folder: Path, rules: int, run: int, runs: int, series_rules: int, discarded: int) -> None:
    hooks = json.loads((folder / "raw" / "hooks.json").read_text(encoding="utf-8"))
    counted = [h["output"].strip() for h in hooks if h["name"] == "nft-forward-chain"]
    if counted != [str(rules)]:
        sys.exit(f"{folder}: the nft-forward-chain hook recorded {counted}, not one count of {rules} rules")
    path = folder / "result.toml"
    doc = tomlkit.parse(path.read_text(encoding="utf-8"))
    doc["title"] = f"{doc['title']} (run {run} of {runs})"
    doc["dut"]["software"].append({"name": "nftables forward chain of wst-dut", "version": f"{rules} rules"})
    doc["dut"]["notes"] = (str(doc["dut"]["notes"]) + f" The device's nftables forward chain (table ip wirespeed) held {rules:,} rules that the test "
                           "traffic never matches, loaded by the before-test hook nft-forward-chain (raw/collect-config.toml; its count in raw/hooks.json); "
                           f"run {run} of {runs} of a series that alternates an empty chain and one of {series_rules:,} rules (examples/collect/trend/collect.sh).")
    with open(folder / "measurements.csv", encoding="utf-8") as f:
        mins = [r["latency_min_us"] for r in csv.DictReader(f) if r["variant"] == "ndr-50"]
    words = {3: "three", 4: "four", 5: "five", 6: "six", 8: "eight", 10: "ten"}
    doc["summary"] = (f"Minimum one-way latency of {words.get(len(mins), len(mins))} captured 1-second trials at 50 % of the mean NDR through an nftables forward chain of {rules:,} rules: "
                      + ", ".join(f"{m} µs" for m in mins) + f". Run {run} of {runs} of the trend series; the NDR and PDR searches stop at 2,000 frames/s "
                      "to keep the run short, so their figures are at most that cap and bound the device's from below.")
    doc["source"]["notes"] = (str(doc["source"]["notes"]) + " The searches were capped at 2,000 frames/s (max_rate_fps) to keep each run short: "
                              "the NDR and PDR figures are at most the cap and bound the device's from below; the series follows latency. "
                              + (f"{discarded} earlier attempt{'s' if discarded != 1 else ''} of this run {'were' if discarded != 1 else 'was'} discarded "
                                 "because the generator sent a search trial more than 10 % slower than asked on the busy machine (collect.sh)."
                                 if discarded else "No attempt of this run was discarded."))
    doc["status"] = "draft"  # published only once the series has been looked at (collect.sh)
    path.write_text(tomlkit.dumps(doc), encoding="utf-8")


if __name__ == "__main__":
    if sys.argv[1] == "check":
        check(Path(sys.argv[2]))
    else:
        label(Path(sys.argv[2]), *map(int, sys.argv[3:8]))
