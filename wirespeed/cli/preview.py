"""`wirespeed serve`: the site in a browser, live (Hugo's server) or as built (public/)."""

from __future__ import annotations

from pathlib import Path

import click

from wirespeed.cli.common import EXIT_LEFT_OUT, StepFailed, in_project, invoke_step, out
from wirespeed.cli.pipeline import build


@click.command()
@click.option("--port", type=click.IntRange(0, 65535), default=0, show_default=True, help="Port to serve on (0: a free one).")
@click.option("--bind", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--built", is_flag=True, help="Serve the built site (public/) as it is published, search index included, "
                                           "with HTTP Range requests, instead of Hugo's live server.")
@click.option("--no-build", "no_build", is_flag=True, help="Do not run wirespeed build first.")
@click.pass_context
def serve(ctx: click.Context, port: int, bind: str, built: bool, no_build: bool) -> None:
    """Preview the site: Hugo's server with live reload (an edited article, layout or style shows within a
    second or two), drafts shown and marked, on a free port. Runs `wirespeed build` first (at once when
    nothing changed), so the result sets' pages, charts and reports are current; Ctrl-C stops."""
    in_project()
    from wirespeed.site import preview as site_preview
    from wirespeed.system import hugo

    if not no_build:
        code = invoke_step(ctx, build)
        if code not in (0, EXIT_LEFT_OUT):
            raise StepFailed("the site could not be built, so there is nothing to serve (see the messages above)")
    try:
        if built:
            public = site_preview.built_site()
        else:
            extra = site_preview.live_config()
    except site_preview.NothingToServe as exc:
        raise StepFailed(str(exc)) from None
    try:
        if built:
            from wirespeed.system import rangeserver

            rangeserver.serve(str(public), bind, port, lambda line: out.print(line, markup=False))
            return
        port = port or hugo.free_port(bind)
    except OSError as exc:  # a name that does not resolve, an address not on this machine, a port in use
        raise StepFailed(f"cannot listen on {bind} port {port or 'any'}: {exc.strerror or exc}") from None
    out.print(f"serving the site at http://{bind}:{port}/ with live reload, drafts shown and marked (Ctrl-C stops; "
              "the search index and the built site are wirespeed serve --built)", markup=False)
    try:
        code = hugo.serve(Path("."), bind, port, extra)
    except KeyboardInterrupt:
        return
    except hugo.HugoError as exc:
        raise StepFailed(str(exc)) from None
    if code:
        raise StepFailed(f"hugo server exited with status {code}")


COMMANDS = (serve,)
