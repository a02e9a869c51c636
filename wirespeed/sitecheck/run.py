"""Running the publication check: every registered rule (entry-point group wirespeed.site_checks) over one
build's output; a rule that fails is reported as one internal problem and the others still run."""

from __future__ import annotations

from pathlib import Path

from wirespeed.problems import Problem, internal_problem
from wirespeed.sitecheck.site import Site


class SiteMissing(RuntimeError):
    """There is no built site to check (the message says what is missing and how to build it)."""


def check_site(public: Path = Path("public"), build: Path = Path("build"), slugs: list[str] | None = None,
               rules: list[str] | None = None) -> list[Problem]:
    """Every failure of every rule (or of `rules`) over the built output, for every set (or `slugs`), sorted."""
    from wirespeed.extensions import registry

    if not (public / "index.html").is_file():
        raise SiteMissing(f"{public}: no built site (index.html); run make, or wirespeed site, first")
    if not (build / "hugo-data" / "wirespeed" / "sets").is_dir():
        raise SiteMissing(f"{build}/hugo-data: no exported site data; run wirespeed site --data-only first")
    site = Site(public, build, frozenset(slugs) if slugs else None)
    registered = registry("site_checks")
    unknown = sorted(set(rules or []) - set(registered))
    if unknown:
        raise KeyError(f"no such rule: {', '.join(unknown)} (rules: {', '.join(registered)})")
    out: set[Problem] = set()
    for name, rule in registered.items():
        if rules and name not in rules:
            continue
        try:
            out.update(rule(site))
        except Exception as exc:  # noqa: BLE001 - one rule failing is reported; the others still run
            out.add(internal_problem(public, f"running publication rule {name}", exc))
    return sorted(out, key=lambda p: (p.file, p.rule, p.field, p.message))
