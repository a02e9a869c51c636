"""Which wirespeed modules a piece of code uses, transitively, and the hash of each: the code part of a cache key.

An import counts wherever it is written (a function's late import too), except under `if TYPE_CHECKING:`, which
only names types for annotations and never runs (as the layers contract in pyproject.toml counts imports). So does
a module found by an extension point: code that calls `registry("charts")` uses every module registered under the
entry-point group wirespeed.charts, a plugin's too (a change to a chart type redraws its charts)."""

from __future__ import annotations

import ast
import atexit
import hashlib
import importlib.util
import json
from functools import lru_cache
from importlib import metadata
from importlib.metadata import entry_points
from pathlib import Path


_PACKAGE = Path(__file__).resolve().parent.parent  # wirespeed/


@lru_cache(maxsize=None)
def _module_file(name: str) -> Path | None:
    """The source file of a module, None for a name that is not one (`from m import f` also names m.f). A wirespeed
    module is found in the package's folder, without importing anything (find_spec runs every parent package's
    __init__, and with them their imports: numba, DuckDB, …, seconds for a command that only asks a hash). Remembered
    for the process: a build asks it 8,000 times (a third of a second), and its files are read afresh each time."""
    if name == "wirespeed" or name.startswith("wirespeed."):
        base = _PACKAGE.joinpath(*name.split(".")[1:])
        if (base / "__init__.py").is_file():  # a package first, as Python's own finder looks
            return base / "__init__.py"
        module = base.with_name(f"{base.name}.py")
        return module if base != _PACKAGE and module.is_file() else None
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return None
    return Path(spec.origin) if spec and spec.origin and spec.origin.endswith(".py") else None


def _type_checking(test: ast.expr) -> bool:
    """`if TYPE_CHECKING:` or `if typing.TYPE_CHECKING:`: a block of imports for annotations, never run."""
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


_BLOCKS = ("body", "orelse", "finalbody", "handlers", "cases")  # the fields of a node that hold statements


def _run_nodes(tree: ast.AST, expressions: bool = True):
    """Every node of the tree but those of `if TYPE_CHECKING:` blocks (their `else:` runs, and is kept); with
    `expressions` false, the statements only (an import is one: most of a module's nodes are never visited)."""
    todo = [tree]
    while todo:
        node = todo.pop()
        yield node
        if isinstance(node, ast.If) and _type_checking(node.test):
            todo.extend(node.orelse)
            continue
        if expressions:
            todo.extend(ast.iter_child_nodes(node))
        else:
            for field in _BLOCKS:
                todo.extend(getattr(node, field, ()))


@lru_cache(maxsize=None)
def _registered(group: str) -> frozenset[str]:
    """The modules of the entry points of group wirespeed.<group>."""
    return frozenset(ep.module for ep in entry_points(group=f"wirespeed.{group}"))


def _registry_call(node: ast.AST) -> str | None:
    """The group of a `registry("group")` call (wirespeed.extensions.registry), else None."""
    if isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
        f = node.func
        if (isinstance(f, ast.Name) and f.id == "registry") or (isinstance(f, ast.Attribute) and f.attr == "registry"):
            return node.args[0].value
    return None


def _parsed(source: str, package: str | None) -> tuple[frozenset[str], frozenset[str]]:
    """(the modules a source names in its imports, the extension groups it asks `registry()` for), from its syntax tree."""
    names: set[str] = set()
    groups: set[str] = set()
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return frozenset(), frozenset()
    for node in _run_nodes(tree, expressions="registry" in source):  # a registry("group") call is an expression
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level and package:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1] + ([node.module] if node.module else []))
            names.add(base)
            names.update(f"{base}.{a.name}" for a in node.names)
        elif (group := _registry_call(node)) is not None:
            groups.add(group)
    return frozenset(n for n in names if n == "wirespeed" or n.startswith("wirespeed.")), frozenset(groups)


class _Memo:
    """What each source text imports, kept across processes in one JSON file (remember_in): parsing the package's
    modules cost about a second in every process that asks a code hash. An entry is named by the hash of the text
    and its package, so a changed module is parsed again; the registered plugins of a group are looked up anew."""

    def __init__(self) -> None:
        self.file: Path | None = None
        self.known: dict[str, list[list[str]]] | None = None
        self.used: set[str] = set()
        self.added = False

    def get(self, source: str, package: str | None) -> tuple[frozenset[str], frozenset[str]]:
        key = hashlib.sha256(f"{package or ''}\0{source}".encode()).hexdigest()
        if self.known is None:
            self.known = self._read()
        self.used.add(key)
        if (hit := self.known.get(key)) is not None:
            return frozenset(hit[0]), frozenset(hit[1])
        found = _parsed(source, package)
        self.known[key] = [sorted(found[0]), sorted(found[1])]
        self.added = self.file is not None
        return found

    def _read(self) -> dict[str, list[list[str]]]:
        if self.file is None:
            return {}
        try:
            known = json.loads(self.file.read_text("utf-8"))
        except (OSError, ValueError):  # none yet, or unreadable: parse again
            return {}
        ok = isinstance(known, dict) and all(isinstance(v, list) and len(v) == 2 and all(isinstance(x, list) for x in v) for v in known.values())
        return known if ok else {}

    def save(self) -> None:
        """Write the entries this process added (with those of the file now, another process's included). Past
        MEMO_ENTRIES (the texts of many past versions of the modules), only the entries this process used are kept."""
        if not (self.added and self.file and self.known is not None and self.file.parent.parent.is_dir()):
            return
        from wirespeed.system import atomic

        merged = {**self._read(), **self.known}
        if len(merged) > MEMO_ENTRIES:
            merged = {k: v for k, v in merged.items() if k in self.used}
        try:
            self.file.parent.mkdir(exist_ok=True)
            atomic.write_text(self.file, json.dumps(merged, sort_keys=True, separators=(",", ":")) + "\n")
        except OSError:  # a cache: not writing it costs only time
            pass
        self.added = False


MEMO_ENTRIES = 20_000
_MEMO = _Memo()


def remember_in(file: Path) -> None:
    """Keep what each module imports in `file` (in a folder under an existing one, e.g. build/cache/imports.json),
    read at the first code hash and written at the process's end."""
    if _MEMO.file is None:
        atexit.register(_MEMO.save)
    _MEMO.file, _MEMO.known, _MEMO.used = file, None, set()


@lru_cache(maxsize=4096)
def _imports(source: str, package: str | None = None) -> frozenset[str]:
    """The wirespeed modules (and registered plugins) a source imports; remembered by its text, since a build asks for
    the closure of every notebook and they share most of their modules."""
    names, groups = _MEMO.get(source, package)
    plugins = frozenset().union(*(_registered(g) for g in groups)) if groups else frozenset()
    return names | plugins


def code_closure(source: str) -> dict[str, str]:
    """Module name → sha256 of every wirespeed module the source imports, transitively."""
    seen: dict[str, str] = {}
    todo = sorted(_imports(source))
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        path = _module_file(name)
        if path is None:
            continue
        text = path.read_text("utf-8")
        seen[name] = hashlib.sha256(text.encode()).hexdigest()
        parent = name.rpartition(".")[0]
        if parent and parent not in seen:
            todo.append(parent)
        pkg = name if path.name == "__init__.py" else parent
        todo.extend(sorted(_imports(text, pkg) - set(seen)))
    return dict(sorted(seen.items()))


def package_versions(*names: str) -> dict[str, str | None]:
    """Distribution name → its installed version (None when it is not installed), read from the packages'
    metadata without importing them: the tool part of a cache key."""
    found: dict[str, str | None] = {}
    for name in names:
        try:
            found[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            found[name] = None
    return found


def source_key(header: str, *files: str) -> str:
    """The hash of a header (a format number, a tool's version) and the source files of the code that makes an output:
    the code part of a cache key."""
    h = hashlib.sha256(header.encode())
    for file in files:
        h.update(Path(file).read_bytes() + b"\0")
    return h.hexdigest()
