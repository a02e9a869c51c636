"""A report typeset before starts from the cross-references its last typesetting settled on (report/latex.py): the
PDF is byte for byte the one typeset from nothing, it usually takes one XeLaTeX run instead of two, a seed that
makes the first run fail is dropped, and a seed is never read through a link."""

from __future__ import annotations

import pytest

from wirespeed.pipeline import paths
from wirespeed.report import latex, typesetting
from wirespeed.report import pandoc_ast as A

from test_report_robustness import _doc


def _blocks(sections: int, base: int = 1_000_000) -> list:
    """Headings (the contents), a table that spans pages (longtable's widths) and the page count (LastPage): each
    needs a second run when typeset from nothing."""
    head = [[("Frame size", "AlignLeft", 1, 1), ("Throughput", "AlignRight", 1, 1)]]
    rows = [[(f"{64 + i} bytes", "AlignLeft"), (f"{base - 37 * i:,} frames/s", "AlignRight")] for i in range(90)]
    out = []
    for n in range(sections):
        out += [A.header(1, f"Section {n + 1}"), A.para("Throughput at each frame size, as measured. " * 20)]
    return out + [A.table(A.inlines("Every frame size"), head, rows, ["AlignLeft", "AlignRight"], widths=[0.45, 0.45])]


@pytest.fixture
def runs(monkeypatch):
    """How many XeLaTeX runs each typesetting took (the last entry is the current one)."""
    counts: list[int] = []
    real = latex.run

    def counted(cmd, *args, **kwargs):
        if cmd[0] == "xelatex":
            counts[-1] += 1
        return real(cmd, *args, **kwargs)

    monkeypatch.setattr(latex, "run", counted)

    def typeset(doc: dict, work, seed=None, shared=None):
        counts.append(0)
        work.mkdir()
        return typesetting.typeset(doc, work, work, "1700000000", seed=seed, shared=shared).read_bytes()

    typeset.counts = counts
    return typeset


@pytest.mark.slow
def test_a_seeded_report_is_the_one_typeset_from_nothing_in_one_run(tmp_path, runs):
    seed = tmp_path / "cache" / "latex" / "report"
    doc = _doc(_blocks(3))
    plain = runs(doc, tmp_path / "plain")
    assert runs.counts[-1] >= 2 and not seed.exists()
    assert runs(doc, tmp_path / "first", seed) == plain  # no seed yet: from nothing, and the settled files kept
    assert {"seed.aux", "seed.toc"} <= {p.name for p in seed.iterdir()}
    assert runs(doc, tmp_path / "again", seed) == plain
    assert runs.counts[-1] == 1
    # another document (more sections: other pages, another contents) from the first one's seed: the seed is stale,
    # so it takes the runs it needs, and ends where the other document typeset from nothing does
    other = _doc(_blocks(6))
    assert runs(other, tmp_path / "other-seeded", seed) == runs(other, tmp_path / "other-plain")
    assert runs.counts[-2] >= 2


@pytest.mark.slow
def test_a_first_report_starts_from_the_seed_of_its_shape(tmp_path, runs):
    """A set typeset for the first time (no seed of its own) starts from the last seed of its shape: the next run of a
    series, whose report has the same headings and other figures, takes one run and is the report typeset from nothing."""
    shared = tmp_path / "cache" / "latex" / "shape-x"
    first, second = _doc(_blocks(3)), _doc(_blocks(3, base=2_345_678))  # the same headings and pages, other figures
    assert typesetting.shape(first) == typesetting.shape(second)
    plain = runs(second, tmp_path / "plain")
    assert runs.counts[-1] >= 2
    runs(first, tmp_path / "first", tmp_path / "own-1", shared)  # the series' first set: from nothing, both seeds kept
    assert {"seed.aux", "seed.toc"} <= {p.name for p in shared.iterdir()}
    own = tmp_path / "own-2"
    assert runs(second, tmp_path / "second", own, shared) == plain
    assert runs.counts[-1] == 1 and {"seed.aux", "seed.toc"} <= {p.name for p in own.iterdir()}
    # a shape seed of another document (other headings, other pages) costs runs, never bytes
    other = _doc(_blocks(6))
    assert runs(other, tmp_path / "other-seeded", tmp_path / "own-3", shared) == runs(other, tmp_path / "other-plain")


def test_a_shape_is_the_headings_not_the_figures():
    def doc(blocks):
        return {"pandoc-api-version": [1, 23], "meta": {}, "blocks": blocks}

    base = _blocks(3)
    same = _blocks(3, base=7_654_321)[:-1] + [A.para("Another table, other numbers: 1,234,567 frames/s.")]
    assert typesetting.shape(doc(base)) == typesetting.shape(doc(same))
    renamed, deeper = list(base), list(base)
    renamed[0], deeper[0] = A.header(1, "Section one"), A.header(2, "Section 1")
    assert len({typesetting.shape(doc(b)) for b in (base, renamed, deeper, _blocks(4))}) == 4
    assert typesetting.shape(doc([{"t": "Div", "c": [["", [], []], [A.header(1, "Inside")]]}])) != typesetting.shape(doc([]))


@pytest.mark.slow
def test_a_seed_that_breaks_the_first_run_is_dropped(tmp_path, runs):
    seed = tmp_path / "seed"
    seed.mkdir()
    (seed / "seed.aux").write_text("\\relax\n\\wsNoSuchCommand{from another template}\n", encoding="utf-8")
    doc = _doc(_blocks(2))
    assert runs(doc, tmp_path / "seeded", seed) == runs(doc, tmp_path / "plain")
    assert "wsNoSuchCommand" not in (seed / "seed.aux").read_text(encoding="utf-8")  # the settled files replaced it


def test_a_seed_is_never_read_through_a_link(tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "seed.aux").write_text("\\relax\n", encoding="utf-8")
    work = tmp_path / "work"
    work.mkdir()
    linked_dir = tmp_path / "linked"
    linked_dir.symlink_to(elsewhere, target_is_directory=True)
    assert not latex._plant(linked_dir, work, "report")
    seed = tmp_path / "seed"
    seed.mkdir()
    (seed / "seed.aux").symlink_to(elsewhere / "seed.aux")
    (seed / "seed.toc").write_text("\\contentsline {section}{x}{1}\n", encoding="utf-8")
    assert latex._plant(seed, work, "report")
    assert not (work / "report.aux").exists() and (work / "report.toc").read_text(encoding="utf-8").startswith("\\contentsline")


def test_each_report_has_its_own_seed_in_its_build_folder(tmp_path):
    assert paths.latex_seed(tmp_path / "build" / "reports" / "a-set.pdf") == tmp_path / "build" / "cache" / "latex" / "reports-a-set"
    assert paths.latex_seed(paths.REPORTS / "a-set.pdf") == paths.LATEX_SEEDS / "reports-a-set"
    assert paths.latex_seed(paths.TRENDS / "trends.pdf") == paths.LATEX_SEEDS / "trends-trends"
    assert paths.latex_seed(paths.REPORTS / "trends.pdf") != paths.latex_seed(paths.TRENDS / "trends.pdf")  # a set named "trends"
    assert paths.latex_shape_seed(paths.REPORTS / "a-set.pdf", "0f") == paths.LATEX_SEEDS / "shape-0f"  # no set's own: theirs start "reports-"


def test_a_seed_or_memory_entry_left_by_a_killed_run_is_swept(tmp_path):
    from wirespeed.system import interrupts

    build = tmp_path / "build"
    seed = build / "cache" / "latex" / "reports-a-set"
    seed.mkdir(parents=True)
    (seed / "seed.aux").write_text("\\relax\n", encoding="utf-8")
    half = build / "cache" / "latex" / ".reports-a-set.k2j4h5g6"  # atomic.temp_dir_beside's name, killed before its swap
    half.mkdir()
    memo = build / "cache" / "validate"
    memo.mkdir()
    (memo / "a-set.json").write_text("{}\n", encoding="utf-8")
    unfinished = memo / ".a-set.json.ab12cd34"  # atomic.write_text's temporary file
    unfinished.write_text("{", encoding="utf-8")
    removed = interrupts.sweep(build)
    assert set(removed) == {half, unfinished}
    assert (seed / "seed.aux").is_file() and (memo / "a-set.json").is_file()
