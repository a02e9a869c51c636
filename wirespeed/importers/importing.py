"""`wirespeed import FORMAT FILE… --into SLUG`: native files into a result set, through the importers'
`describe` (wirespeed.importers.contract), the plan merger and the one result-set writer.

Everything is read, described and merged before anything is written; a problem with any file
means nothing is written. The native files are copied into the set under native/ and declared
under [files].native, so loading the set (and `make`) re-imports them.
"""

from __future__ import annotations

import hashlib
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path

from wirespeed.importers import importers
from wirespeed.importers.contract import HEAD_BYTES, Importer, ImportPlan
from wirespeed.importers.kinds import html_page, kept_name
from wirespeed.importers import plan as planning
from wirespeed.problems import InputError, Problem, display_path
from wirespeed.resultset.methodology import merged

AUTO = "auto"


@dataclass
class Outcome:
    """What an import did (or, with dry_run, would do)."""

    folder: Path
    created: bool
    chosen: list[tuple[str, str]] = field(default_factory=list)  # (file, format) picked by auto
    rows: dict[str, int] = field(default_factory=dict)  # native path → rows it yields
    loaded: dict[str, list] = field(default_factory=dict)  # native path → the rows themselves (wirespeed.resultset.model.Row)
    kept: dict[str, str] = field(default_factory=dict)  # native path → the format that reads it
    sources: dict[str, str] = field(default_factory=dict)  # native path → the file it was imported from
    tests: list[str] = field(default_factory=list)
    native: list[str] = field(default_factory=list)
    unstated: list[str] = field(default_factory=list)
    toml: str = ""
    written: bool = False
    warnings: list[Problem] = field(default_factory=list)  # the importers' warnings (one line each)


def read_limit() -> int:
    """The most `wirespeed import` reads of one file: the largest limit of any kind a set keeps (the
    importer, and so the kind's own limit, is known only once the content is recognised)."""
    from wirespeed.resultset.attachments import TYPES
    from wirespeed.resultset.limits import value

    return max(value(t.size_limit) for t in TYPES)


def read_native(path: Path) -> tuple[bytes | None, list[Problem]]:
    """A native file's bytes as stored: any regular file, whatever its name, within the read limit.
    Its content decides what it is (`unpack`, `detect`, wirespeed.importers.kinds)."""
    from wirespeed.resultset.limits import human

    shown = display_path(path)
    try:
        st = os.stat(path)
    except OSError as exc:
        return None, [Problem(shown, None, "", f"cannot be read: {exc.strerror}", "import.read")]
    if not stat.S_ISREG(st.st_mode):
        return None, [Problem(shown, None, "", "not a regular file", "import.read")]
    limit = read_limit()
    if st.st_size > limit:
        return None, [Problem(shown, None, "", f"{st.st_size:,} bytes: more than the limit of {human(limit)} for any file a result set keeps", "limit.file-size")]
    with open(path, "rb") as f:
        data = f.read(limit + 1)
    if len(data) > limit:
        return None, [Problem(shown, None, "", f"more than the limit of {human(limit)} for any file a result set keeps", "limit.file-size")]
    return data, []


def unpacked(data: bytes, shown: str) -> tuple[bytes | None, str | None, list[Problem]]:
    """The bytes the file holds (decompressed, within the limit), its compression, problems."""
    from wirespeed.resultset.compressed import unpack

    return unpack(data, shown)


def detect(data: bytes, name: str, shown: str, found: dict[str, Importer]) -> tuple[str | None, list[Problem]]:
    """The format whose importer is most confident about the file; a problem if none or a tie."""
    head = data[:HEAD_BYTES]
    scores = []
    for fmt, imp in found.items():
        try:
            score = float(imp.sniff(head, name))
        except Exception:  # noqa: BLE001 - a sniffer that breaks is a sniffer that says no
            score = 0.0
        if score > 0:
            scores.append((score, fmt))
    scores.sort(reverse=True)
    if not scores:
        from wirespeed.importers.kinds import found as holding

        return None, [Problem(shown, None, "", f"no importer recognises this file: it holds {holding(data)}; expected one of the formats "
                              f"{', '.join(found)} (wirespeed import --help says what each reads)", "import.unknown-format")]
    if len(scores) > 1 and scores[0][0] == scores[1][0]:
        tied = ", ".join(f for s, f in scores if s == scores[0][0])
        return None, [Problem(shown, None, "", f"ambiguous: equally likely {tied}; name the format instead of auto", "import.ambiguous-format")]
    return scores[0][1], []


def _existing_natives(folder: Path, doc) -> dict[str, str]:
    """sha256 → path of the native files the set already declares."""
    out: dict[str, str] = {}
    for entry in (doc.get("files", {}) or {}).get("native", []) or []:
        p = folder / str(entry.get("path", ""))
        if p.is_file() and not p.is_symlink():
            data, probs = read_native(p)
            if data is not None and not probs:
                out[hashlib.sha256(data).hexdigest()] = str(entry["path"])
    return out


def import_files(fmt: str, paths: list[Path], root: Path, slug: str, dry_run: bool = False, outside: str | None = None) -> Outcome:
    """Describe every file with its importer, merge the plans into root/slug/result.toml and write the
    set (unless dry_run). Raises InputError with one problem per finding; then nothing is written.
    outside: captures kept outside the set at this location (pcap only: importers/pcap_outside.py)."""
    from wirespeed.resultset.schemacheck import schema
    from wirespeed.resultset.writer import WriteError, read_document, write_set
    from wirespeed.resultset.scaffold import SLUG

    found = importers()
    if not SLUG.match(slug) or len(slug) > 80:
        raise InputError([Problem(slug, None, "--into", "not a valid slug: lower-case letters, digits and single dashes, at most 80 characters", "import.slug")])
    if fmt != AUTO and fmt not in found:
        raise InputError([Problem(fmt, None, "FORMAT", f"no such importer (formats: {AUTO}, {', '.join(found)})", "import.unknown-format")])
    folder = root / slug
    try:
        existing = read_document(folder)
    except WriteError as exc:
        raise InputError([Problem(display_path(folder / "result.toml"), None, "", str(exc).split(": ", 1)[-1], "import.existing-set")]) from None
    doc = existing if existing is not None else planning.new_document(slug)
    out = Outcome(folder, existing is None)
    problems: list[Problem] = []
    described: list[tuple] = []  # (shown, (kept name, kept bytes), plan, pair's (name, bytes, shown) or None)
    seen = _existing_natives(folder, doc) if existing is not None else {}
    paired = fmt != AUTO and len(paths) == 2 and found[fmt].describe_pair is not None
    if outside is not None:
        described += _outside(fmt, paths, outside, seen, problems)
    for path in [] if outside is not None else paths[:1] if paired else paths:
        shown = display_path(path)
        raw, probs = read_native(path)
        if raw is None:
            problems += probs
            continue
        digest = hashlib.sha256(raw).hexdigest()
        if digest in seen:
            problems.append(Problem(shown, None, "", f"duplicated run: the same file is already imported as {seen[digest]}", "import.duplicate"))
            continue
        seen[digest] = shown
        data, compression, probs = unpacked(raw, shown)
        if data is None:
            problems += probs
            continue
        chosen = fmt
        if fmt == AUTO:
            chosen, probs = detect(data, path.name, shown, found)
            if chosen is None:
                problems += probs
                continue
            out.chosen.append((shown, chosen))
        if "html" not in found[chosen].converts and (page := html_page(data, shown)) is not None:
            problems.append(page)  # refused before the importer reads it: no set keeps HTML
            continue
        second = None
        if paired:
            raw2, probs = read_native(paths[1])
            data2, compression2, more = unpacked(raw2, display_path(paths[1])) if raw2 is not None else (None, None, [])
            if data2 is None:
                problems += probs + more
                continue
            second = (paths[1], raw2, data2, compression2)
            plan = found[chosen].describe_pair(data, shown, data2, display_path(paths[1]))
        else:
            plan = found[chosen].describe(data, shown)
        problems += plan.problems
        if not any(p.severity == "error" for p in plan.problems):
            if not plan.tests:
                problems.append(Problem(shown, None, "", f"{chosen}: the file holds no test", f"import.{chosen}"))
                continue
            if plan.converted is not None:  # kept instead of the original, under the importer's name for it
                kept = hashlib.sha256(plan.converted[1]).hexdigest()
                if kept in seen:
                    problems.append(Problem(shown, None, "", f"duplicated run: the same file is already imported as {seen[kept]}", "import.duplicate"))
                    continue
                seen[kept] = shown
                name, probs = kept_name(plan.converted[0], plan.converted[1], None, found[chosen], chosen, shown)
                keep = (name, plan.converted[1])
            else:
                name, probs = kept_name(path.name, data, compression, found[chosen], chosen, shown)
                keep = (name, raw)
            if second is not None and name is not None:
                name2, more = kept_name(second[0].name, second[2], second[3], found[chosen], chosen, display_path(second[0]))
                probs += more
                second = (name2, second[1], display_path(second[0]))
            problems += probs + _size_problems(keep, shown) + (_size_problems(second[:2], second[2]) if second and second[0] else [])
            if name is not None and not probs:
                described.append((shown, keep, plan, second))
    if any(p.severity == "error" for p in problems):
        raise InputError(problems)
    out.warnings = [p for p in problems if p.severity == "warning"]
    files: dict[str, bytes] = {}
    taken = {str(e.get("path")) for e in (doc.get("files", {}) or {}).get("native", []) or []}
    if folder.is_dir():
        taken |= {p.relative_to(folder).as_posix() for p in folder.rglob("*")}
    wanted: list[str] = []
    sources: dict[str, str] = {}
    for shown, (name, data), plan, second in described:
        rel = planning.native_name(name, taken)
        taken.add(rel)
        files[rel] = data
        sources[rel] = shown
        out.sources[rel] = shown
        out.native.append(rel)
        out.kept[rel] = plan.format
        ids = planning.merge(doc, plan, rel)
        if second is not None:  # a pair: one entry reads both files
            rel2 = planning.native_name(second[0], taken)
            taken.add(rel2)
            files[rel2] = second[1]
            sources[rel2] = second[2]
            out.native.append(rel2)
            for entry in doc["files"]["native"]:
                if entry.get("path") == rel:
                    entry["pair"] = rel2
        out.tests += [t for t in ids if t not in out.tests]
        renamed = {t.id: i for t, i in zip(plan.tests, ids)}
        wanted += _named(doc, [_rename(n, renamed) for n in plan.unstated])
    planning.finish(doc)
    problems = _converted(doc, files, sources, found, out)
    if any(p.severity == "error" for p in problems):
        raise InputError(problems)
    bad = planning.invalid(doc, schema())
    if bad:
        raise InputError([Problem(display_path(paths[0]) if len(paths) == 1 else slug, None, "", f"the files state a value result.toml cannot hold: {b}", "import.schema") for b in bad])
    required = planning.unstated(doc, schema())
    out.unstated = required + [w for w in dict.fromkeys(wanted) if w not in required]
    from wirespeed.resultset.writer import dumps

    out.toml = dumps(doc)
    if not dry_run:
        root.mkdir(parents=True, exist_ok=True)
        write_set(folder, doc, files)
        out.written = True
    return out


def _size_problems(keep: tuple[str, bytes], shown: str) -> list[Problem]:
    """The kept file within its type's size limit (the one loading the set will check)."""
    from wirespeed.resultset.attachments import native_type
    from wirespeed.resultset.limits import describe, value

    ftype = native_type(keep[0])
    if ftype is not None and len(keep[1]) > value(ftype.size_limit):
        return [Problem(shown, None, "", f"{len(keep[1]):,} bytes: more than the limit of {describe(ftype.size_limit)} for {ftype.what}", "limit.file-size")]
    return []


def _outside(fmt: str, paths: list[Path], location: str, seen: dict[str, str], problems: list[Problem]) -> list:
    """Captures kept outside the set: analysed from the local files, their figures kept instead."""
    from wirespeed.importers.pcap_outside import describe_outside

    shown = [display_path(p) for p in paths]
    if fmt != "pcap" or len(paths) > 2:
        problems.append(Problem(shown[0], None, "--keep-outside", "only for pcap: one capture, or a pair (before, after the device)", "import.keep-outside"))
        return []
    plan = describe_outside(paths, shown, location)
    problems += plan.problems
    if any(p.severity == "error" for p in plan.problems):
        return []
    kept = hashlib.sha256(plan.converted[1]).hexdigest()
    if kept in seen:
        problems.append(Problem(shown[0], None, "", f"duplicated run: the same captures are already imported as {seen[kept]}", "import.duplicate"))
        return []
    seen[kept] = shown[0]
    return [(shown[0], plan.converted, plan, None)]


def _named(doc, names: list[str]) -> list[str]:
    """An importer's unstated fields ("tests.<id>.port_speed", "dut.vendor") as validate names them,
    left out when the document has them (the contributor may have written them already)."""
    out = []
    tests = [str(t.get("id")) for t in doc.get("tests", [])]
    for name in names:
        parts = name.split(".")
        if parts[0] == "tests" and len(parts) >= 3 and parts[1] in tests:
            i = tests.index(parts[1])
            node, label = doc["tests"][i], f"tests[{i}]." + ".".join(parts[2:]) + f" (test {parts[1]})"
            parts = parts[2:]
        else:
            node, label = doc, name
        for p in parts:
            node = node.get(p) if hasattr(node, "get") else None
            if node is None:
                break
        if node is None:
            out.append(label)
    return out


def _rename(name: str, renamed: dict[str, str]) -> str:
    parts = name.split(".")
    if parts[0] == "tests" and len(parts) >= 3 and parts[1] in renamed:
        parts[1] = renamed[parts[1]]
    return ".".join(parts)


@dataclass
class DraftTest:
    """A test as the draft states it, for checking a file's rows before anything is written: the
    id, the declared fields (meta), the methodology merged over the set's, and the IMIX ids."""

    id: str
    meta: dict
    methodology: dict
    imixes: dict


def _converted(doc, files: dict[str, bytes], sources: dict[str, str], found: dict[str, Importer], out: Outcome) -> list[Problem]:
    """Run each new native entry's conversion on its file, as loading the set will: its problems
    stop the import; its row count is reported."""
    from wirespeed.importers import checked
    from wirespeed.importers.kinds import opened

    plain = planning._plain(doc)
    defaults = plain.get("methodology", {})
    tests = {t.get("id"): t for t in plain.get("tests", [])}
    problems: list[Problem] = []
    for spec in plain.get("files", {}).get("native", []):
        if spec["path"] not in files:
            continue
        t = tests.get(spec["test"], {})
        method = merged(defaults, t.get("methodology"))
        draft = DraftTest(spec["test"], t, method, {i.get("id"): i for i in method.get("imix", []) if isinstance(i, dict)})
        shown = sources[spec["path"]]
        if spec.get("pair") in files:  # a pair's second file, not written yet: handed over in memory
            spec = {**spec, "pair_data": files[spec["pair"]], "pair_shown": sources[spec["pair"]]}
        imp = found[spec["importer"]]
        data, probs = opened(spec["path"], files[spec["path"]], shown, imp, spec["importer"])
        if data is None:
            problems += probs
            continue
        rows, probs, _n = imp.convert(data, shown, spec, draft)
        rows, probs = checked(rows, probs, shown)
        problems += probs
        out.rows[spec["path"]] = out.rows.get(spec["path"], 0) + len(rows)
        out.loaded.setdefault(spec["path"], []).extend(rows)
    if not any(p.severity == "error" for p in problems):  # the physics gate, as validate runs it (wirespeed.checks.gate)
        from wirespeed.checks.gate import gate

        imported = [r for rows in out.loaded.values() for r in rows]
        problems += [p for p in gate(plain, imported, out.folder) if p.severity == "error"]
    return problems
