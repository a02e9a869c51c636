"""`wirespeed collect NAME`: run a traffic generator through a collector (one per entry point of the
wirespeed.collectors group, and nothing else) and write a new result set."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from wirespeed.cli.common import ARCHIVE, err, out


class _CollectGroup(click.Group):
    """`wirespeed collect NAME`: one command per installed collector (entry point group wirespeed.collectors),
    each with the options every collector shares (slug, --root, provenance) and its own (`run.options`)."""

    def list_commands(self, ctx):
        from wirespeed.extensions import registry

        return sorted(registry("collectors"))

    def get_command(self, ctx, name):
        from wirespeed.extensions import registry

        run = registry("collectors").get(name)
        return _collector_command(name, run) if run is not None else None

    def resolve_command(self, ctx, args):
        import difflib

        from wirespeed.extensions import registry

        name = args[0] if args else None
        if name is not None and self.get_command(ctx, name) is None and not name.startswith("-"):
            known = sorted(registry("collectors"))
            close = difflib.get_close_matches(name, known, n=1, cutoff=0.5)
            ctx.fail(f"no collector {name!r}{f'; did you mean {close[0]!r}?' if close else ''} (installed: {', '.join(known) or 'none'})")
        return super().resolve_command(ctx, args)


def _collector_params(run) -> list[str]:
    """The collector's keyword parameters that --param sets: neither shared nor one of its own options."""
    import inspect

    own = {o.name for o in getattr(run, "options", ())}
    return [n for n, p in inspect.signature(run).parameters.items()
            if p.kind == p.KEYWORD_ONLY and n not in own | {"progress", "provenance"}]


def _collector_command(name: str, run) -> click.Command:
    """A click command for one collector: SLUG or --into, --root, the provenance flags, its own options, --param."""
    import inspect

    from wirespeed.collectors.provenance import FIELDS, FLAGS, STATUSES

    doc = inspect.getdoc(run) or f"Run the {name} collector."
    free = _collector_params(run)
    params: list[click.Parameter] = [
        click.Argument(["slug"], required=False),
        click.Option(["--into", "into"], metavar="SLUG", help="The new result set's slug (instead of the SLUG argument)."),
        click.Option(["--root"], type=click.Path(path_type=Path), default=ARCHIVE, show_default=True, help="Archive folder the new result set goes into."),
    ]
    for flag in FLAGS:
        kind = click.Choice(STATUSES) if flag == "status" else None
        params.append(click.Option([f"--{flag}", flag], type=kind, metavar=None if kind else "TEXT", help=FIELDS[flag]))
    for o in getattr(run, "options", ()):
        kind = click.Path(path_type=Path, dir_okay=False) if o.kind is Path else o.kind
        params.append(click.Option([f"--{o.name.replace('_', '-')}", o.name], is_flag=o.flag, type=None if o.flag else kind, default=bool(o.default) if o.flag else o.default,
                                   required=o.required, metavar=o.metavar, help=o.help, show_default=o.default is not None and not o.flag))
    if free:
        sig = inspect.signature(run).parameters
        shown = ", ".join(f"{n} ({sig[n].default})" if sig[n].default is not inspect.Parameter.empty else n for n in free)
        params.append(click.Option(["-p", "--param", "params"], multiple=True, metavar="NAME=VALUE", help=f"A collector parameter, repeatable: {shown}."))

    def callback(slug, into, root, params=(), **kwargs):
        _run_collector(name, run, slug, into, root, params, {f: kwargs.pop(f) for f in FLAGS}, kwargs)

    return click.Command(name, params=params, callback=callback, help=doc, short_help=doc.splitlines()[0])


@click.group(cls=_CollectGroup)
def collect() -> None:
    """Run a traffic generator through a collector and write a new result set.

    Every collector takes the new set's slug (SLUG or --into SLUG), --root, and the provenance of the
    set: --publisher, --licence, --location and --status (default: a draft, with what the collecting
    machine states about itself). `wirespeed collect NAME --help` lists a collector's own options.
    """


def _run_collector(name: str, run, slug: str | None, into: str | None, root: Path, params: tuple[str, ...],
                   provenance: dict, options: dict) -> None:
    import inspect

    from rich.progress import Progress

    from wirespeed.system.interrupts import signals_exit

    if bool(slug) == bool(into):
        raise click.UsageError("give the new set's slug once: as SLUG or as --into SLUG")
    slug = slug or into
    sig, free = inspect.signature(run).parameters, _collector_params(run)
    for p in params:
        key, sep, value = p.partition("=")
        if not sep or key not in free:
            raise click.UsageError(f"--param {p!r}: expected NAME=VALUE with NAME one of {', '.join(free) or '(none)'}")
        default = sig[key].default
        try:
            options[key] = type(default)(value) if default is not inspect.Parameter.empty and default is not None else value
        except ValueError:
            raise click.UsageError(f"--param {p!r}: {value!r} is not a {type(default).__name__}") from None
    with signals_exit(), Progress(console=err, transient=True) as progress:
        task = progress.add_task(f"{name} → {slug}", total=None)

        def report(done: int, total: int, text: str | None = None) -> None:
            progress.update(task, completed=done, total=total, **({"description": text} if text else {}))

        try:
            folder = run(root, slug, progress=report, provenance=provenance, **options)
        except Exception as exc:  # noqa: BLE001 - collectors raise their own one-line errors (config problems: one line each)
            if os.environ.get("WIRESPEED_DEBUG"):
                raise
            progress.stop()
            for line in str(exc).splitlines() or [type(exc).__name__]:
                err.print(f"{name}: {line}", markup=False)
            sys.exit(1)
    out.print(f"wrote {folder}; check it with: wirespeed validate {folder}", markup=False)


COMMANDS = (collect,)
