"""The importer fuzz corpus, built generically: every importer registered under the entry-point group
`wirespeed.importers` (built-in or added later) is fed its seeds, mutated the ways real exports and
hostile contributions differ from the happy path.

Seeds of an importer: its own `examples` and every real tool output under tests/real/ (and every
example under docs/importers/examples/) whose head the importer's `sniff` recognises. Mutations:
truncation, CR-only and CRLF line endings, a 200,000-character field, numbers of 5,000 digits, 1e999,
-nan, inf, NaN, deep nesting, invalid UTF-8, bidi and zero-width characters in names, control
characters, an empty file and flipped bytes. Every case must end in rows or in one-line problems,
never in an exception (run_case says which).
"""

from __future__ import annotations

import gzip
import random
import re
import zlib
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REAL = ROOT / "tests" / "real"
EXAMPLES = ROOT / "docs" / "importers" / "examples"
HUGE = 200_000  # characters of one field
DIGITS = 5_000  # digits of one number: above Python's int() limit of 4,300
SEED_BYTES = 256 * 1024  # mutations are made of the first SEED_BYTES of a larger seed (its truncations of the whole)

_NUMBER = re.compile(rb"(?<![\w.])\d+(?:\.\d+)?(?![\w.])")
_QUOTED = re.compile(rb'"([A-Za-z][^"\\\r\n]{1,40})"')
_CELL = re.compile(rb"(?m)^([A-Za-z][^,\t\r\n]{0,40})")


@dataclass(frozen=True)
class Case:
    """One input: which seed, which mutation, the bytes and the file name the importer sees."""

    seed: str
    mutation: str
    name: str
    data: bytes


def all_seed_files() -> list[Path]:
    """Every real tool output and every importer example (configuration and provenance files left out)."""
    files = [p for root in (REAL, EXAMPLES) for p in root.rglob("*") if p.is_file()]
    return sorted(p for p in files if p.name not in ("SOURCES.md",) and not p.name.endswith((".mapping.toml", ".md", ".LICENSE")))


def seeds_of(importer, files: list[Path]) -> list[Path]:
    """An importer's seeds: its examples, and the files whose head its sniff recognises."""
    own = [ROOT / e for e in importer.examples if (ROOT / e).is_file()]
    out = list(own)
    for p in files:
        if p in out:
            continue
        head = p.read_bytes()[:65536]
        try:
            score = float(importer.sniff(head, p.name))
        except Exception:  # noqa: BLE001 - the fuzz test itself calls sniff and reports its exceptions
            score = 0.0
        if score > 0:
            out.append(p)
    return out


def _sub_first(pattern: re.Pattern, data: bytes, repl: bytes, group: int = 0) -> bytes | None:
    m = pattern.search(data)
    if not m:
        return None
    return data[: m.start(group)] + repl + data[m.end(group):]


def _inflate(data: bytes) -> bytes:
    """A gzip seed's content (the mutations are of the content, then compressed again)."""
    try:
        return gzip.decompress(data)
    except (OSError, EOFError, zlib.error):
        return data


def mutations(data: bytes, name: str) -> list[tuple[str, bytes]]:
    """(mutation, bytes) for one seed; gzip seeds are mutated inside and compressed again (and also raw)."""
    if data[:2] == b"\x1f\x8b":
        inner = _inflate(data)
        out = [(f"gz:{m}", gzip.compress(d, mtime=0)) for m, d in _text_mutations(inner[:SEED_BYTES])]
        out += [("gz-truncated", data[: len(data) // 2]), ("gz-bomb", gzip.compress(b"{" + b" " * (64 << 20) + b"}", mtime=0))]
        return out
    whole = _text_mutations(data[:SEED_BYTES])
    whole += [(f"truncated-{k}", data[: len(data) * k // 8]) for k in (1, 3, 5, 7)]
    return whole


def _text_mutations(data: bytes) -> list[tuple[str, bytes]]:
    out: list[tuple[str, bytes]] = [("seed", data), ("empty", b""), ("bom-only", b"\xef\xbb\xbf"), ("blank", b"\n\n \n")]
    lf = data.replace(b"\r\n", b"\n")
    out.append(("cr-only", lf.replace(b"\n", b"\r")))
    out.append(("crlf", lf.replace(b"\n", b"\r\n")))
    out.append(("invalid-utf8", data[: len(data) // 2] + b"\xff\xfe\xc3" + data[len(data) // 2:]))
    out.append(("nul", data[: len(data) // 3] + b"\x00" + data[len(data) // 3:]))
    for label, number in (("digits", b"9" * DIGITS), ("1e999", b"1e999"), ("-1e999", b"-1e999"), ("-nan", b"-nan"),
                          ("nan", b"NaN"), ("inf", b"inf"), ("-inf", b"-Infinity"), ("tiny", b"1e-999"), ("negative", b"-1"),
                          ("big-int", b"18446744073709551617"), ("fraction-digits", b"0." + b"1" * DIGITS)):
        got = _sub_first(_NUMBER, data, number)
        if got is not None:
            out.append((f"number-{label}", got))
            every = _NUMBER.sub(number, data, count=50)
            out.append((f"numbers-{label}", every))
    for label, text in (("bidi", "ex\u202egnp.exe"), ("zero-width", "Ci\u200bsco"), ("c1", "port\u0085x"), ("control", "a\x1bb"),
                        ("cyrillic", "\u0421\u0456\u0455\u0441\u043e"), ("fullwidth", "\uff23\uff49\uff53\uff43\uff4f")):
        enc = text.encode("utf-8")
        got = _sub_first(_QUOTED, data, enc, 1) or _sub_first(_CELL, data, enc, 1)
        if got is not None:
            out.append((f"name-{label}", got))
    big = _sub_first(_QUOTED, data, b"A" * HUGE, 1) or _sub_first(_CELL, data, b"A" * HUGE, 1)
    if big is not None:
        out.append(("huge-field", big))
    out.append(("huge-line", data + b"\n" + b"x," * HUGE + b"\n"))
    out.append(("deep-json", b'{"a":' * 100_000 + b"1" + b"}" * 100_000))
    out.append(("deep-arrays", b"[" * 200_000))
    out.append(("deep-xml", b"<a>" * 100_000))
    out.append(("xml-entities", b'<?xml version="1.0"?><!DOCTYPE r [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">'
                                b'<!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;">]><r>&d;&d;&d;</r>'))
    out.append(("unterminated-tags", b"<table><tr><td data-ltdata='" + b"<a " * 60_000))
    rnd = random.Random(len(data))
    for k in range(6):
        if not data:
            break
        b = bytearray(data)
        for _ in range(1 + k):
            b[rnd.randrange(len(b))] = rnd.choice(b'{}[],"0.:-\n\r /\xff<>=;\t')
        out.append((f"flipped-{k}", bytes(b)))
    return out


def cases(importer, files: list[Path]) -> list[Case]:
    out = []
    for seed in seeds_of(importer, files):
        data = seed.read_bytes()
        rel = seed.relative_to(ROOT).as_posix()
        for mutation, mutated in mutations(data, seed.name):
            out.append(Case(rel, mutation, seed.name, mutated))
    return out


# ---- running the cases (in a worker process: tests/test_fuzz_importers.py) ----------------------------

CASE_SECONDS = 60  # a case still running after this is a failure (the bound; cases take milliseconds)


def _strings(node, path=""):
    if isinstance(node, str):
        yield path, node
    elif isinstance(node, dict):
        for k, v in node.items():
            yield f"{path}.<key>", str(k)
            yield from _strings(v, f"{path}.{k}")
    elif isinstance(node, (list, tuple)):
        for i, v in enumerate(node):
            yield from _strings(v, f"{path}[{i}]")


def _bad_lines(problems) -> list[str]:
    out = []
    for p in problems:
        text = str(p)
        if "\n" in text or "\r" in text or not text.isprintable() or not p.rule or p.rule == "internal":
            out.append(f"not a clean one-line problem: {text!r}")
    return out


def run_case(fmt: str, importer, case: Case) -> list[str]:
    """What is wrong with one case (nothing: an empty list). `importer` is the gated one (importers())."""
    from wirespeed.importers import checked
    from wirespeed.importers.gate import plan_document
    from wirespeed.importers.importing import DraftTest
    from wirespeed.resultset.text import _refused

    wrong: list[str] = []
    score = importer.sniff(case.data[:65536], case.name)
    if not isinstance(score, float) or not 0.0 <= score <= 1.0:
        wrong.append(f"sniff returned {score!r}")
    plan = importer.describe(case.data, case.name)
    wrong += _bad_lines(plan.problems)
    errors = [p for p in plan.problems if p.severity == "error"]
    if not plan.tests and not errors:
        wrong.append("describe: neither a test nor an error")
    specs = []
    if plan.tests and not errors:
        for path, s in _strings(plan_document(plan)):
            if any(True for _ in _refused(s)):
                wrong.append(f"describe: refused character kept in {path}: {s[:40]!r}")
        for t in plan.tests:
            for extra in t.native:
                specs.append(({"path": case.name, "importer": fmt, "test": t.id, **extra}, DraftTest(t.id, t.fields, t.fields.get("methodology") or {}, {})))
    else:
        specs.append(({"path": case.name, "importer": fmt, "test": "t1"}, DraftTest("t1", {}, {}, {})))
    for spec, test in specs:
        rows, problems, _n = importer.convert(case.data, case.name, spec, test)
        rows, problems = checked(rows, problems, case.name)
        wrong += _bad_lines(problems)
        if not rows and not problems:
            wrong.append(f"convert {spec}: no row and no problem (a silent drop)")
        for r in rows:
            for k, v in r.keys.items():
                if isinstance(v, str) and any(True for _ in _refused(v)):
                    wrong.append(f"convert: refused character kept in key {k}: {v[:40]!r}")
    return wrong


def run(formats: list[str] | None = None) -> dict:
    """Every case of every (or the named) registered importer: {format: {"cases": n, "failures": [...]}},
    with the worker's peak memory. A case that raises or runs past CASE_SECONDS is a failure."""
    import signal
    import traceback

    from wirespeed.importers import importers

    class Late(Exception):
        pass

    def late(_sig, _frame):
        raise Late()

    signal.signal(signal.SIGALRM, late)
    files = all_seed_files()
    out: dict = {}
    for fmt, importer in importers().items():
        if formats and fmt not in formats:
            continue
        found = cases(importer, files)
        failures = []
        for case in found:
            signal.alarm(CASE_SECONDS)
            try:
                wrong = run_case(fmt, importer, case)
            except Late:
                wrong = [f"still running after {CASE_SECONDS} s"]
            except Exception as exc:  # noqa: BLE001 - what the fuzz is looking for
                tb = traceback.extract_tb(exc.__traceback__)[-1]
                wrong = [f"{type(exc).__name__}: {str(exc)[:160]} ({Path(tb.filename).name}:{tb.lineno})"]
            finally:
                signal.alarm(0)
            failures += [f"{case.seed} [{case.mutation}]: {w}" for w in wrong]
        out[fmt] = {"cases": len(found), "seeds": len({c.seed for c in found}), "failures": failures}
    out["peak_rss_bytes"] = peak_rss_bytes()
    return out


def peak_rss_bytes() -> int:
    """This process's own peak resident memory since it started (VmHWM: the high-water mark of the memory its exec
    made). getrusage's ru_maxrss is not that: Linux keeps it across fork and exec, so a worker started from a pytest
    process that had grown to gigabytes would report the parent's peak as its own."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


if __name__ == "__main__":
    import json
    import sys

    sys.path.insert(0, str(ROOT))
    print(json.dumps(run(sys.argv[1:] or None)))
