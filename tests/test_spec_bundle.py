"""A set's bundle of compiled Vega specs (wirespeed/site/data.py packed_specs): each value its charts share is said once,
and every chart unpacks to exactly its spec (js/charts.js unpacks the same way; test_chart_browser draws every chart of
the built site from the bundle)."""

from __future__ import annotations

import json

from test_chart_drawings import LAYERED, SPEC
from wirespeed.analysis import drawings
from wirespeed.site.data import packed_specs, spec_bundle


def unpacked_spec(bundle: dict, cid: str) -> dict:
    """One chart's Vega spec from a packed bundle, as js/charts.js rebuilds it."""
    parts = bundle["parts"]
    return {k: [parts[i] for i in v] if isinstance(v, list) else parts[v] for k, v in bundle["charts"][cid].items()}


def _specs() -> dict:
    return {"line": json.loads(drawings.draw(SPEC).web), "layered": json.loads(drawings.draw(LAYERED).web),
            "latency": json.loads(drawings.draw({**SPEC, "title": "Latency"}).web)}


def test_every_chart_unpacks_to_its_spec_and_shared_values_are_said_once():
    specs = _specs()
    bundle = packed_specs(specs)
    assert set(bundle) == {"parts", "charts"} and set(bundle["charts"]) == set(specs)
    for cid, spec in specs.items():
        assert unpacked_spec(bundle, cid) == spec
    texts = [json.dumps(p, sort_keys=True) for p in bundle["parts"]]
    assert len(texts) == len(set(texts))  # no value twice
    assert bundle["charts"]["line"]["axes"] == bundle["charts"]["latency"]["axes"]  # the same axes, said once
    packed, whole = (len(json.dumps(x, separators=(",", ":"))) for x in (bundle, specs))
    assert packed < 0.85 * whole  # 0.80 here; a set of real charts packs to about half


def test_the_bundle_does_not_depend_on_the_order_it_was_given():
    specs = _specs()
    reordered = {cid: dict(reversed(list(spec.items()))) for cid, spec in reversed(list(specs.items()))}
    assert json.dumps(packed_specs(specs)) == json.dumps(packed_specs(reordered))


def test_the_written_bundle_does_not_depend_on_the_order_of_any_spec_s_keys(tmp_path):
    specs = _specs()

    def reordered(value):
        if isinstance(value, dict):
            return {k: reordered(value[k]) for k in reversed(list(value))}
        return [reordered(v) for v in value] if isinstance(value, list) else value

    one, two = tmp_path / "one", tmp_path / "two"
    name = spec_bundle("a-set", specs, one)
    assert spec_bundle("a-set", reordered(specs), two) == name
    assert (one / "charts" / name).read_bytes() == (two / "charts" / name).read_bytes()
