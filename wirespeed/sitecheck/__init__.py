"""The publication check (`wirespeed check-site`): rules over what a build published, not over the input.

It reads the built site (public/: the HTML pages, the CSV and JSON table downloads, the chart specs and
SVGs, the Atom feed, the compare data, the PDF reports as text) and the exported site data
(build/hugo-data, build/reports' manifests), and reports every figure that a reader would find wrong or
unreadable: e-notation, more digits than the number rule allows, fractional frame counts, empty table
columns or rows, negative loss or a percentile above the maximum without a stated reason, a card,
summary, feed, OpenGraph or compare figure that differs from the table row it names, a date before the
set's own, a figure without a unit, a unit that disagrees between page and PDF.

Each rule is one module, registered under the entry-point group `wirespeed.site_checks` (see
`wirespeed.extensions`): `check(site: Site) -> Iterable[Problem]`, its docstring's first line saying
what it checks. A failure is one `wirespeed.problems.Problem`: the page (a path under public/), the
element (a CSS-ish path, or table/row/column) and the rule.
"""
