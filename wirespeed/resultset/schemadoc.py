"""The reference of result.toml, generated from its JSON Schema (so the docs cannot drift from it)."""

from __future__ import annotations

from typing import Any, Iterator


def _resolve(schema: dict[str, Any], node: dict[str, Any]) -> dict[str, Any]:
    ref = node.get("$ref")
    if ref and ref.startswith("#/$defs/"):
        target = dict(schema["$defs"][ref.removeprefix("#/$defs/")])
        return {**target, **{k: v for k, v in node.items() if k != "$ref"}}
    return node


def fields(schema: dict[str, Any], node: dict[str, Any] | None = None, prefix: str = "") -> Iterator[tuple[str, str, bool, str]]:
    """(path, type, required, description) of every field, depth first."""
    node = _resolve(schema, node or schema)
    required = set(node.get("required", []))
    for name, prop in node.get("properties", {}).items():
        prop = _resolve(schema, prop)
        path = f"{prefix}{name}"
        kind = prop.get("type") or ("enum" if "enum" in prop else "const" if "const" in prop else "any")
        if "enum" in prop:
            kind = " | ".join(map(str, prop["enum"]))
        desc = prop.get("description", "")
        if prop.get("type") == "array" and isinstance(prop.get("items"), dict):
            item = _resolve(schema, prop["items"])
            if item.get("type") == "object" and item.get("properties"):
                yield path, "array of tables", name in required, desc
                yield from fields(schema, item, f"{path}[].")
                continue
            kind = f"array of {item.get('type', 'values')}"
        if prop.get("type") == "object" and prop.get("properties"):
            yield path, "table", name in required, desc
            yield from fields(schema, prop, f"{path}.")
            continue
        yield path, kind, name in required, desc


def markdown(schema: dict[str, Any]) -> str:
    """A Markdown table of every field of result.toml."""
    lines = [f"# {schema['title']}", "", schema["description"], "", "| field | type | required | meaning |", "|---|---|---|---|"]
    for path, kind, req, desc in fields(schema):
        lines.append(f"| `{path}` | {kind} | {'yes' if req else ''} | {desc.replace('|', '/')} |")
    return "\n".join(lines) + "\n"
