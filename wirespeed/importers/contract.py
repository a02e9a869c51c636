"""The importer contract: what an entry point of the group `wirespeed.importers` is.

An importer reads the native output of one tool format. It is ONE object, registered under the
entry-point group `wirespeed.importers` (name = the FORMAT of `wirespeed import FORMAT` and the
`importer` of a `[files].native` entry), and it is an instance of `Importer`:

    # pyproject.toml
    [project.entry-points."wirespeed.importers"]
    iperf3 = "wirespeed.importers.iperf3:IMPORTER"

    # wirespeed/importers/iperf3.py
    IMPORTER = Importer(summary="iperf3 --json ...", sniff=sniff, describe=describe, convert=convert,
                        examples=("docs/importers/examples/iperf3/udp.json",))

It does two jobs at two times:

- at import time (`wirespeed import`), `sniff` recognises a file for `wirespeed import auto` and
  `describe` reads the whole file and returns an `ImportPlan`: everything the file states about the
  result set (tests, instrument and its version, dates, frame sizes, loads, variants), the
  `[files].native` entries that make the set re-import the file, and the fields it does NOT state;
- at load time (`wirespeed validate`, `ingest`, `make`), `convert` turns the file named by one
  `[files].native` entry into rows of the canonical tables (measurements, samples, histograms).

Importers never write files: `wirespeed.importers.plan` merges plans into a result set and
`wirespeed.resultset.writer` writes it. Every problem is a `wirespeed.problems.Problem` (one line:
file, place, what was expected); importers never raise on bad input.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from wirespeed.problems import Problem

if TYPE_CHECKING:
    from wirespeed.resultset.model import Row, TestSpec

HEAD_BYTES = 65536
"""How much of a file `sniff` is shown (the whole file when it is shorter)."""

Sniff = Callable[[bytes, str], float]
"""`sniff(head, name) -> confidence`: 0.0 = not this format, 1.0 = certainly this format.

`head` is the first HEAD_BYTES of the file (it may end mid-token: do not parse it as a whole),
`name` its file name (a hint only: the content decides). Must be fast and never raise."""

Describe = Callable[[bytes, str], "ImportPlan"]
"""`describe(data, name) -> ImportPlan`: read one whole native file and say what it states."""

Convert = Callable[[bytes, str, dict, "TestSpec"], "tuple[list[Row], list[Problem], int]"]
"""`convert(data, file, spec, test) -> (rows, problems, rows_read)`, called at load time.

`data` is the file's bytes (already read safely), `file` its display path for problems, `spec` the
`[files].native` entry (path, importer, test and the optional frame_size, variant, direction, part),
`test` the resolved TestSpec of `spec["test"]`. Returns only the rows of that test (a file holding
several tests is declared once per test), the problems found, and how many records it read.
`wirespeed import` also calls it before writing, with a draft test (wirespeed.importers.importing.
DraftTest: id, meta, methodology, imixes; no link, as the port speed may not be known yet): the
conversion must need no more than those."""


@dataclass
class TestPlan:
    """One `[[tests]]` table as the file states it."""

    id: str
    """Test id (a slug), e.g. "ndr-pdr" or "udp-20m"; the framework makes it unique within the set."""
    fields: dict[str, Any] = field(default_factory=dict)
    """The `[[tests]]` keys the file states, in result.toml's vocabulary: title, rfc, scenario,
    topology, ports, port_speed, direction, address_family, description, methodology
    (frame_sizes, offered_loads_pct, trials, trial_duration_s, loss_tolerance_pct, …), variants."""
    native: list[dict[str, Any]] = field(default_factory=lambda: [{}])
    """The `[files].native` entries of this test for the described file, without `path`,
    `importer` and `test` (the framework adds them): `{}`, or keys such as frame_size, variant,
    direction, and `part` (which part of a file holding several tests this entry imports, e.g. an
    NFVbench chain; convert reads it from `spec`). One entry per distinct set of rows; default `[{}]`."""


@dataclass
class ImportPlan:
    """Everything one native file states about its result set, returned by `describe`."""

    format: str
    """The importer's entry-point name (the FORMAT)."""
    tests: list[TestPlan] = field(default_factory=list)
    """The tests the file holds (at least one, unless `problems` has an error)."""
    instrument: dict[str, Any] = field(default_factory=dict)
    """`[instrument]` keys the file states: vendor, product, modules, software = [{name, version}]."""
    dut: dict[str, Any] = field(default_factory=dict)
    """`[dut]` keys the file states (rarely any: tools seldom know the device)."""
    campaign: dict[str, Any] = field(default_factory=dict)
    """`[campaign]` keys the file states: start, end (ISO dates), location, lab."""
    source: dict[str, Any] = field(default_factory=dict)
    """`[source]` keys the file states besides kind = "imported" (e.g. published = the run date)."""
    methodology: dict[str, Any] = field(default_factory=dict)
    """Set-level `[methodology]` keys the file states (frame_sizes, loss_tolerance_pct, …)."""
    unstated: list[str] = field(default_factory=list)
    """Fields the contributor must supply because the file does not state them, as dotted paths
    ("dut.vendor", "tests.udp-20m.port_speed"); the framework adds every schema-required field
    still missing, and `wirespeed import` names them all in one list at the end."""
    problems: list[Problem] = field(default_factory=list)
    """Problems found; any of severity "error" means nothing is written."""
    converted: tuple[str, bytes] | None = None
    """(file name, bytes) to keep in the set INSTEAD of the native file, when the native file's type
    may not be published (an HTML report): the importer's safe extraction of it (e.g. JSON)."""


@dataclass(frozen=True)
class Importer:
    """An entry point of `wirespeed.importers`: a native tool format, read at import and load time."""

    summary: str
    """One line on what it reads; `wirespeed plugins importers` prints it."""
    sniff: Sniff
    """Recognise the format from the head of a file, for `wirespeed import auto`."""
    describe: Describe
    """Read a whole file into an ImportPlan, for `wirespeed import`."""
    convert: Convert
    """Turn the file of one `[files].native` entry into rows, when a result set is loaded."""
    describe_pair: Callable[[bytes, str, bytes, str], ImportPlan] | None = None
    """Optional, for formats whose files come in pairs (pcap: before and after the device):
    `describe_pair(data1, name1, data2, name2)`; `wirespeed import FORMAT FILE1 FILE2` then declares
    ONE [files].native entry with path = FILE1 and pair = FILE2. Its `convert` reads the pair from the
    set folder (safely, like every set file), or, during `wirespeed import` before the set is written,
    from spec["pair_data"] (bytes) and spec["pair_shown"] (the name for problems)."""
    examples: tuple[str, ...] = ()
    """Example files of the format (repository-relative paths, under docs/importers/examples/):
    its documentation, and the test input of `wirespeed import auto`."""
    kinds: tuple[str, ...] = ("json",)
    """The kinds of file it reads (names of wirespeed.resultset.attachments.KINDS: json, csv, text,
    xml, parquet, pcap, pcapng, …), checked against a file's content: `wirespeed import` keeps a
    native file under a name ending in its kind's extension (`run.res` holding JSON becomes
    `run.res.json`) and loading refuses a native file of a kind its importer does not read. Any of
    them may arrive compressed (gzip, Zstandard): importers always see the decompressed bytes."""
    converts: tuple[str, ...] = ()
    """Kinds it reads only to convert (ImportPlan.converted), never kept in a set: ("html",) for an
    HTML report. Any other importer given an HTML page refuses it before reading it."""

    def __call__(self, data: bytes, file: str, spec: dict, test: TestSpec) -> tuple[list[Row], list[Problem], int]:
        """Same as convert: what `wirespeed.importers.run_importer` calls at load time."""
        return self.convert(data, file, spec, test)
