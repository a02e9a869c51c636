"""FD.io CSIT results: the per-test UTI JSON (`*.info.json`, gzipped or not, model 1.x, the interim
0.2.0 and the 0.1.0 draft), the Robot Framework output.xml, and the trending Parquet of many runs.

The file's content says which it is (gzip, Parquet and XML by their first bytes, the JSON models
by their keys: csit_uti); each reader makes csit_run.Run objects, csit_plan says what they state
about the result set and csit_rows makes their rows. Rates are CSIT's: aggregate over both
directions in packets per second (one direction for unidirectional profiles), bandwidth layer 1;
NDR and PDR lower and upper bounds, latency at 0/10/50/90 % of PDR per direction with HDR
percentiles, every MRR trial and the average, the soak critical rate. A failed test is refused
with its reason (or left out of a file of many with a warning): never published as a zero.
"""

from __future__ import annotations

import functools
import zlib

from wirespeed.importers import csit_parquet, csit_robot, csit_rows, csit_uti
from wirespeed.importers.common import json_head_has, parse_json
from wirespeed.importers.contract import Importer, ImportPlan
from wirespeed.importers.csit_plan import describe_runs, frame_size, parts
from wirespeed.importers.csit_run import RULE, Run
from wirespeed.problems import Problem
from wirespeed.resultset.compressed import compression_of, unpack

PARQUET = b"PAR1"
LEADING = b"\xef\xbb\xbf \t\r\n"


@functools.lru_cache(maxsize=4)
def read_runs(data: bytes, file: str) -> tuple[list[Run], list[Problem]]:
    """The CSIT runs a file holds, whatever its kind, and the problems found (each once). A file of
    many tests is declared once per test: the last few files read are kept, so it is parsed once."""
    runs, problems = _read(data, file)
    return runs, list(dict.fromkeys(problems))


def _read(data: bytes, file: str) -> tuple[list[Run], list[Problem]]:
    if compression_of(data):  # the framework hands over decompressed bytes; a direct call may not
        data, _kind, problems = unpack(data, file)
        if data is None:
            return [], problems
    if data[:4] == PARQUET:
        return csit_parquet.read(data, file)
    if data.lstrip(LEADING)[:1] == b"<":
        return csit_robot.read(data, file)
    doc, problems = parse_json(data, file)
    if doc is None:
        return [], problems
    return csit_uti.read(doc, file)


def _head(head: bytes) -> bytes:
    """The start of a gzipped file's content (as much as the head of the file decompresses to)."""
    if compression_of(head) != "gzip":
        return head
    try:
        return zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(head, 1 << 16)
    except zlib.error:
        return b""


def sniff(head: bytes, name: str) -> float:
    """UTI JSON by its keys (gzipped or not), a Robot output.xml by its root, a Parquet file by its magic."""
    if head[:4] == PARQUET:
        return 0.9 if any(k in head for k in (b"test_id", b"result_", b"tests.vpp.", b"tests.dpdk.")) else 0.5
    text = _head(head)
    start = text.lstrip(LEADING)
    if start[:1] == b"<":
        if b"<robot" not in start[:4096]:
            return 0.0
        return 0.9 if any(k in text for k in (b"PERFTEST", b"csit", b"TrafficGen", b"NDRPDR")) else 0.6
    if json_head_has(text, "result") and any(f'"{k}"'.encode() in text for k in ("test_name_long", "tg_type", "test_id", "dut_type", "test_type")):
        return 0.9
    if json_head_has(text, "results") and any(f'"{k}"'.encode() in text for k in ("sut_type", "suite_id", "test_id")):
        return 0.9
    if json_head_has(text, "test") and b'"test-id"' in text:
        return 0.9
    if json_head_has(text, "results", "test_type") and b'"version"' in text:
        return 0.8
    if json_head_has(text, "suite_documentation") or (json_head_has(text, "fields") and b'"test_id"' in text and b'"dut_version"' in text):
        return 0.7  # a suite file or a Spark schema of CSIT's: refused by describe, saying what it is
    return 0.0


def describe(data: bytes, name: str) -> ImportPlan:
    """The tests (one per suite and core count), their frame sizes and IMIX, port speed and ports,
    direction, scenario, the DUT's and the generator's versions and the dates of the runs."""
    runs, problems = read_runs(data, name)
    plan = describe_runs(runs, problems, name)
    if not any(p.severity == "error" for p in plan.problems):  # what loading the set will warn about, said at import
        for run in runs:
            size = frame_size(run)
            if size is not None:
                plan.problems += [p for p in csit_rows.rows(run, {"test": "t", "frame_size": size}, size, name)[1] if p not in plan.problems]
    return plan


def convert(data: bytes, file: str, spec: dict, test) -> tuple[list, list[Problem], int]:
    """The rows of the run a [files].native entry names (its part, or the file's one run)."""
    runs, problems = read_runs(data, file)
    errors = [p for p in problems if p.severity == "error"]
    if errors or not runs:
        return [], errors or problems, 0
    if "part" in spec:
        by_part = dict(zip(parts(runs), runs))
        run = by_part.get(str(spec["part"]))
        if run is None:
            return [], [Problem(file, None, "part", f"no passed test run {spec['part']!r} in the file ({len(runs)} runs)", RULE)], 0
    elif len(runs) == 1:
        run = runs[0]
    else:
        return [], [Problem(file, None, "part", f"the file holds {len(runs)} test runs: the native entry must name one as part", RULE)], 0
    size = spec.get("frame_size", frame_size(run))
    if size is None or (isinstance(size, str) and size not in getattr(test, "imixes", {})):
        return [], [Problem(file, None, "tags", "no frame size: expected a tag such as 64B (or IMIX, with the IMIX declared in the test's "
                                                "methodology.imix)", RULE)], 0
    return csit_rows.rows(run, {"test": test.id, "frame_size": size}, size, file)


IMPORTER = Importer(
    summary="FD.io CSIT results: per-test info.json (.gz) in UTI models 0.1 to 1.5 (NDR/PDR bounds, latency at 0-90 % of PDR with HDR "
            "percentiles, MRR trials, soak), Robot output.xml, trending Parquet",
    sniff=sniff,
    describe=describe,
    convert=convert,
    examples=("docs/importers/examples/csit/ndrpdr-64b-2t1c-l3fwd.info.json", "docs/importers/examples/csit/mrr-64b-1c-frouter.info.json.gz",
              "docs/importers/examples/csit/soak-64b-2t1c-l3fwd.info.json", "docs/importers/examples/csit/trending-ndrpdr.parquet"),
    kinds=("json", "xml", "parquet"),
)
