"""The JSON Schema of result.toml (format 1, package data of wirespeed.schema): the schema, its validator, and the
one wording of a schema error as a one-line problem (never a raw pattern), which the loader, the importers'
plans and the collectors share."""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from typing import Any

import jsonschema

from wirespeed.problems import Problem


@lru_cache(maxsize=1)
def schema() -> dict[str, Any]:
    """The JSON Schema of result.toml, format 1."""
    return json.loads(resources.files("wirespeed.schema").joinpath("result.v1.schema.json").read_text("utf-8"))


@lru_cache(maxsize=1)
def validator() -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(schema())


def _field_path(path) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def schema_problem(err: jsonschema.ValidationError, file: str) -> Problem:
    field = _field_path(err.absolute_path)
    v = err.validator
    if v == "additionalProperties":
        extra = sorted(set(err.instance) - set(err.schema.get("properties", {})))
        return Problem(file, None, _field_path([*err.absolute_path, extra[0]]) if extra else field, f"unknown field {', '.join(map(repr, extra))}", "schema.unknown-field")
    if v == "required":
        missing = err.message.split("'")[1] if "'" in err.message else err.message
        return Problem(file, None, _field_path([*err.absolute_path, missing]), f"missing required field {missing!r}", "schema.required")
    if v == "enum":
        return Problem(file, None, field, f"{err.instance!r} is not one of {', '.join(map(str, err.validator_value))}", "schema.enum")
    if v == "pattern":
        desc = err.schema.get("description", "")
        return Problem(file, None, field, f"{err.instance!r} is not in the expected form{': ' + desc if desc else ''}", "schema.pattern")
    if v == "type":
        return Problem(file, None, field, f"{err.instance!r} is not of type {err.validator_value}", "schema.type")
    return Problem(file, None, field, err.message, f"schema.{v}")
