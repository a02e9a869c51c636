"""Result sets imported from the real tool outputs of tests/real/, for the publication check: every file there
that `wirespeed import auto` accepts today becomes a set of its own (one file, one set), its unstated fields
filled in the way a contributor would (importer_sets.FILL). The list is not kept by hand: a file that an
importer merged later accepts joins the build by itself, and a file that stops importing is named."""

from __future__ import annotations

import contextlib
import re
from dataclasses import dataclass
from pathlib import Path

import tomlkit
from click.testing import CliRunner

from conftest import ROOT
from importer_sets import FILL as IMPORTER_FILL
from wirespeed.cli import cli

# What a contributor fills in where the tool's output does not say (importer_sets.FILL and the instrument).
FILL = {**IMPORTER_FILL, "instrument.vendor": "Unstated", "instrument.product": "Traffic generator named by the file's format"}

REAL = ROOT / "tests" / "real"
# The files that import today (checked: each must still import). Other files import when their importer arrives.
IMPORT_TODAY = frozenset({
    "iperf3/ekfoury_iperf3.6_tcp_P4_60s_mininet.json", "iperf3/yardstick_iperf3.0.7_iperf3_sample_output.json",
    "iperf3/yardstick_iperf3.0.7_iperf3_sample_output_udp.json", "pktgen-pcap/pktgen-20190203-135615-0.pcap",
    "trex-capture/sim_astf-http_manual_commands_delay.pcap",
    "trex-loadtest-viz/index_generated_apu4_d12cce7.html", "trex-pcap/flow_stats.pcap", "trex-pcap/flow_stats_latency.pcap",
    "trex-pcap/imix.pcap", "trex-pcap/udp_64B.pcap",
})
_MISSING = re.compile(r"\S+: (\S+): missing required field '\w+' \[schema.required\]$")


def real_files() -> list[Path]:
    """Every real tool output under tests/real/ (its SOURCES.md aside)."""
    return sorted(p for p in REAL.rglob("*") if p.is_file() and p.name != "SOURCES.md")


def slug_of(path: Path) -> str:
    """A set slug for one real file: 'real-' and its path in lower-case words joined by single dashes."""
    words = re.sub(r"[^a-z0-9]+", "-", path.relative_to(REAL).as_posix().lower()).strip("-")
    return ("real-" + words)[:80].rstrip("-")


@dataclass(frozen=True)
class Ran:
    returncode: int
    stdout: str
    stderr: str


def run(*args: str, cwd: Path) -> Ran:
    """The CLI's command run in this process, in the folder cwd (some 400 runs: a process each would start Python and
    load the importers some 400 times); an exception that escapes the command is a failure that names it."""
    with contextlib.chdir(cwd):
        result = CliRunner().invoke(cli, list(args))
    stderr = result.stderr
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        stderr += f"wirespeed: internal error: {type(result.exception).__name__}: {result.exception}"
    return Ran(result.exit_code, result.stdout, stderr)


def _fill(folder: Path, validate_output: str, rel: str) -> None:
    """Fill every field `wirespeed validate` names as missing with FILL's value, title the set after its file and publish it."""
    doc = tomlkit.parse((folder / "result.toml").read_text(encoding="utf-8"))
    doc["status"] = "published"
    doc["title"] = f"Imported from tests/real/{rel}"
    for line in validate_output.splitlines():
        m = _MISSING.match(line)
        if not m:
            continue
        path = m.group(1)
        t = re.match(r"tests\[(\d+)\]\.(\w+)$", path)
        if t:
            doc["tests"][int(t.group(1))][t.group(2)] = FILL[t.group(2)]
            continue
        node = doc
        *parents, last = path.split(".")
        for p in parents:
            node = node.setdefault(p, tomlkit.table())
        node[last] = FILL[path]
    (folder / "result.toml").write_text(tomlkit.dumps(doc), encoding="utf-8")


def import_all(work: Path) -> tuple[list[str], dict[str, str], dict[str, str]]:
    """Import every real file into work/data/results (the working folder of a pipeline); returns the slugs of
    the sets made, for each file that did not import its path and the importer's one-line reason, and for each
    file that did the importer `import auto` said it chose."""
    root = work / "data" / "results"
    root.mkdir(parents=True, exist_ok=True)
    slugs, refused, chosen = [], {}, {}
    for path in real_files():
        rel = path.relative_to(REAL).as_posix()
        slug = slug_of(path)
        proc = run("import", "auto", str(path), "--into", slug, "--root", str(root), cwd=work)
        if proc.returncode != 0:
            refused[rel] = (proc.stderr.strip().splitlines() or ["no message"])[0]
            continue
        said = re.search(rf"^auto: {re.escape(str(path))} is (\S+)$", proc.stdout, re.M)
        chosen[rel] = said.group(1) if said else f"(not said: {proc.stdout[:200]!r})"
        folder = root / slug
        _fill(folder, run("validate", str(folder), cwd=work).stdout, rel)
        check = run("validate", str(folder), cwd=work)
        if check.returncode != 0:
            refused[rel] = "imported but does not validate once filled in: " + " | ".join(check.stdout.splitlines()[:3])
            continue
        slugs.append(slug)
    return slugs, refused, chosen
