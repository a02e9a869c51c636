"""Trending (engine/trend.py, engine/versions.py, presentation/trend_text.py) on SYNTHETIC series, never
published: 1 % trial-to-trial variation, 20 sets of 3 trials. Statistical claims are checked over many
series drawn with a fixed seed, so each run sees the same draws and the rates are stable."""

from __future__ import annotations

import random

import pytest

from wirespeed.engine import versions
from wirespeed.engine.trend import Point, analyse, break_even, segments
from wirespeed.presentation import trend_text

N_SETS, TRIALS, NOISE, STEP = 20, 3, 0.01, 0.03
LEVEL = 7_440_476.0  # frames/s: half the 64-byte line rate of a 10G port


def _series(rng: random.Random, step_at: int | None, step: float, n: int = N_SETS, testbed_at: int | None = None) -> list[Point]:
    return [Point(f"set-{i:02d}", tuple(LEVEL * (1 + (step if step_at is not None and i >= step_at else 0.0)) * (1 + rng.gauss(0, NOISE))
                                        for _ in range(TRIALS)),
                  (("instrument", "B" if testbed_at is not None and i >= testbed_at else "A"),)) for i in range(n)]


def _found(points: list[Point], better: str = "higher"):
    return [c for c in analyse(points, better).changes if c.kind != "testbed"]


def test_jumpavg_finds_at_least_90_percent_of_3_percent_steps():
    """200 series, each with one 3 % step (up or down) at a random set with at least two sets after it: the step
    is found at exactly that set, in the right direction, with no other change, in at least 90 % of them."""
    rng = random.Random(20261125)
    hits = 0
    for _ in range(200):
        at, step = rng.randint(2, N_SETS - 2), rng.choice((-STEP, STEP))
        found = _found(_series(rng, at, step))
        hits += len(found) == 1 and found[0].at == at and found[0].kind == ("regression" if step < 0 else "progression")
    assert hits / 200 >= 0.90, hits


def test_jumpavg_raises_at_most_5_percent_false_alarms():
    """200 series without any change: at most 5 % of them report a regression or progression."""
    rng = random.Random(7)
    alarms = sum(bool(_found(_series(rng, None, 0.0))) for _ in range(200))
    assert alarms / 200 <= 0.05, alarms


def test_the_smallest_detectable_change_is_what_jumpavg_detects_about_half_the_time():
    """The limit a page states for the newest set alone: a change a quarter above it is found in most series,
    one a quarter below it in few (what the page says the series could not have detected)."""
    rng = random.Random(11)
    limit = break_even((N_SETS - 1) * TRIALS, TRIALS, NOISE, -1)
    assert 0.025 < limit < 0.045  # 3 trials in one set against 57 before them, at 1 % variation
    rate = {}
    for factor in (0.75, 1.25):
        rate[factor] = sum(any(c.kind == "regression" and c.at == N_SETS - 1 for c in _found(_series(rng, N_SETS - 1, -limit * factor)))
                           for _ in range(120)) / 120
    assert rate[1.25] >= 0.75 and rate[0.75] <= 0.35, rate
    # the series' own statement agrees: a 3 % step in its newest set alone is below what it can promise to see
    t = analyse(_series(random.Random(3), None, 0.0))
    assert t.detectable.newest is not None and t.detectable.newest > STEP
    assert t.detectable.sustained is not None and t.detectable.sustained < STEP


def test_more_trials_lower_the_limit():
    assert break_even(30, 30, 0.01, -1) < break_even(9, 9, 0.01, -1) < break_even(3, 3, 0.01, -1)
    assert break_even(30, 30, 0.02, -1) > break_even(30, 30, 0.01, -1)
    assert break_even(0, 3, 0.01, -1) is None


def test_a_test_bed_change_forces_a_boundary_and_is_never_a_regression():
    """A 10 % fall exactly where the instrument changed is a test-bed change, not a regression; the groups on
    either side never mix, and a real step later in the new segment is still found."""
    rng = random.Random(5)
    pts = _series(rng, 8, -0.10, testbed_at=8)
    t = analyse(pts)
    assert segments(pts) == [(0, 7), (8, 19)]
    assert [(c.at, c.kind) for c in t.changes] == [(8, "testbed")]
    assert t.changes[0].testbed == (("instrument", "A", "B"),)
    assert all(g.last < 8 or g.first >= 8 for g in t.groups)
    # a step at set 14 within the second segment is found there
    pts = [Point(p.key, tuple(x * (0.95 if i >= 14 else 1.0) for x in p.trials), p.testbed) for i, p in enumerate(_series(random.Random(6), None, 0.0, testbed_at=8))]
    assert [(c.at, c.kind) for c in analyse(pts).changes] == [(8, "testbed"), (14, "regression")]


def test_which_way_is_worse_follows_the_metric():
    pts = [Point(f"s{i}", (2.0 if i < 10 else 2.4, 2.01 if i < 10 else 2.41, 1.99 if i < 10 else 2.39)) for i in range(20)]
    assert [c.kind for c in analyse(pts, "lower").changes] == ["regression"]  # latency rose
    assert [c.kind for c in analyse(pts, "higher").changes] == ["progression"]  # throughput rose
    with pytest.raises(ValueError):
        analyse(pts, "sideways")
    with pytest.raises(ValueError):
        analyse([Point("a", ())])


def test_confidence_grows_with_the_step_and_is_a_probability():
    rng = random.Random(9)
    small = _found(_series(rng, 10, -0.02))
    big = _found(_series(rng, 10, -0.10))
    assert small and big and 0.5 < small[0].confidence < big[0].confidence <= 1.0
    assert big[0].bits > small[0].bits > 0


def test_explanation_sentences_state_the_numbers_and_the_confidence():
    """Exact trials: 10 sets around 100 µs-equivalent then 10 sets around 90: one regression, one sentence."""
    pts = [Point(f"set-{i:02d}", (7.44e6, 7.45e6, 7.43e6) if i < 10 else (6.70e6, 6.71e6, 6.69e6)) for i in range(20)]
    t = analyse(pts)
    (c,) = t.changes
    s = {"metric": "throughput", "better": "higher", "ordered_by": "version", "test_title": "IPv4 forwarding", "frame_size": 64, "imix": None,
         "load_pct": None, "direction": "unidirectional", "variant": None, "noise": t.detectable.noise, "trials": 60, "sets": 20,
         "detect_newest": t.detectable.newest, "detect_sustained": t.detectable.sustained, "changes": [{"kind": c.kind}]}
    row = {"kind": c.kind, "before_avg": c.before.avg, "after_avg": c.after.avg, "relative": c.relative, "n_before": c.before.trials,
           "n_after": c.after.trials, "bits": c.bits, "confidence": c.confidence, "smallest": c.smallest, "testbed": None}
    point = {"slug": "set-10", "version": "Example OS 1.0.10", "date": "2026-11-11"}
    unit = trend_text.unit(s, [7.44e6])
    text = trend_text.change_sentence(s, row, point, unit, trend_text.decimals([7.44, 6.70]))
    assert text.startswith("Regression at Example OS 1.0.10 (result set set-10, 11 November 2026): throughput fell from 7.440 to 6.700 Mframes/s "
                           "(-9.9 %; 30 trials before, 30 after), confidence > 99.99 % (jumpavg describes the series ")
    assert text.endswith(" bits shorter with this change than without).")
    assert "could not have been told" not in text  # 30 trials a side: not few
    few = {**row, "n_before": 3, "n_after": 3, "smallest": break_even(3, 3, 0.01, -1)}
    assert text != (t2 := trend_text.change_sentence(s, few, point, unit, 3)) and "a change under 9.7 % could not have been told from noise here." in t2
    limits = trend_text.limits_sentence(s)
    assert limits.startswith("This series could not have detected a fall under ") and "in the newest result set alone" in limits
    assert "(60 trials in 20 result sets)" in limits
    tb = {**row, "kind": "testbed", "testbed": "instrument: A → B"}
    assert trend_text.change_sentence(s, tb, point, unit, 3).startswith("The test bed changed at Example OS 1.0.10 (result set set-10, 11 November 2026) "
                                                                       "(instrument: A → B), so a new group starts there")


@pytest.mark.parametrize("p, text", [(0.999999, "> 99.99 %"), (0.99987, "99.98 %"), (0.5, "50.00 %"), (None, "")])
def test_confidence_text_never_rounds_up_to_certainty(p, text):
    assert trend_text.confidence(p) == text


def test_percent_text():
    assert [trend_text.percent(x) for x in (-0.0312, 0.136, 0.0048, 0.0)] == ["-3.1 %", "+13.6 %", "+0.48 %", "0.0 %"]


def test_versions_are_ordered_version_aware():
    vs = ["1.0.10", "1.0.9", "1.0~rc1", "1.0", "23.10-rc0~106-gffff", "23.10-rc0~105-g1a2b", "7.0(3)I7(10)", "7.0(3)I7(9)"]
    assert sorted(vs, key=versions.version_key) == ["1.0~rc1", "1.0", "1.0.9", "1.0.10", "7.0(3)I7(9)", "7.0(3)I7(10)",
                                                    "23.10-rc0~105-g1a2b", "23.10-rc0~106-gffff"]


def test_series_order_by_shared_software_then_date():
    P = versions.Placed
    sets = [P("b", (("OS", "1.0.10"), ("ruleset", "a")), "2026-01-01"), P("a", (("OS", "1.0.9"), ("ruleset", "b")), "2026-02-01"),
            P("c", (("OS", "1.0.9"), ("ruleset", "a")), "2026-03-01")]
    o = versions.order(sets)
    assert o.by == "version" and o.slugs == ("c", "a", "b") and o.components == ("OS", "ruleset")
    # no common component: by date, undated last, then slug
    o = versions.order([P("x", (("A", "1"),), "2026-02"), P("y", (("B", "1"),), None), P("z", (), "2025")])
    assert o.by == "date" and o.slugs == ("z", "x", "y")
    # a component some sets name and others do not (a chain added to the device): those without it first
    o = versions.order([P("n100", (("OS", "1"), ("chain", "100 rules")), "2026-01"), P("none", (("OS", "1"),), "2026-03"),
                        P("n0", (("OS", "1"), ("chain", "0 rules")), "2026-02")])
    assert o.by == "version" and o.slugs == ("none", "n0", "n100") and o.components == ("chain",)
    # ... but a component only one set names is no order
    assert versions.order([P("p", (("OS", "1"), ("x", "2")), "2026-02"), P("q", (("OS", "1"),), "2026-01")]).by == "date"
    # the same version everywhere: by date
    assert versions.order([P("p", (("OS", "1"),), "2026-02"), P("q", (("OS", "1"),), "2026-01")]).slugs == ("q", "p")


def test_anomaly_labels_take_turns_near_each_other_and_stay_over_the_plot():
    """A label prints the change of the mean beside its triangle; one a few sets after another goes higher, one near the
    top of the scale below its triangle, and in the last quarter of the series a label reads leftwards (the trend page's
    chart at 390 px printed them over each other)."""
    from wirespeed.presentation.charts import compile_chart
    from wirespeed.presentation.trend_chart import ABOVE, BELOW, HIGHER, _placed

    marks = [{"x": x, "value": v, "kind": "regression", "label": f"regression +{x}.0 %", "short": f"+{x}.0 %"}
             for x, v in ((12, 1.0), (4, 1.0), (6, 1.0), (9, 1.0), (19, 1.0), (21, 9.5))]
    placed = _placed(marks, 21, 0.0, 10.0)
    assert [(a["x"], a["side"], a["dy"]) for a in placed] == [(4, "right", ABOVE), (6, "right", HIGHER), (9, "right", ABOVE),
                                                            (12, "right", HIGHER), (19, "left", ABOVE), (21, "left", BELOW)]
    defn = {"id": "t", "type": "trend", "title": "T", "alt": "a", "caption": "c", "y_title": "Y", "x_title": "X",
            "data": [{"x": i, "mean": 1.0} for i in range(1, 22)], "trials": [], "groups": [], "anomalies": placed, "boundaries": []}
    texts = [layer for layer in compile_chart(defn)["layer"] if layer["mark"]["type"] == "text"]
    assert {layer["encoding"]["text"]["field"] for layer in texts} == {"short"}
    assert sorted({(layer["mark"]["align"], layer["mark"]["dy"]) for layer in texts}) == [("left", HIGHER), ("left", ABOVE),
                                                                                          ("right", ABOVE), ("right", BELOW)]
