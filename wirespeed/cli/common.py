"""What every command module of the CLI shares: the consoles, the exit statuses as exceptions, the
project-folder guard and the options and wrappers of the build steps."""

from __future__ import annotations

import functools
import sys
from pathlib import Path

import click
from rich.console import Console

from wirespeed.pipeline import paths
from wirespeed.pipeline.status import EXIT_LEFT_OUT, EXIT_STEP_FAILED

ARCHIVE = Path("data/results")
CATALOG = paths.CATALOG  # the default catalog (a command's own `paths` argument hides the module)
_WIDTH = None if sys.stdout.isatty() else 1000  # files and pipes get whole lines
err = Console(stderr=True, highlight=False, width=_WIDTH)
out = Console(highlight=False, soft_wrap=True, width=_WIDTH)


class StepFailed(click.ClickException):
    """A build step that could not do its work at all (not one result set's failure): its own exit status,
    so `make` tells "the site could not be built" from "a set was left out" (exit 1)."""

    exit_code = EXIT_STEP_FAILED


def build_step(fn):
    """A step that writes build/ (and public/): one at a time per build folder, SIGTERM unwinds like
    Ctrl-C (temporary folders removed, workers and tools stopped), and what an interrupted earlier
    run left behind is swept first."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        from wirespeed.system import interrupts
        build = paths.BUILD
        dest = kwargs.get("destination")
        destinations = (dest,) if dest is not None else ()
        with interrupts.signals_exit(), interrupts.build_lock(build):
            interrupts.sweep(build, destinations)
            try:
                return fn(*args, **kwargs)
            except BaseException:
                # interrupted or failed: the workers are gone by now (worker_pool ended them), and whatever
                # temporary folder one of them could not remove in time (a loaded machine) goes here
                interrupts.sweep(build, destinations)
                raise

    return wrapper


def scheduler_option(fn):
    """--scheduler (or $WIRESPEED_SCHEDULER): where the per-set jobs run (wirespeed/pipeline/cluster.py)."""
    return click.option("--scheduler", metavar="pool|local|ADDRESS", default=None,
                        help="Where the per-set jobs run: pool (this machine's worker pool, the default), local (a Dask "
                             "LocalCluster, started only when a job is out of date) or a Dask scheduler's address, "
                             "tcp://HOST:PORT, whose workers share the project folder. Default: $WIRESPEED_SCHEDULER, else pool.")(fn)


def executor(given: str | None) -> str:
    """The scheduler --scheduler names (or the default), a bad one being a usage error of that option."""
    from wirespeed.pipeline import cluster

    try:
        return cluster.chosen(given)
    except cluster.SchedulerError as exc:
        raise click.BadParameter(str(exc), param_hint="--scheduler") from None


def base_url_option(given: str | None) -> str | None:
    """--base-url as Hugo takes it (None: not given), a bad one being a usage error of that option."""
    if given is None:
        return None
    from wirespeed.system import hugo

    try:
        return hugo.base_url(given)
    except hugo.HugoError as exc:
        raise click.BadParameter(str(exc), param_hint="--base-url") from None


def need_tex() -> None:
    """The PDF reports need xelatex: without it the step fails as a whole."""
    from wirespeed.report import typesetting

    if typesetting.which_tex() is None:
        raise StepFailed("xelatex is not installed: run make (it installs TeX Live from Debian's packages)")


def folders(given: tuple[str, ...]) -> list[Path]:
    """The result set folders given, else every one in the archive."""
    from wirespeed.catalog.store import result_folders

    return [Path(p) for p in given] if given else result_folders(ARCHIVE)


def in_project() -> None:
    """Steps that read or write the project's build/ and data/results/ run in the project folder, never beside it."""
    problem = paths.not_a_project(Path.cwd())
    if problem:
        raise StepFailed(problem)


def print_left_out(lines: list[str]) -> None:
    """The items the site was built without, under one loud heading (stderr)."""
    err.print(f"THE SITE WAS BUILT WITHOUT {len(lines)} ITEM{'S' if len(lines) != 1 else ''} (each below; everything else is on it):", markup=False)
    for line in lines:
        err.print(f"  {line}", markup=False)


def invoke_step(ctx: click.Context, command: click.Command, **given) -> int:
    """Run one step's command in this process (its defaults filled in by click): 0 done, EXIT_LEFT_OUT when
    it left something out (each named), EXIT_STEP_FAILED when it could not run at all."""
    try:
        ctx.invoke(command, **given)
    except SystemExit as exc:
        if isinstance(exc.code, int) and exc.code > 128:  # a signal (SIGTERM, SIGHUP) stops the whole build
            raise
        return exc.code if isinstance(exc.code, int) else EXIT_STEP_FAILED
    except click.ClickException as exc:
        exc.show()
        return EXIT_STEP_FAILED
    return 0


__all__ = ["ARCHIVE", "CATALOG", "EXIT_LEFT_OUT", "EXIT_STEP_FAILED", "StepFailed", "base_url_option", "build_step", "err", "executor",
           "folders", "in_project", "invoke_step", "need_tex", "out", "print_left_out", "scheduler_option"]
