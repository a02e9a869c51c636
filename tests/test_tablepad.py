"""The report's tables keep their outer padding (wirespeed/report/tablepad.py): pandoc's `@{}` at both ends of a
longtable's column list goes, so that the colour bands end where the rules do; nothing else in the LaTeX changes."""

from __future__ import annotations

from wirespeed.report.tablepad import padded


def test_the_outer_at_braces_of_every_longtable_go_and_nothing_else():
    tex = ("text @{} kept\n\\begin{longtable}[]{@{}lrr@{}}\n\\toprule\na & b & c \\\\\n\\end{longtable}\n"
           "\\begin{longtable}[]{@{}\n  >{\\raggedright\\arraybackslash}p{(\\linewidth - 2\\tabcolsep) * \\real{0.5}}\n"
           "  >{\\raggedleft\\arraybackslash}p{(\\linewidth - 2\\tabcolsep) * \\real{0.5}}@{}}\nx & y \\\\\n\\end{longtable}\n"
           "\\begin{tabular}{@{}p{40mm}@{}}t\\end{tabular}")
    assert padded(tex) == ("text @{} kept\n\\begin{longtable}[]{lrr}\n\\toprule\na & b & c \\\\\n\\end{longtable}\n"
                           "\\begin{longtable}[]{\n  >{\\raggedright\\arraybackslash}p{(\\linewidth - 2\\tabcolsep) * \\real{0.5}}\n"
                           "  >{\\raggedleft\\arraybackslash}p{(\\linewidth - 2\\tabcolsep) * \\real{0.5}}}\nx & y \\\\\n\\end{longtable}\n"
                           "\\begin{tabular}{@{}p{40mm}@{}}t\\end{tabular}")  # a tabular (the title page's) is not a result table


def test_a_column_list_without_both_or_left_open_is_left_as_it_is():
    for tex in ("\\begin{longtable}[]{lr@{}}", "\\begin{longtable}[]{@{}lr}", "\\begin{longtable}[]{@{}lr@{}", "\\begin{longtable}{@{}@{}}"):
        assert padded(tex) == tex
