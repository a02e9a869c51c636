"""Name the device configuration of one run of the trend series in its result.toml (run by collect.sh after
each collection): the nftables forward chain the before-test hook loaded becomes a software component of
the device, whose version is its rule count, so that the trend pages order the runs by it; the title says
which run it is. Everything the collector wrote is kept; the hook's own record (raw/hooks.json) is checked
to hold the rule count first.

    python examples/collect/trend/label.py data/results/SLUG RULES RUN RUNS SERIES_RULES
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import tomlkit


def main(folder: Path, rules: int, run: int, runs: int, series_rules: int) -> None:
    hooks = json.loads((folder / "raw" / "hooks.json").read_text(encoding="utf-8"))
    counted = [h["output"].strip() for h in hooks if h["name"] == "nft-forward-chain"]
    if counted != [str(rules)]:
        sys.exit(f"{folder}: the nft-forward-chain hook recorded {counted}, not one count of {rules} rules")
    path = folder / "result.toml"
    doc = tomlkit.parse(path.read_text(encoding="utf-8"))
    doc["title"] = f"{doc['title']} (run {run} of {runs})"
    software = doc["dut"]["software"]
    software.append({"name": "nftables forward chain of wst-dut", "version": f"{rules} rules"})
    doc["dut"]["notes"] = (str(doc["dut"]["notes"]) + f" The device's nftables forward chain (table ip wirespeed) held {rules:,} rules that the test "
                           "traffic never matches, loaded by the before-test hook nft-forward-chain (raw/collect-config.toml; its count in raw/hooks.json); "
                           f"run {run} of {runs} of a series that alternates an empty chain and one of {series_rules:,} rules (examples/collect/trend/collect.sh).")
    mins = [line.split(",")[13] for line in (folder / "measurements.csv").read_text(encoding="utf-8").splitlines()[1:] if ",ndr-50," in line]
    doc["summary"] = (f"Minimum one-way latency of three captured 1-second trials at 50 % of the mean NDR through an nftables forward chain of {rules:,} rules: "
                      + ", ".join(f"{m} µs" for m in mins) + f". Run {run} of {runs} of the trend series; the NDR and PDR searches stop at 2,000 frames/s to keep the run short, "
                      "so their figures are at most that cap and bound the device's from below.")
    doc["source"]["notes"] = (str(doc["source"]["notes"]) + " The searches were capped at 2,000 frames/s (max_rate_fps) to keep each run short: "
                              "the NDR and PDR figures are at most the cap and bound the device's from below; the series follows latency.")
    doc["status"] = "draft"  # published only once the series has been looked at (collect.sh)
    path.write_text(tomlkit.dumps(doc), encoding="utf-8")


if __name__ == "__main__":
    main(Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]))
