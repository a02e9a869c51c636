"""The reference commands: plugins, schema, columns — what is installed and what a result set may hold."""

from __future__ import annotations

import json

import click

from wirespeed.cli.common import out


@click.command()
@click.argument("group", required=False, type=click.Choice(["importers", "checks", "charts", "collectors"]))
def plugins(group: str | None) -> None:
    """List the importers, checks, chart types and collectors found through entry points."""
    from wirespeed.extensions import GROUPS, describe
    from wirespeed.extensions import group as group_spec

    for g in [group] if group else GROUPS:
        spec = group_spec(g)
        out.print(f"[bold]{g}[/bold]: {spec.summary} ({spec.contract})", markup=True, highlight=False)
        for name, doc in describe(g):
            out.print(f"  {name:32} {doc}", markup=False)


@click.command()
@click.option("--markdown", is_flag=True, help="Print the field reference generated from the schema instead.")
def schema(markdown: bool) -> None:
    """Print the JSON Schema of result.toml (or, with --markdown, the field reference made from it)."""
    from wirespeed.resultset.schemacheck import schema as load_schema
    from wirespeed.resultset.schemadoc import markdown as to_markdown

    click.echo(to_markdown(load_schema()) if markdown else json.dumps(load_schema(), indent=2, ensure_ascii=False))


@click.command()
@click.option("--markdown", is_flag=True, help="Print the column reference (docs/columns.md) instead.")
def columns(markdown: bool) -> None:
    """List the CSV columns: key columns and <metric>_<unit> value columns per table kind, with their units."""
    from wirespeed.catalog import columndoc
    click.echo(columndoc.markdown() if markdown else "\n".join(columndoc.lines()))


COMMANDS = (plugins, schema, columns)
