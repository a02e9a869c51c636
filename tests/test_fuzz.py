"""Never a crash: Hypothesis generates result.toml documents, CSV tables and native tool files, valid-shaped
and broken, and the loader and the checks must turn every one of them into problems that are each ONE
line naming a file of the set, with no exception escaping. More than 10,000 inputs in all, in-process
(the library's load and checks on a folder in tmp), derandomised so CI sees the same inputs every run.
"""

from __future__ import annotations

import copy
import csv
import io
import json
import math
import os
import shutil
import tempfile
import tomllib
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from conftest import ARCHIVE
from wirespeed.checks import run_checks
from wirespeed.engine.columns import KEYS, METRICS
from wirespeed.catalog.load import load
from wirespeed.engine.units import UNITS

FUZZ = settings(derandomize=True, deadline=None, database=None, suppress_health_check=list(HealthCheck))
SCALE = float(os.environ.get("WIRESPEED_FUZZ_SCALE", "1"))  # e.g. 0.1 for a quick run, 10 for a long one
EXAMPLES = {k: max(1, int(n * SCALE)) for k, n in {"toml": 1000, "toml-text": 3000, "csv": 4200, "native": 2000}.items()}  # 10,200 inputs

# A small result set made for these tests (its numbers are arbitrary inputs, not results): an Ethernet
# test with an IMIX, a packet-over-SONET test and a ramp test fed by native files.
FUZZ_SET = """format_version = 1
slug = "fuzz-set"
title = "Fuzz set"
status = "published"
licence = "CC0-1.0"

[source]
kind = "measured"
publisher = "wirespeed tests"
published = "2024-05-01"

[dut]
vendor = "Acme"
model = "S1"

[instrument]
vendor = "GenCo"
product = "Gen"

[methodology]
frame_sizes = [64, 512, 1518, "imix"]
frame_size_convention = "ethernet-frame"

[[tests]]
id = "eth"
title = "Ethernet"
rfc = ["2544"]
scenario = "l2-unicast"
topology = "port-pairs"
ports = 4
port_speed = "10G"
direction = "bidirectional"
variants = {one = "one flow"}
methodology = {imix = [{id = "imix", profile = "trex-imix", sizes = [64, 594, 1518], weights = [28, 16, 4]}]}

[[tests]]
id = "pos"
title = "POS"
rfc = ["2544"]
scenario = "ipv4-unicast"
topology = "port-pairs"
ports = 2
port_speed = "OC-12c"
direction = "unidirectional"
encapsulation_bytes = 7
methodology = {frame_size_convention = "ip-packet", frame_sizes = [40, 1500]}

[[tests]]
id = "ramp"
title = "Ramp"
rfc = ["loadtest-ramp"]
scenario = "ipv4-routing"
topology = "port-pairs"
ports = 2
port_speed = "500M"
direction = "unidirectional"
methodology = {search = "ramp", frame_sizes = [1518]}

[files]
measurements = ["m.csv"]
samples = ["s.csv"]
histograms = ["h.csv"]
native = [{path = "trex.json", importer = "trex-ramp", test = "ramp", frame_size = 1518}, {path = "iperf3.json", importer = "iperf3", test = "ramp", frame_size = 1518}]
"""
TABLES = {
    "m.csv": "test,frame_size,trial,tx_frames,rx_frames,throughput_fps\neth,64,1,1000,1000,14880952\n",
    "s.csv": "test,frame_size,t_s,tx_frames,rx_frames\nramp,1518,0,10,10\n",
    "h.csv": "test,frame_size,bucket_low_us,bucket_high_us,count_frames\nramp,1518,0,10,5\n",
}
TREX = {"vars": {"rampup_duration": 2, "profile_file": "imix.py"},
        "stats": {"10": {"0": {"tx_pps": 100.0, "rx_pps": 90.0, "tx_bps_L1": 1000.0, "rx_bps_L1": 900.0}, "global": {}},
                  "11": {"0": {"tx_pps": 200.0, "rx_pps": 150.0, "tx_bps_L1": 2000.0, "rx_bps_L1": 1500.0}, "1": {"tx_pps": "-nan", "rx_pps": 10.0}}}}


def _iperf3_real() -> dict:
    """The iperf3 --json output of the first client of the example ramp (real tool output)."""
    clients = json.loads((ARCHIVE / "linux-netns-ipv4-ramp-2026-11" / "raw" / "iperf3-clients.json").read_text())
    return clients[0]["output"]


IPERF3 = _iperf3_real()
EXAMPLE_DOCS = {p.parent.name: tomllib.loads(p.read_text("utf-8")) for p in sorted(ARCHIVE.glob("*/result.toml"))}


def check(folder: Path) -> None:
    """Load and check one set; every problem must be one line naming a file of the set."""
    rs, problems = load(folder)
    if rs is not None:
        problems = problems + run_checks(rs)
    for p in problems:
        text = str(p)
        assert "\n" not in text and "\r" not in text and text.isprintable(), text
        assert p.rule and p.rule != "internal", text
        assert Path(p.file).resolve().is_relative_to(folder.resolve()), text


@pytest.fixture(scope="module")
def work(tmp_path_factory):
    """Copies of the example sets and the fuzz set, in memory (/dev/shm) when the machine has it: thousands of small writes."""
    shm = Path("/dev/shm")
    root = Path(tempfile.mkdtemp(prefix="wirespeed-fuzz-", dir=shm)) if shm.is_dir() and os.access(shm, os.W_OK) else tmp_path_factory.mktemp("fuzz")
    for slug in EXAMPLE_DOCS:
        shutil.copytree(ARCHIVE / slug, root / slug)
    fresh_fuzz_set(root)
    yield root
    shutil.rmtree(root, ignore_errors=True)


def fresh_fuzz_set(root: Path) -> Path:
    folder = root / "fuzz-set"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir()
    (folder / "result.toml").write_text(FUZZ_SET)
    for name, text in TABLES.items():
        (folder / name).write_text(text)
    (folder / "trex.json").write_text(json.dumps(TREX))
    (folder / "iperf3.json").write_text(json.dumps(IPERF3))
    return folder


def test_fuzz_set_itself_is_valid(work):
    folder = fresh_fuzz_set(work)
    rs, problems = load(folder)
    assert rs is not None and not [p for p in problems if p.severity == "error"], problems
    assert not [p for p in run_checks(rs) if p.severity == "error"]


# ---- values --------------------------------------------------------------------------------------------

NASTY_CHARS = "\u202e\u202d\u2066\u2069\u200b\u200d\u2060\ufeff\u00ad\u180e\u061c\x00\x07\x1b\x7f\x85\r\n\t\u2028\u0430\u03bf\ue000\U000e0041\u0301"
nasty_text = st.text(alphabet=st.characters(codec="utf-8") | st.sampled_from(list(NASTY_CHARS)), max_size=40)
numbers_text = st.one_of(
    st.sampled_from(["0", "-0", "1e999999", "1e-999999", "9" * 400, "1e30", "1e-30", "0e-999999", "1.5e3", "NaN", "inf", "-1",
                     "~75", ">770", "<94", ">=1", "<=1", "12..17", "17..12", "~0", "<1", "~1", ".5", "5.", "1_000", "١٢", "²", "0x10"]),
    st.decimals(allow_nan=False, allow_infinity=False).map(str),
    st.floats().map(repr),
    st.integers().map(str),
    st.builds(lambda q, a, e: f"{q}{a}e{e}", st.sampled_from(["", "~", ">", "<", ">=", "<="]), st.integers(0, 10**6), st.integers(-10**7, 10**7)),
)
toml_scalars = st.one_of(
    st.integers(min_value=-(2**70), max_value=2**70), st.floats(), st.booleans(), nasty_text,
    st.sampled_from(["0G", "0M", "0.0G", "1e999G", "99999999999G", "OC-1", "OC-12c", "STM-256", "2022-02-30", "2021-02-29", "2024-02-29",
                     "9999-12-31", "0000-01-01", "2022-13", "2022", "ethernet-frame", "trex-packet", "ip-packet", "imix", "eth", "ramp",
                     "unidirectional", "bidirectional", "multicast", "full-mesh", "loadtest-ramp", "ramp", "2544", ""]),
)
toml_values = st.recursive(toml_scalars, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(["id", "sizes", "weights", "x", "frame_sizes", "max_frame_bytes", "vlan_tags"]), inner, max_size=3), max_leaves=8)


# Values aimed at each field's arithmetic and rules (the mutation picks one of these half of the time).
KEY_VALUES: dict[str, list] = {
    "port_speed": ["0G", "0M", "0.0G", "0.0001M", "1601G", "9" * 30 + "G", "OC-3", "STM-256", "400G", "1M"],
    "published": ["2022-02-30", "2021-02-29", "2024-02-29", "9999-12-31", "2022-13", "0000-01-01", "2999", "2022-02-21T09:35:14"],
    "start": ["2022-02-30", "9999-12", "2001", "2030-01-01"], "end": ["2000-01-01", "2022-04-31", "9999"],
    "embargo_until": ["9999-12-31", "2022-02-30"],
    "frame_sizes": [[9600], [1, 65536], [2**40], ["imix"], ["nope"], [1519], [1522], [0], []],
    "sizes": [[9600], [1], [2**40], [1518, 1519], [0]], "weights": [[0], [1e308, 1e308], [1e-320], [math.inf], [1, 2, 3, 4]],
    "ports": [0, 1, 3, 2**31, 10**20, 10**6], "receivers": [0, 1, 10**7], "transmitters": [1, 10**7], "streams": [1, 10**9],
    "vlan_tags": [0, 1, 2, 3, -1], "max_frame_bytes": [63, 64, 1500, 1518, 9216, 16000, 16001, 10**9],
    "forwarding_cap_pps": [1e-300, 1e300, math.inf, math.nan, 0, 30e6], "stream_rate_fps": [1e-300, 1e300, 0],
    "encapsulation_bytes": [0, 64, 65, -1], "trial_duration_s": [1e-300, math.inf, 0], "loss_tolerance_pct": [0, 100, 101, math.nan],
    "frame_size_convention": ["ethernet-frame", "trex-packet", "ip-packet", "x"], "media": ["ethernet", "pos", "x"],
    "direction": ["unidirectional", "bidirectional"], "topology": ["full-mesh", "partial-mesh", "port-pairs", "multicast", "chain"],
    "search": ["ramp", "binary"], "rfc": [["loadtest-ramp"], ["2544"], []], "status": ["embargoed", "draft", "published"],
    "vendor": ["Ke\u0443sight", "Cisco\u202e", "Ci\u200bsco", "A\x07"], "model": ["N\u200d9K"], "title": ["\u202eevil"], "id": ["a\u200bb", "eth"],
    "frame_size": [9600, 1, "imix", "nope", 2**40], "test": ["eth", "nope"], "importer": ["iperf3", "trex-ramp", "x"],
}


def toml_dump(doc: dict) -> str:
    """A TOML document with every value inline (a tiny writer for the tests: strings, numbers, arrays, tables)."""

    def value(v) -> str:
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, int):
            return str(v)
        if isinstance(v, float):
            return "nan" if math.isnan(v) else ("inf" if v > 0 else "-inf") if math.isinf(v) else repr(v)
        if isinstance(v, str):
            return json.dumps(v, ensure_ascii=True).replace("\\/", "/")
        if isinstance(v, list):
            return "[" + ", ".join(value(x) for x in v) + "]"
        if isinstance(v, dict):
            return "{" + ", ".join(f"{json.dumps(str(k))} = {value(x)}" for k, x in v.items()) + "}"
        return json.dumps(str(v))

    return "".join(f"{json.dumps(str(k))} = {value(v)}\n" for k, v in doc.items())


def _paths(node, prefix=()):
    yield prefix
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _paths(v, (*prefix, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _paths(v, (*prefix, i))


@st.composite
def mutated_docs(draw):
    """An example result.toml with one to three values replaced, removed or added."""
    slug = draw(st.sampled_from(sorted(EXAMPLE_DOCS)))
    doc = copy.deepcopy(EXAMPLE_DOCS[slug])
    for _ in range(draw(st.integers(1, 3))):
        paths = [p for p in _paths(doc) if p]
        aimed_paths = [p for p in paths if isinstance(p[-1], str) and p[-1] in KEY_VALUES]
        path = draw(st.sampled_from(aimed_paths if aimed_paths and draw(st.booleans()) else paths))
        parent = doc
        for key in path[:-1]:
            parent = parent[key]
        action = draw(st.sampled_from(["replace", "replace", "replace", "delete", "add"]))
        if action == "delete":
            del parent[path[-1]]
        elif action == "add" and isinstance(parent, dict):
            parent[draw(st.sampled_from(["max_frame_bytes", "vlan_tags", "embargo_until", "receivers", "imix", "media", "zz"]))] = draw(toml_values)
        else:
            key = next((k for k in reversed(path) if isinstance(k, str)), "")
            aimed = KEY_VALUES.get(key)
            parent[path[-1]] = draw(st.sampled_from(aimed)) if aimed and draw(st.booleans()) else draw(toml_values)
    return slug, toml_dump(doc)


@given(mutated_docs())
@settings(FUZZ, max_examples=EXAMPLES["toml"])
def test_fuzz_result_toml_documents(work, case):
    slug, text = case
    folder = work / slug
    original = (ARCHIVE / slug / "result.toml").read_bytes()
    (folder / "result.toml").write_text(text, encoding="utf-8")
    try:
        check(folder)
    finally:
        (folder / "result.toml").write_bytes(original)


@given(st.one_of(st.binary(max_size=300), nasty_text.map(lambda s: s.encode("utf-8", "surrogatepass")),
                 st.builds(lambda a, b: (a + b).encode("utf-8", "surrogatepass"), st.sampled_from([FUZZ_SET[:200], FUZZ_SET, "[[a]]\n" * 3, "a = [" * 50, "\ufeff"]), nasty_text)))
@settings(FUZZ, max_examples=EXAMPLES["toml-text"])
def test_fuzz_result_toml_text(work, data):
    folder = work / "fuzz-set"
    (folder / "result.toml").write_bytes(data)
    try:
        check(folder)
    finally:
        (folder / "result.toml").write_text(FUZZ_SET)


# ---- CSV tables ----------------------------------------------------------------------------------------

VALUE_COLUMNS = sorted(f"{m}_{u}" for m in METRICS for u in UNITS)
KEY_COLUMNS = sorted({k for table in KEYS.values() for k in table})
headers = st.lists(st.sampled_from(KEY_COLUMNS) | st.sampled_from(VALUE_COLUMNS) | nasty_text, min_size=1, max_size=6)
key_cells = st.sampled_from(["eth", "pos", "ramp", "nope", "64", "1518", "9600", "imix", "one", "unidirectional", "bidirectional", "1", "0", ""]) | numbers_text | nasty_text
cells = numbers_text | key_cells


@st.composite
def csv_tables(draw):
    """A table file: a header of real (and broken) column names and rows of numbers, keys and hostile text."""
    name = draw(st.sampled_from(sorted(TABLES)))
    header = draw(headers)
    if draw(st.booleans()):
        header = ["test", *header]
    rows = draw(st.lists(st.lists(cells, min_size=len(header) - 1, max_size=len(header) + 1), max_size=4))
    out = io.StringIO()
    writer = csv.writer(out, lineterminator=draw(st.sampled_from(["\n", "\r\n", "\r"])))
    writer.writerow(header)
    writer.writerows(rows)
    text = out.getvalue()
    data = text.encode("utf-8", "surrogatepass")
    tweak = draw(st.sampled_from(["none", "none", "bom", "nul", "latin1", "quote", "truncate"]))
    if tweak == "bom":
        data = b"\xef\xbb\xbf" + data
    elif tweak == "nul":
        data = data.replace(b",", b",\x00", 1)
    elif tweak == "latin1":
        data = text.encode("latin-1", "replace")
    elif tweak == "quote":
        data = data.replace(b",", b',"', 1)
    elif tweak == "truncate":
        data = data[: draw(st.integers(0, max(len(data), 1)))]
    return name, data


def check_replaced(folder: Path, name: str, data: bytes, original: str) -> None:
    """Check the set with one file's bytes replaced, then put the original back."""
    (folder / name).write_bytes(data)
    try:
        check(folder)
    finally:
        (folder / name).write_text(original)


@given(csv_tables())
@settings(FUZZ, max_examples=EXAMPLES["csv"])
def test_fuzz_csv_tables(work, case):
    name, data = case
    check_replaced(work / "fuzz-set", name, data, TABLES[name])


# ---- native files --------------------------------------------------------------------------------------

json_leaves = st.one_of(st.none(), st.booleans(), st.integers(min_value=-(10**40), max_value=10**40), st.floats(allow_nan=False), nasty_text,
                        st.sampled_from(["-nan", "nan", "inf", "1e999", 10**300, -1, 0, 1e308, 5e-324]))
json_values = st.recursive(json_leaves, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(nasty_text | st.sampled_from(["0", "1", "sum", "start", "packets"]), inner, max_size=3), max_leaves=6)


def _json_paths(node, prefix=()):
    yield prefix
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _json_paths(v, (*prefix, k))
    elif isinstance(node, list):
        for i, v in enumerate(node[:3]):
            yield from _json_paths(v, (*prefix, i))


@st.composite
def native_files(draw):
    """A mutated T-Rex ramp or iperf3 document (from the documented and the real shapes), or raw bytes."""
    name = draw(st.sampled_from(["trex.json", "iperf3.json"]))
    if draw(st.integers(0, 9)) == 0:
        return name, draw(st.binary(max_size=200) | st.sampled_from([b"[" * 5000, b"1" * 5000, b'{"stats": {"1e999": {"0": {"tx_pps": 1}}}}']))
    doc = copy.deepcopy(TREX if name == "trex.json" else IPERF3)
    paths = [p for p in _json_paths(doc) if p] or [()]
    for _ in range(draw(st.integers(1, 4))):
        path = draw(st.sampled_from(paths))
        parent = doc
        try:
            for key in path[:-1]:
                parent = parent[key]
            parent[path[-1]] = draw(json_values)
        except (KeyError, IndexError, TypeError):
            continue
    text = json.dumps(doc, ensure_ascii=draw(st.booleans()), default=str)
    return name, text.encode("utf-8", "surrogatepass")


@given(native_files())
@settings(FUZZ, max_examples=EXAMPLES["native"])
def test_fuzz_native_files(work, case):
    name, data = case
    check_replaced(work / "fuzz-set", name, data, json.dumps(TREX if name == "trex.json" else IPERF3))


@pytest.mark.skipif(SCALE < 1, reason="a reduced run asked for by WIRESPEED_FUZZ_SCALE")
def test_enough_inputs():
    assert sum(EXAMPLES.values()) >= 10_000
