"""`wirespeed check-site`: the publication check over what a build published."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from wirespeed.cli.common import err, out
from wirespeed.pipeline import paths


@click.command("check-site")
@click.argument("slugs", nargs=-1)
@click.option("--public", type=click.Path(path_type=Path), default=Path("public"), show_default=True, help="The built site.")
@click.option("--build", "build_dir", type=click.Path(path_type=Path), default=paths.BUILD, show_default=True, help="The build folder (exported site data, report manifests).")
@click.option("--rule", "rules", multiple=True, help="Run only this rule (repeatable); `wirespeed plugins site_checks` lists them.")
def check_site(slugs: tuple[str, ...], public: Path, build_dir: Path, rules: tuple[str, ...]) -> None:
    """Check what a build published: every page, table download, chart, feed entry and PDF of every set (or SLUGS).

    One line per failure, naming the page, the element and the rule (e-notation, too many digits, fractional
    frame counts, empty columns or rows, negative loss, percentiles above the maximum, a card or summary that
    differs from the table row it names, dates before the set's own, figures without units, units that differ
    between page and PDF); exits 1 on any failure. Run it after `make` (or `wirespeed site`)."""
    from wirespeed.sitecheck.run import SiteMissing
    from wirespeed.sitecheck.run import check_site as run_check

    try:
        problems = run_check(public, build_dir, list(slugs) or None, list(rules) or None)
    except (SiteMissing, KeyError) as exc:
        raise click.ClickException(str(exc).strip("'\"")) from None
    for p in problems:
        out.print(str(p), markup=False, highlight=False, soft_wrap=True)
    rules_hit = sorted({p.rule for p in problems})
    err.print(f"{len(problems)} publication problems" + (f" ({', '.join(rules_hit)})" if rules_hit else ""), markup=False)
    if problems:
        sys.exit(1)


COMMANDS = (check_site,)
