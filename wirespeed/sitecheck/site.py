"""The built output of a build, as the publication check reads it: the HTML pages of public/ (their text
by block element, their alt and link-preview texts, their tables), the CSV and JSON table downloads, the
chart specs and SVGs, the Atom feed, the compare data, the PDF reports (text by page, and their dates) and
the site data the pipeline exported (build/hugo-data, the reports' manifests). Read only; nothing is run
but `pdftotext` (poppler), which the build machine has for the PDF checks."""

from __future__ import annotations

import csv
import functools
import io
import json
import re
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bs4 import BeautifulSoup, Tag
from bs4 import Comment, Doctype

SKIP_DIRS = ("pagefind", "vendor", "css", "js", "notebooks")  # assets, the search index, the notebooks' pages (code): no published figure
HIDDEN_TAGS = ("script", "style", "template", "head")
BLOCKS = frozenset({"p", "li", "td", "th", "caption", "figcaption", "h1", "h2", "h3", "h4", "h5", "h6", "dt", "dd", "summary", "blockquote",
                    "pre", "label", "legend", "div", "section", "article", "header", "footer", "main", "nav", "figure", "body", "aside", "details",
                    "dl", "ul", "ol", "table", "tr", "thead", "tbody", "form", "fieldset", "noscript"})
PREVIEW_META = ("description", "og:title", "og:description", "og:image:alt")
KEY_LABELS = frozenset({"frame size", "ip packet size", "variant", "trial", "component", "load", "series", "direction", "test", "port", "setting", "item",
                        "frame", "second", "from", "to", "percentile", "ramp", "scenario", ""})


FIGURE_INDEX = re.compile(r"^\s*Appendix [A-Z]+\s+Figure index\s*$")  # the figure index's heading in a report's text
AFTER_FIGURE_INDEX = re.compile(r"^\s*(?:Appendix [A-Z]+\s+\S.*|Colophon)\s*$")  # the heading that ends it


@dataclass(frozen=True)
class Text:
    """One piece of published text: the page (a path under public/), the element, the text, its set."""

    page: str
    where: str
    text: str
    slug: str | None
    origin: str  # html, attr, svg, pdf, csv, json, feed, spec


@dataclass
class Column:
    label: str
    unit: str = ""
    key: str = ""  # the metric or key column of a JSON table ("throughput", "frame_size", "latency_p99.bidirectional")
    derived: bool = False

    @property
    def metric(self) -> str:
        return self.key.split(".")[0]

    @property
    def is_key(self) -> bool:
        """A column that names the row (frame size, variant, …) rather than holding a figure of it."""
        if self.key:
            return self.key in ("frame_size", "variant", "trial", "component", "load_pct", "direction", "port", "test", "series", "load")
        return self.label.strip().lower() in KEY_LABELS


@dataclass
class Table:
    """A table as printed: where it is, its columns (label and unit) and its rows of cell texts."""

    page: str
    where: str
    slug: str | None
    title: str
    columns: list[Column]
    rows: list[list[str]]
    values: list[list[Any]] | None = None
    derived: list[list[bool]] | None = None
    flags: list[list[str | None]] | None = None
    notes: str = ""  # caption, notes and remarks: where a table states its reasons
    caption: str = ""
    test: str | None = None
    origin: str = "html"
    transposed: bool = False  # one row per metric, one column per frame size (tables.layout's shape for wide tables)

    def cell_where(self, r: int, c: int) -> str:
        label = self.rows[r][0] if self.rows[r] else ""
        keys = [self.rows[r][i] for i, col in enumerate(self.columns) if col.is_key and i < len(self.rows[r]) and self.rows[r][i]] or [label]
        col = self.columns[c]
        name = f"{col.label} ({col.unit})" if col.unit else col.label
        return f"{self.where}, row {r + 1} ({' / '.join(keys)}), column “{name}”"


@dataclass
class Pdf:
    page: str
    slug: str
    pages: list[str]
    info: dict[str, str]


@dataclass
class Site:
    """The built output under `public` and the pipeline's exports under `build`."""

    public: Path
    build: Path
    only: frozenset[str] | None = None  # check only these sets (and the site-wide pages)
    _soups: dict[str, BeautifulSoup] = field(default_factory=dict, repr=False)

    # --- what there is ----------------------------------------------------------------------------------
    @functools.cached_property
    def sets(self) -> dict[str, dict[str, Any]]:
        """The exported site data of every published set (build/hugo-data/wirespeed/sets/<slug>.json)."""
        folder = self.build / "hugo-data" / "wirespeed" / "sets"
        out = {}
        for p in sorted(folder.glob("*.json")) if folder.is_dir() else []:
            if self.only is None or p.stem in self.only:
                out[p.stem] = json.loads(p.read_text(encoding="utf-8"))
        return out

    @functools.cached_property
    def html_pages(self) -> list[str]:
        pages = []
        for p in sorted(self.public.rglob("*.html")):
            rel = p.relative_to(self.public).as_posix()
            if rel.split("/")[0] in SKIP_DIRS or "/notebooks/" in rel or rel.endswith("/explain/index.html"):
                continue  # a set's old notebook address points to the notebook's page; an explanation page prints values before rounding on purpose
            slug = self.slug_of(rel)
            if self.only is not None and slug is not None and slug not in self.only:
                continue
            pages.append(rel)
        return pages

    def slug_of(self, rel: str) -> str | None:
        """The result set a file under public/ belongs to, if any (its set page, test pages, downloads, PDF, review)."""
        parts = rel.split("/")
        if parts[0] in ("results", "reviews") and len(parts) > 2:
            return parts[1]
        if parts[0] == "reports" and len(parts) == 2:
            return parts[1].removesuffix(".pdf")
        return None

    def soup(self, rel: str) -> BeautifulSoup:
        if rel not in self._soups:
            self._soups[rel] = BeautifulSoup((self.public / rel).read_text(encoding="utf-8"), "lxml")
        return self._soups[rel]

    # --- texts ------------------------------------------------------------------------------------------
    def texts(self) -> list[Text]:
        """Every piece of published text: pages (by block element, alt and preview texts), SVG charts, PDFs,
        table downloads and the feed (read once, shared by the rules)."""
        return self._texts

    @functools.cached_property
    def _texts(self) -> list[Text]:
        return list(self._read_texts())

    def _read_texts(self) -> Iterator[Text]:
        for rel in self.html_pages:
            yield from self.page_texts(rel)
        for rel in self.svgs:
            yield from self.svg_texts(rel)
        for pdf in self.pdfs.values():
            explaining = False  # the figure index (report/figures.py) prints values before rounding on purpose
            for i, page in enumerate(pdf.pages, 1):
                for j, line in enumerate(page.splitlines(), 1):
                    if FIGURE_INDEX.match(line) or (explaining and AFTER_FIGURE_INDEX.match(line)):
                        explaining = not explaining
                    if line.strip() and not explaining:
                        yield Text(pdf.page, f"page {i}, line {j}", line, pdf.slug, "pdf")
        for t in self.download_tables:
            for r, row in enumerate(t.rows):
                for c, cell in enumerate(row):
                    if cell:
                        yield Text(t.page, t.cell_where(r, c), cell, t.slug, t.origin)
            for c, col in enumerate(t.columns):
                yield Text(t.page, f"{t.where}, header of column {c + 1}", f"{col.label} ({col.unit})" if col.unit else col.label, t.slug, t.origin)
        yield from self.feed_texts()

    def page_texts(self, rel: str) -> Iterator[Text]:
        soup = self.soup(rel)
        slug = self.slug_of(rel)
        groups: dict[int, tuple[Tag, list[str]]] = {}
        for s in soup.find_all(string=True):
            if isinstance(s, (Comment, Doctype)) or not s.strip():
                continue
            if any(p.name in HIDDEN_TAGS for p in s.parents):
                continue
            block = next((p for p in s.parents if p.name in BLOCKS), None)
            if block is None:
                continue
            groups.setdefault(id(block), (block, []))[1].append(str(s))
        positions: dict[int, dict[int, tuple[int, int]]] = {}  # the page's sibling places, shared by its paths
        for block, parts in groups.values():
            text = " ".join("".join(parts).split())
            if text:
                yield Text(rel, css_path(block, positions), text, slug, "html")
        for img in soup.find_all("img", alt=True):
            if img["alt"].strip():
                yield Text(rel, css_path(img, positions) + "[alt]", img["alt"], slug, "attr")
        for meta in soup.find_all("meta", content=True):
            name = meta.get("name") or meta.get("property") or ""
            if name in PREVIEW_META:
                yield Text(rel, f'head > meta[{"name" if meta.get("name") else "property"}="{name}"]', meta["content"], slug, "attr")

    @functools.cached_property
    def svgs(self) -> list[str]:
        out = []
        for p in sorted((self.public / "results").glob("*/charts/*.svg")) if (self.public / "results").is_dir() else []:
            rel = p.relative_to(self.public).as_posix()
            if self.only is None or self.slug_of(rel) in self.only:
                out.append(rel)
        return out

    def svg_texts(self, rel: str) -> Iterator[Text]:
        soup = BeautifulSoup((self.public / rel).read_text(encoding="utf-8"), "xml")
        for i, t in enumerate(soup.find_all("text"), 1):
            text = " ".join(t.get_text(" ").split())
            if text:
                yield Text(rel, f"svg text:nth-of-type({i})", text, self.slug_of(rel), "svg")

    # --- tables -----------------------------------------------------------------------------------------
    @functools.cached_property
    def json_tables(self) -> list[Table]:
        """The JSON table downloads (public/results/<slug>/tables/<id>.json): columns with keys, units and derived marks."""
        out = []
        for p in sorted((self.public / "results").glob("*/tables/*.json")) if (self.public / "results").is_dir() else []:
            rel = p.relative_to(self.public).as_posix()
            slug = self.slug_of(rel)
            if self.only is not None and slug not in self.only:
                continue
            d = json.loads(p.read_text(encoding="utf-8"))
            cols = [Column(c.get("label", ""), c.get("unit", ""), c.get("key", ""), bool(c.get("derived"))) for c in d.get("columns", [])]
            notes = " ".join([d.get("caption") or ""] + list(d.get("notes") or []))
            out.append(Table(rel, f"table {d.get('id', p.stem)}", slug, d.get("title", ""), cols, [[str(x) for x in r] for r in d.get("rows", [])],
                             d.get("values"), d.get("derived_cells"), d.get("flags"), notes, d.get("caption") or "", d.get("test"), "json"))
        return out

    @functools.cached_property
    def csv_tables(self) -> list[Table]:
        out = []
        for p in sorted((self.public / "results").glob("*/tables/*.csv")) if (self.public / "results").is_dir() else []:
            rel = p.relative_to(self.public).as_posix()
            slug = self.slug_of(rel)
            if self.only is not None and slug not in self.only:
                continue
            rows = list(csv.reader(io.StringIO(p.read_text(encoding="utf-8-sig"))))
            if not rows:
                continue
            cols = [_csv_column(h) for h in rows[0]]
            out.append(Table(rel, f"table {p.stem}", slug, p.stem, cols, rows[1:], origin="csv"))
        return out

    @property
    def download_tables(self) -> list[Table]:
        return self.json_tables + self.csv_tables

    @functools.cached_property
    def html_tables(self) -> list[Table]:
        """Every <table> of every page, with its header labels and units as printed."""
        out = []
        for rel in self.html_pages:
            for i, t in enumerate(self.soup(rel).find_all("table"), 1):
                out.append(_html_table(rel, self.slug_of(rel), t, i))
        return out

    @functools.cached_property
    def report_parts(self) -> dict[str, dict[str, list[list[int]]]]:
        """Per set, the columns of each printed part of a table split across pages in its PDF (the report's manifest)."""
        out = {}
        for slug in self.sets:
            m = self.build / "reports" / f"{slug}.manifest.json"
            if m.is_file():
                out[slug] = json.loads(m.read_text(encoding="utf-8")).get("table_parts", {})
        return out

    # --- charts -----------------------------------------------------------------------------------------
    @functools.cached_property
    def specs(self) -> dict[str, dict[str, Any]]:
        out = {}
        for p in sorted((self.public / "results").glob("*/charts/*.vl.json")) if (self.public / "results").is_dir() else []:
            rel = p.relative_to(self.public).as_posix()
            if self.only is None or self.slug_of(rel) in self.only:
                out[rel] = json.loads(p.read_text(encoding="utf-8"))
        return out

    # --- PDFs -------------------------------------------------------------------------------------------
    @functools.cached_property
    def pdfs(self) -> dict[str, Pdf]:
        out = {}
        folder = self.public / "reports"
        for p in sorted(folder.glob("*.pdf")) if folder.is_dir() else []:
            if self.only is not None and p.stem not in self.only:
                continue
            rel = p.relative_to(self.public).as_posix()
            text = subprocess.run(["pdftotext", "-layout", "-enc", "UTF-8", str(p), "-"], capture_output=True, text=True, timeout=300).stdout
            out[p.stem] = Pdf(rel, p.stem, text.split("\f"), pdf_info(p))
        return out

    # --- feed and compare -------------------------------------------------------------------------------
    @functools.cached_property
    def feed(self) -> list[dict[str, str]]:
        """The Atom feed's entries: slug, title, updated, published, summary, content (text)."""
        path = self.public / "feed.xml"
        if not path.is_file():
            return []
        soup = BeautifulSoup(path.read_text(encoding="utf-8"), "xml")
        out = []
        for e in soup.find_all("entry"):
            ident = e.find("id").get_text() if e.find("id") else ""
            slug = ident.rsplit("/", 1)[-1]
            if self.only is not None and slug not in self.only:
                continue
            out.append({"slug": slug, **{k: (e.find(k).get_text() if e.find(k) else "") for k in ("title", "updated", "published", "summary", "content")}})
        return out

    def feed_texts(self) -> Iterator[Text]:
        for e in self.feed:
            for k in ("title", "summary", "content"):
                if e[k]:
                    yield Text("feed.xml", f"entry[{e['slug']}] > {k}", e[k], e["slug"], "feed")

    @functools.cached_property
    def compare(self) -> dict[str, Any]:
        path = self.public / "compare" / "index.json"
        return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}


def _csv_column(header: str) -> Column:
    """'Throughput (L1) (Gbit/s) [derived]' → label 'Throughput (L1)', unit 'Gbit/s', derived."""
    derived = header.endswith("[derived]")
    h = header.removesuffix("[derived]").strip()
    m = re.match(r"^(.*?)\s*\(([^()]*)\)$", h)
    if m and m.group(2) and not m.group(2).startswith(("L1", "L2", "SONET")):
        return Column(m.group(1), m.group(2), derived=derived)
    return Column(h, derived=derived)


def _html_table(rel: str, slug: str | None, t: Tag, index: int) -> Table:
    caption = t.find("caption")
    title = " ".join(caption.get_text(" ").split()) if caption else ""
    anchor = t.find_parent(id=True)
    where = (f"#{anchor['id']} table" if anchor is not None else f"table:nth-of-type({index})") + (f" “{title}”" if title else "")
    head = t.find("thead")
    header_rows = head.find_all("tr") if head else []
    cols: list[Column] = []
    if header_rows:
        # the last header row holds the leaf labels; grouped tables put ungrouped columns (rowspan=2) in the first
        cells = []
        first = header_rows[0].find_all("th")
        if len(header_rows) > 1:
            leaves = iter(header_rows[-1].find_all("th"))
            for th in first:
                if th.get("scope") == "colgroup":
                    group = th.get_text(" ", strip=True)
                    cells += [(group, next(leaves, None)) for _ in range(int(th.get("colspan", 1)))]
                else:
                    cells.append(("", th))
        else:
            cells = [("", th) for th in first]
        for group, th in cells:
            if th is None:
                cols.append(Column(group))
                continue
            unit_el = th.find(class_="unit")
            unit = unit_el.get_text(strip=True).strip("()") if unit_el else ""
            label = " ".join(x for x in (group, _own_text(th, exclude=("unit", "derived"))) if x)
            cols.append(Column(label, unit, derived=th.find(class_="derived") is not None))
    rows = []
    body = t.find("tbody") or t
    for tr in body.find_all("tr", recursive=False) if body is not t else t.find_all("tr"):
        if tr.parent.name == "thead":
            continue
        rows.append([_own_text(c, exclude=("flag", "derived-cell", "vh")) for c in tr.find_all(["td", "th"], recursive=False)])
    fig = t.find_parent("figure")
    notes = " ".join(fig.get_text(" ").split()) if fig is not None else title
    if not cols and rows:
        cols = [Column("") for _ in rows[0]]
    transposed = fig is not None and "result-table-transposed" in (fig.get("class") or [])
    return Table(rel, where, slug, title, cols, rows, notes=notes, transposed=transposed)


def _own_text(el: Tag, exclude: tuple[str, ...]) -> str:
    """An element's text without its marks (derived †, flags, screen-reader notes, units)."""
    parts = []
    for s in el.find_all(string=True):
        if any(isinstance(p, Tag) and set(p.get("class") or []) & set(exclude) for p in s.parents if p is not el.parent):
            continue
        parts.append(str(s))
    return " ".join("".join(parts).split())


def css_path(el: Tag, positions: dict[int, dict[int, tuple[int, int]]] | None = None) -> str:
    """A CSS-ish path of an element: tags with their first class, up to the nearest ancestor with an id.
    `positions` caches each parent's children (their place among siblings of their tag, and how many there
    are), so that the paths of a page's N table cells cost O(N), not O(N²); pass one dict per page."""
    positions = {} if positions is None else positions
    parts = []
    node: Tag | None = el
    while isinstance(node, Tag) and node.name not in ("[document]", "html", "body"):
        if node.get("id"):
            parts.append(f"{node.name}#{node['id']}")
            break
        cls = (node.get("class") or [None])[0]
        name = node.name + (f".{cls}" if cls else "")
        if node.parent is not None and not cls:
            place, same = _place(node, positions)
            if same > 1:
                name += f":nth-of-type({place})"
        parts.append(name)
        node = node.parent
    return " > ".join(reversed(parts))


def _place(node: Tag, positions: dict[int, dict[int, tuple[int, int]]]) -> tuple[int, int]:
    """The node's place (from 1) among its parent's children of its tag, and how many of them there are."""
    parent = node.parent
    table = positions.get(id(parent))
    if table is None:
        counts: dict[str, int] = {}
        places: dict[int, tuple[str, int]] = {}
        for child in parent.children:
            if isinstance(child, Tag):
                counts[child.name] = counts.get(child.name, 0) + 1
                places[id(child)] = (child.name, counts[child.name])
        table = {k: (n, counts[tag]) for k, (tag, n) in places.items()}
        positions[id(parent)] = table
    return table[id(node)]


def pdf_info(path: Path) -> dict[str, str]:
    """The PDF's document information (CreationDate, ModDate, Author, …) as text."""
    import pikepdf

    with pikepdf.open(path) as pdf:
        return {str(k).lstrip("/"): str(v) for k, v in pdf.docinfo.items()}
