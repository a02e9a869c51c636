"""The limits on result-set input: one table, the only place the numbers live.

Every file of a result set is untrusted input. Each limit below is checked before the data
it bounds is read (file sizes with lstat/fstat) or while it is streamed (rows, lines, cells),
and the first limit hit stops the file with one line naming the file, the place and the
rule. docs/limits.md is generated from this table by markdown() and a test keeps the two equal.
"""

from __future__ import annotations

from dataclasses import dataclass

KiB, MiB = 1024, 1024 * 1024


@dataclass(frozen=True)
class Limit:
    """One bound on input: its value, its unit, the rule a breach reports, and why this value."""

    key: str
    value: int
    unit: str  # bytes | characters | digits | rows | columns | items | tests | interfaces | elements | files | levels | segments
    rule: str
    what: str
    why: str
    guarantees: str = ""  # the time and memory the bound holds work to (measured: bench/limits.py)


_TABLE = (
    Limit("file_size.toml", 1 * MiB, "bytes", "limit.file-size", "result.toml, and a TOML attachment",
          "The largest example result.toml is 12 KB; 1 MiB is 80 times that.",
          "Compared with the size lstat/fstat give before a byte is read: a larger file costs one system call."),
    Limit("file_size.csv", 16 * MiB, "bytes", "limit.file-size", "a CSV table (measurements, samples, histograms) or CSV attachment",
          "The largest example table is 6 KB; 16 MiB holds the row limit at 160 bytes a row.",
          "Compared with the size lstat/fstat give before a byte is read: a larger file costs one system call."),
    Limit("file_size.json", 16 * MiB, "bytes", "limit.file-size", "a native JSON file read by an importer, or a JSON attachment",
          "The largest example (iperf3 --json of a 90 s ramp) is 112 KB; 16 MiB is an iperf3 run of several hours. "
          "Parsed JSON takes about ten times its size in memory.",
          "Compared before the file is read; the parse of 16 MiB of JSON peaks at about ten times that (160 MB)."),
    Limit("file_size.text", 8 * MiB, "bytes", "limit.file-size", "a text attachment (.txt, .log, .cfg, .conf)",
          "Configurations and logs of one test campaign; the example logs are under 4 KB.",
          "Compared with the size lstat/fstat give before a byte is read: a larger file costs one system call."),
    Limit("file_size.pdf", 32 * MiB, "bytes", "limit.file-size", "a PDF attachment",
          "A scanned test report of a few hundred pages.",
          "Compared with the size lstat/fstat give before a byte is read: a larger file costs one system call."),
    Limit("file_size.png", 8 * MiB, "bytes", "limit.file-size", "a PNG attachment",
          "A full-resolution screenshot of a test tool.",
          "Compared with the size lstat/fstat give before a byte is read: a larger file costs one system call."),
    Limit("file_size.pcap", 32 * MiB, "bytes", "limit.file-size", "a packet capture attachment (.pcap, .pcapng)",
          "A sample capture, not a full run: GitHub warns above 50 MB a file.",
          "Compared before the file is read; the capture engine keeps 35 bytes a frame, about 15 MB for 32 MiB of 64-byte frames."),
    Limit("file_size.xml", 16 * MiB, "bytes", "limit.file-size", "a native XML file read by an importer (a Robot Framework output.xml)",
          "As a native JSON file: a test run's log of a few thousand keywords.",
          "Compared with the size lstat/fstat give before a byte is read; parsed as a stream with defusedxml, within xml_depth and xml_elements."),
    Limit("file_size.parquet", 32 * MiB, "bytes", "limit.file-size", "a native Parquet file read by an importer",
          "A trending export of many tests; GitHub warns above 50 MB a file.",
          "Compared before the file is read; DuckDB reads it within parquet_columns, the row limit and a 512 MB memory limit."),
    Limit("file_size.compressed", 16 * MiB, "bytes", "limit.file-size", "a native file compressed with gzip or Zstandard (.gz, .zst), as stored",
          "The native JSON limit: a compressed file is smaller than what it holds.",
          "Compared with the size lstat/fstat give before a byte is read."),
    Limit("decompressed_size", 32 * MiB, "bytes", "limit.decompressed-size", "a compressed native file once decompressed "
          "(checked while decompressing: reading stops at the limit)",
          "Twice the native JSON limit, for a long flent or CSIT run; a compression bomb stops here, not in memory.",
          "Checked while decompressing, a megabyte at a time: at most this much plus one step is ever held in memory."),
    Limit("set_size", 128 * MiB, "bytes", "limit.set-size", "all files of one result set together",
          "Four times the largest single file; GitHub Pages publishes at most 1 GB a site.",
          "Summed from lstat while the folder is walked, before any file is read."),
    Limit("set_files", 256, "files", "limit.files", "files and folders in one result set",
          "The examples have at most 13.",
          "Counted while the folder is walked: the walk stops at the 257th entry."),
    Limit("path_segments", 8, "segments", "limit.path-depth", "folder levels of a path inside a result set (file name included)",
          "The examples use 2 (raw/iperf3-clients.json).",
          "Checked on the path before it is opened."),
    Limit("table_rows", 100_000, "rows", "limit.rows", "data rows of one CSV table or one native file (a capture, a Parquet file, a tool's table)",
          "The largest example table has 232 rows; 100,000 is a day of per-second samples of one port.",
          "A table of 100,000 rows validates in about 30 s and 340 MB on the build machine. An importer counts the rows "
          "it would make before it makes them (a capture: its groups, seconds and histogram buckets; a native table: its lines)."),
    Limit("set_rows", 200_000, "rows", "limit.rows", "data rows of one result set, all tables and native files together",
          "A loaded row takes about 3.4 KB: 200,000 rows keep validate and ingest under 1 GiB of memory.",
          "Counted file by file while the set loads: at most about 680 MB of loaded rows (3.4 KB each)."),
    Limit("table_columns", 64, "columns", "limit.columns", "columns of one CSV table",
          "A table can use at most 33 known columns (keys and metrics).",
          "Checked on the header before any data row is read."),
    Limit("line_bytes", 64 * KiB, "bytes", "limit.line", "one line of a CSV table, or of a CSV or text table an importer reads",
          "64 columns of 256 four-byte characters; the longest example line is under 100 bytes, the longest line of a real tool table (tests/real/) 2,316.",
          "A line is measured before the CSV parser sees it: a 200,000-character field is refused after reading 64 KiB of it."),
    Limit("cell_chars", 256, "characters", "limit.cell", "one cell of a CSV table, one number cell of a native table, and one name or key an importer takes from a native file (a port, stream or device name)",
          "Keys are ids and numbers; the longest example cell has 22 characters; a port, stream or device name is a short label.",
          "Checked before a cell is parsed as a number or kept as a key: no message quotes more than 60 characters of it."),
    Limit("string_chars", 8192, "characters", "limit.string", "one string (or key) in result.toml",
          "The longest example text (a methodology description) has 658 characters.",
          "Checked on the parsed document before the schema and the text rules run over it."),
    Limit("depth", 32, "levels", "limit.depth", "nesting of arrays, tables and dotted keys in TOML, and of arrays and objects in JSON",
          "result.toml nests 5 levels, iperf3 --json 7; parsers recurse, so depth is measured before parsing.",
          "Measured by a linear scan before parsing: 100,000 nested brackets are refused without recursion."),
    Limit("list_items", 1024, "items", "limit.list", "items of one array in result.toml (tags, frame sizes, loads, IMIX sizes, files, authors …)",
          "The examples list at most 12 items (frame sizes); RFC 2544 names 7 frame sizes; 1,024 is a frame size for every 16 bytes of a jumbo frame.",
          "Every loop over a list (schema, checks, tables, the site's filters, the PDF) is held to 1,024 turns; 20,000 tags are refused before the schema runs."),
    Limit("tests", 256, "tests", "limit.tests", "[[tests]] of one result set",
          "The examples declare at most 10 tests; a full RFC 2544/2889/3918 campaign of one device is a few dozen.",
          "Each test is a section of the article and of the PDF: 256 sections bound the typesetting of one report."),
    Limit("number_digits", 64, "digits", "limit.number", "digits of one number (integer, fraction and exponent) read from a native file",
          "A figure holds at most 30 digits before and 30 after the point (engine/numbers.py); Python's int() refuses more than 4,300 digits with an exception.",
          "Counted before int(), float() or Decimal() sees the text: a 5,000-digit number costs one scan of its characters."),
    Limit("frame_bytes", 16000, "bytes", "limit.frame", "one frame of a packet capture (its length on the wire, FCS included): the schema's largest max_frame_bytes",
          "The largest jumbo frame a switch port carries is 16,000 bytes (schema: tests.max_frame_bytes); a pcap length field holds up to 2^32 - 1, "
          "and a frame size must never be stored modulo 65,536.",
          "Checked per record by the compiled scanner, before the frame is decoded."),
    Limit("capture_interfaces", 1024, "interfaces", "limit.interfaces", "interface description blocks of one pcapng capture (all sections)",
          "A capture of one test sees a few interfaces; a 64-port chassis captured per port and direction has 128.",
          "The reader keeps per-interface arrays that grow by doubling: reading stays linear in the file (bench/capture_blocks.py)."),
    Limit("xml_depth", 64, "levels", "limit.depth", "nesting of elements of an XML file an importer reads (e.g. Robot Framework output.xml)",
          "A real CSIT output.xml (tests/real/fdio-csit/) nests 21 levels; ElementTree builds a tree, so depth is measured while parsing.",
          "Parsing stops at the first element past the limit; no DTD, entity or external reference is ever expanded (defusedxml)."),
    Limit("xml_elements", 1_000_000, "elements", "limit.xml-elements", "elements of one XML file an importer reads",
          "The real CSIT output.xml of 120 KB holds 2,258 elements; a 16 MiB file of the same density holds about 310,000.",
          "Counted while parsing: a million elements (30 MiB of Robot keywords) parsed in 8.7 s with a peak of 300 MiB on the shared build machine."),
    Limit("parquet_columns", 512, "columns", "limit.columns", "columns of one Parquet file read through DuckDB",
          "The CSIT Parquet files of tests/real/fdio-csit/ have 70 (ETL glue, NDR/PDR), 37 and 31 (trending schemas) columns.",
          "Read from the file's footer before any row is read (importers/columnar.py), as is the row count (table_rows); text longer than string_chars is refused before rows become Python objects; DuckDB runs with a 512 MB memory limit."),
)

LIMITS: dict[str, Limit] = {lim.key: lim for lim in _TABLE}


def value(key: str) -> int:
    """The value of one limit."""
    return LIMITS[key].value


def human(n: int, unit: str = "bytes") -> str:
    """A limit or a measured amount as people read it: 16 MiB, 100,000 rows."""
    if unit == "bytes":
        for size, name in ((MiB, "MiB"), (KiB, "KiB")):
            if n >= size:
                q = n / size
                return f"{q:.0f} {name}" if q == int(q) else f"{q:.1f} {name}"
        return f"{n} bytes"
    return f"{n:,} {unit}"


def describe(key: str) -> str:
    """'16 MiB' for a limit key ('16,000 bytes' for one that is not a whole number of KiB)."""
    lim = LIMITS[key]
    if lim.unit == "bytes" and lim.value % KiB:
        return f"{lim.value:,} bytes"
    return human(lim.value, lim.unit)


def markdown() -> str:
    """docs/limits.md: the table above, for people."""
    lines = [
        "# Input limits",
        "",
        "<!-- Generated from the table in wirespeed/resultset/limits.py; do not edit. Regenerate with",
        "     .venv/bin/python -c 'from wirespeed.resultset.limits import markdown; print(markdown(), end=\"\")' > docs/limits.md -->",
        "",
        "Every file of a result set is untrusted input. `wirespeed validate` and `wirespeed ingest` check these",
        "limits before reading the data they bound (sizes come from `lstat`/`fstat`) or while streaming it (lines,",
        "rows, cells), and stop a file at the first limit it passes with one line naming the file, the place and",
        "the rule, for example `data/results/x/big.csv: 223 MiB is above the limit of 16 MiB for a CSV table [limit.file-size]`.",
        "A result set that passes a limit is refused as a whole.",
        "",
        "| Limit | Value | Applies to | Rule | Why this value | What it guarantees |",
        "|---|---|---|---|---|---|",
    ]
    for lim in _TABLE:
        lines.append(f"| `{lim.key}` | {describe(lim.key)} | {lim.what} | `[{lim.rule}]` | {lim.why} | {lim.guarantees} |")
    lines += [
        "",
        "Besides these numbers, a result set is refused when it contains a symbolic link anywhere (`[layout.symlink]`,",
        "never followed), a file that is not a regular file or folder, or is a hard link (`[layout.file-type]`), a declared path that",
        "leaves the folder or is not made of plain names (`[layout.path]`), or an attachment whose type is not on the",
        "allowlist in `wirespeed/resultset/attachments.py` (`[layout.attachment-type]`), or a native file whose name ends in no",
        "kind of that table (`[layout.native-type]`) or whose content is not the kind (and compression) its name states.",
        "",
        "A compressed native file (gzip, Zstandard) is held to `decompressed_size`, measured while it is decompressed:",
        "reading stops a step past the limit (`wirespeed/resultset/compressed.py`, `[limit.decompressed-size]`).",
        "Every string an importer takes from a native file passes the same text rules as result.toml (`[text.*]`).",
        "",
    ]
    return "\n".join(lines)

