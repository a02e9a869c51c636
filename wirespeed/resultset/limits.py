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
    unit: str  # bytes | characters | rows | columns | files | levels | segments | tags | items | pixels
    rule: str
    what: str
    why: str


_TABLE = (
    Limit("file_size.toml", 1 * MiB, "bytes", "limit.file-size", "result.toml, and a TOML attachment",
          "The largest example result.toml is 12 KB; 1 MiB is 80 times that."),
    Limit("file_size.csv", 16 * MiB, "bytes", "limit.file-size", "a CSV table (measurements, samples, histograms) or CSV attachment",
          "The largest example table is 6 KB; 16 MiB holds the row limit at 160 bytes a row."),
    Limit("file_size.json", 16 * MiB, "bytes", "limit.file-size", "a native JSON file read by an importer, or a JSON attachment",
          "The largest example (iperf3 --json of a 90 s ramp) is 112 KB; 16 MiB is an iperf3 run of several hours. "
          "Parsed JSON takes about ten times its size in memory."),
    Limit("file_size.text", 8 * MiB, "bytes", "limit.file-size", "a text attachment (.txt, .log, .cfg, .conf)",
          "Configurations and logs of one test campaign; the example logs are under 4 KB."),
    Limit("file_size.pdf", 32 * MiB, "bytes", "limit.file-size", "a PDF attachment",
          "A scanned test report of a few hundred pages."),
    Limit("file_size.png", 8 * MiB, "bytes", "limit.file-size", "a PNG attachment",
          "A full-resolution screenshot of a test tool."),
    Limit("file_size.pcap", 32 * MiB, "bytes", "limit.file-size", "a packet capture attachment (.pcap, .pcapng)",
          "A sample capture, not a full run: GitHub warns above 50 MB a file."),
    Limit("set_size", 128 * MiB, "bytes", "limit.set-size", "all files of one result set together",
          "Four times the largest single file; GitHub Pages publishes at most 1 GB a site."),
    Limit("set_files", 256, "files", "limit.files", "files and folders in one result set",
          "The examples have at most 13."),
    Limit("path_segments", 8, "segments", "limit.path-depth", "folder levels of a path inside a result set (file name included)",
          "The examples use 2 (raw/iperf3-clients.json)."),
    Limit("table_rows", 100_000, "rows", "limit.rows", "data rows of one CSV table or one native file",
          "The largest example table has 232 rows; 100,000 is a day of per-second samples of one port. "
          "A table of 100,000 rows validates in about 30 s and 340 MB on the build machine."),
    Limit("set_rows", 200_000, "rows", "limit.rows", "data rows of one result set, all tables and native files together",
          "A loaded row takes about 3.4 KB: 200,000 rows keep validate and ingest under 1 GiB of memory."),
    Limit("table_columns", 64, "columns", "limit.columns", "columns of one CSV table",
          "A table can use at most 33 known columns (keys and metrics)."),
    Limit("line_bytes", 64 * KiB, "bytes", "limit.line", "one line of a CSV table",
          "64 columns of 256 four-byte characters; the longest example line is under 100 bytes."),
    Limit("cell_chars", 256, "characters", "limit.cell", "one cell of a CSV table",
          "Keys are ids and numbers; the longest example cell has 22 characters."),
    Limit("string_chars", 8192, "characters", "limit.string", "one string (or key) in result.toml",
          "The longest example text (a methodology description) has 658 characters."),
    Limit("depth", 32, "levels", "limit.depth", "nesting of arrays, tables and dotted keys in TOML, and of arrays and objects in JSON",
          "result.toml nests 5 levels, iperf3 --json 7; parsers recurse, so depth is measured before parsing."),
    # Attachments and the lists that reach the site and the PDF report (issue 28: what validates must build).
    Limit("tags", 32, "tags", "limit.tags", "tags of one result set (result.toml's tags)",
          "The examples have at most 7. The PDF report writes them into its keywords, which XeLaTeX (hyperref) "
          "processes in time that grows with the square of their number: 500 tags took 50 s more than none, "
          "20,000 over 11 minutes; 32 take well under a second."),
    Limit("list_items", 1024, "items", "limit.list", "items of any other list in result.toml (tests, frame sizes, loads, components, "
          "software, authors, errata, comparisons, …)",
          "The examples' longest list has 17 items. Lists reach the site and the PDF report as table rows and sentences: "
          "a report with 1,024 items in each of its test-bed, methodology and errata lists builds in about 16 s."),
    Limit("png_pixels", 40_000_000, "pixels", "limit.png-pixels", "pixels of a PNG attachment (width × height)",
          "An 8K screenshot has 33 million; the image data of 40 million 16-bit RGBA pixels (320 MB) is inflated, "
          "streamed and counted, in about a second."),
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
    """'16 MiB' for a limit key."""
    lim = LIMITS[key]
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
        "| Limit | Value | Applies to | Rule | Why this value |",
        "|---|---|---|---|---|",
    ]
    for lim in _TABLE:
        lines.append(f"| `{lim.key}` | {human(lim.value, lim.unit)} | {lim.what} | `[{lim.rule}]` | {lim.why} |")
    lines += [
        "",
        "Besides these numbers, a result set is refused when it contains a symbolic link anywhere (`[layout.symlink]`,",
        "never followed), a file that is not a regular file or folder, or is a hard link (`[layout.file-type]`), a declared path that",
        "leaves the folder or is not made of plain names (`[layout.path]`), or an attachment whose type is not on the",
        "allowlist in `wirespeed/resultset/attachments.py` (`[layout.attachment-type]`).",
        "",
    ]
    return "\n".join(lines)

