"""What may be copied into build/ and public/, and how: the publishing side's own re-check.

Every file of a result set is untrusted. Validation refuses bad paths and types first; this module
checks again at the moment of copying, so a catalog row that names `docs/../../.git/config`, a
symlink, or an HTML attachment never reaches the site even if validation was bypassed:

- the source is a regular file (never a symlink, at any level below the set's folder) whose
  resolved path is inside the set's folder;
- the destination's resolved path is inside the output root, and is a new file (no overwrite);
- only an allowlist of types is published; text-like types get a `.txt` extension; HTML, SVG, XML,
  JavaScript and anything unknown are refused;
- a set's file must be, read to its end, what its type says (the check validation applies,
  wirespeed.resultset.attachments.check_bytes: no PDF with active content, no polyglot);
- CSV files have spreadsheet formulas neutralised for every separator (wirespeed.system.csvsafe);
- captures (pcap, pcapng, ERF) are published gzip-compressed, as `<name>.gz`: Wireshark and tshark open them as they
  are, and a capture of repeated test frames is about a sixth of its size. The set's own file stays as it is.
"""

from __future__ import annotations

import gzip
import os
import re
import stat
from pathlib import Path, PurePosixPath

from wirespeed.system import csvsafe, regularfile
from wirespeed.resultset.attachments import TYPES, check_bytes, file_type

# The types come from the one allowlist that validation also uses (wirespeed.resultset.attachments).
# Published as they are: data, metadata, documents, captures, and the Parquet export the site adds.
AS_IS = {ext for t in TYPES for ext in t.extensions if not t.media_type.startswith("text/plain")} | {".txt", ".parquet"}
# Plain text under another name (.log, .cfg, .conf, a native .xml): published with ".txt" appended, so no host serves it as code.
AS_TEXT = {ext for t in TYPES if t.media_type.startswith("text/plain") for ext in t.extensions} - {".txt"}
# Kept only as native files an importer reads (XML, Parquet, compressed): never published as an attachment.
NATIVE_ONLY = {ext for t in TYPES if t.native for ext in t.extensions}
# Captures, published gzip-compressed under their name + ".gz" (the set's file is checked first, then compressed).
GZIPPED = {ext for t in TYPES if t.name in ("pcap", "pcapng", "erf") for ext in t.extensions}
SAFE_SLUG = re.compile(r"^[a-z0-9][a-z0-9._-]{0,127}$")
SAFE_PART = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.+-]{0,199}$")


class PublishRefused(RuntimeError):
    """A file of a result set may not be published; the message is one line naming the set and the file."""


def check_slug(slug: str) -> None:
    if not SAFE_SLUG.match(slug or ""):
        raise PublishRefused(f"{slug!r}: not publishable: the slug is not lower-case letters, digits, '.', '_' and '-' [publish.slug]")


def _parts(slug: str, rel: str) -> tuple[str, ...]:
    p = PurePosixPath(rel)
    if not rel or p.is_absolute() or "\\" in rel or any(part in ("", ".", "..") or not SAFE_PART.match(part) for part in rel.split("/")):
        raise PublishRefused(f"{slug}: {rel}: not published: the path must be relative, inside the set's folder, without '..' "
                             "and of letters, digits, '_', '.', '+' and '-' [publish.path]")
    return p.parts


def published_name(slug: str, rel: str, native: bool = False) -> str:
    """The name a set file is published under (the same path, '.txt' appended to text-like types, '.gz' to captures);
    refuses other types, and the native-only types (XML, Parquet, compressed) of a file that is not a native file."""
    _parts(slug, rel)
    suffix = PurePosixPath(rel).suffix.lower()
    if suffix in NATIVE_ONLY and not native:
        raise PublishRefused(f"{slug}: {rel}: not published: type {suffix} is kept only as a native file an importer reads, "
                             "never as an attachment [publish.type]")
    if suffix in GZIPPED:
        return rel + ".gz"
    if suffix in AS_IS:
        return rel
    if suffix in AS_TEXT:
        return rel + ".txt"
    raise PublishRefused(f"{slug}: {rel}: not published: type {suffix or '(no extension)'} is not in the allowlist "
                         f"({', '.join(sorted(AS_IS | AS_TEXT))}) [publish.type]")


def _inside(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


def source_file(slug: str, set_dir: Path, rel: str) -> Path:
    """The set file `rel` if it is a regular file inside `set_dir` reached without any symlink; else PublishRefused."""
    parts = _parts(slug, rel)
    if set_dir.is_symlink() or not set_dir.is_dir():
        raise PublishRefused(f"{slug}: {set_dir}: not published: the set's folder is not a folder (or is a symlink) [publish.folder]")
    root = os.path.realpath(set_dir)
    src = Path(root, *parts)
    cur = Path(root)
    for part in parts:
        cur = cur / part
        try:
            st = os.lstat(cur)
        except OSError:
            raise PublishRefused(f"{slug}: {rel}: not published: no such file in the set's folder [publish.missing]") from None
        if stat.S_ISLNK(st.st_mode):
            raise PublishRefused(f"{slug}: {rel}: not published: {cur.relative_to(root)} is a symlink (never followed) [publish.symlink]")
    if not stat.S_ISREG(os.lstat(src).st_mode):
        raise PublishRefused(f"{slug}: {rel}: not published: not a regular file [publish.regular]")
    if not _inside(os.path.realpath(src), root):
        raise PublishRefused(f"{slug}: {rel}: not published: resolves outside the set's folder [publish.path]")
    return src


def destination(slug: str, out_root: Path, rel: str) -> Path:
    """`out_root/rel` if it resolves inside `out_root` and does not exist yet; else PublishRefused."""
    parts = _parts(slug, rel)
    out_root.mkdir(parents=True, exist_ok=True)
    root = os.path.realpath(out_root)
    dst = Path(root, *parts)
    if not _inside(os.path.realpath(dst), root):
        raise PublishRefused(f"{slug}: {rel}: not published: the destination resolves outside {out_root} [publish.destination]")
    if os.path.lexists(dst):
        raise PublishRefused(f"{slug}: {rel}: not published: {rel} would be written twice [publish.duplicate]")
    return dst


def _write_new(dst: Path, data: bytes) -> None:
    dst.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(dst, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
    with os.fdopen(fd, "wb") as f:
        f.write(data)


def copy_contained(slug: str, src_root: Path, rel: str, out_root: Path, dest_rel: str, check_type: bool = False) -> Path:
    """Copy src_root/rel to out_root/dest_rel with both ends checked; with check_type, the content must be
    what its type says (a set's file); CSV formulas neutralised; a capture gzip-compressed when dest_rel adds ".gz"
    (reproducibly: no name, no time in the gzip header). Returns the destination."""
    src = source_file(slug, src_root, rel)
    dst = destination(slug, out_root, dest_rel)
    try:
        data = regularfile.read(src)
    except OSError as exc:
        raise PublishRefused(f"{slug}: {rel}: not published: cannot read it as a regular file ({exc.strerror or exc}) [publish.regular]") from None
    ftype = file_type(rel) if check_type else None
    if ftype is not None and (found := check_bytes(data, ftype)) is not None:
        line, message, _rule = found
        raise PublishRefused(f"{slug}: {rel}{f':{line}' if line else ''}: not published: {message} [publish.content]")
    if dest_rel.lower().endswith(".csv"):
        try:
            data = csvsafe.neutralise_csv_bytes(data)
        except (UnicodeDecodeError, csvsafe.CsvRefused) as exc:
            raise PublishRefused(f"{slug}: {rel}: not published: not a CSV file that can be neutralised ({exc}) [publish.csv]") from None
    if PurePosixPath(dest_rel).name == PurePosixPath(rel).name + ".gz" and PurePosixPath(rel).suffix.lower() in GZIPPED:
        data = gzip.compress(data, compresslevel=6, mtime=0)  # level 9 is no smaller here and 15 times slower
    _write_new(dst, data)
    return dst


def publish_set_file(slug: str, set_dir: Path, rel: str, static_set_root: Path, role: str = "attachment") -> str:
    """Publish one file of a result set (its catalog role: native, attachment, …) under static_set_root/data/;
    returns its published path (relative to data/)."""
    name = published_name(slug, rel, native=role == "native")
    if set_dir.name != slug:
        raise PublishRefused(f"{slug}: {rel}: not published: the set's folder {set_dir} is not named after its slug [publish.folder]")
    copy_contained(slug, set_dir, rel, static_set_root, f"data/{name}", check_type=True)
    return name
