"""The search drivers against a simulated device whose loss curve is known: exact NDR and PDR."""

from __future__ import annotations

import pytest

from search_sim import TailDropDevice, highest_passing
from wirespeed.collectors.search.mlrsearch import mlr_search
from wirespeed.collectors.search.repeat import Spread, search_point
from wirespeed.collectors.search.rfc2544 import binary_search
from wirespeed.collectors.search.session import SearchConfig, SearchError
from wirespeed.collectors.trial import TrafficGenerator, TrialResult

TOP = 1_000_000


@pytest.mark.parametrize("search", [binary_search, mlr_search])
@pytest.mark.parametrize("capacity", [123_457, 999_999, 1_000_000, 3, 640_001])
def test_exact_ndr_and_pdr(search, capacity: int) -> None:
    device = TailDropDevice(capacity)
    cfg = SearchConfig(frame_bytes=64, max_rate_fps=TOP, resolution=0.0, resolution_fps=1, max_trials=200)
    res = search(device, cfg)
    for bound, ratio in zip(res.bounds, (0.0, 0.005)):
        expected = highest_passing(capacity, ratio, TOP)
        assert bound.converged and bound.rate_fps == expected, (ratio, bound)
        assert bound.upper_fps is None if expected == TOP else bound.upper_fps == expected + 1
    assert [t.load_fps for t in res.trials] == [int(c) for c in device.calls]


def test_mlrsearch_shares_trials_between_ratios() -> None:
    cfg = SearchConfig(frame_bytes=64, max_rate_fps=TOP, resolution=0.0, resolution_fps=1, max_trials=200)
    mlr, binary = mlr_search(TailDropDevice(400_000), cfg), binary_search(TailDropDevice(400_000), cfg)
    assert [b.rate_fps for b in mlr.bounds] == [b.rate_fps for b in binary.bounds]
    assert len(mlr.trials) < len(binary.trials)


@pytest.mark.parametrize("search", [binary_search, mlr_search])
def test_relative_resolution_brackets_the_answer(search) -> None:
    cfg = SearchConfig(frame_bytes=512, max_rate_fps=2_000_000, resolution=0.01, max_trials=50)
    res = search(TailDropDevice(777_777), cfg)
    ndr = res.bounds[0]
    assert ndr.converged and ndr.lower_fps <= 777_777 < ndr.upper_fps
    assert ndr.upper_fps - ndr.lower_fps <= 0.01 * ndr.upper_fps


@pytest.mark.parametrize("search", [binary_search, mlr_search])
def test_max_trials_stops_the_search_unconverged(search) -> None:
    cfg = SearchConfig(frame_bytes=64, max_rate_fps=TOP, resolution=0.0, max_trials=4)
    res = search(TailDropDevice(123_457), cfg)
    assert len(res.trials) == 4
    assert not res.bounds[0].converged and "maximum of 4 trials" in res.bounds[0].reason
    lo, up = res.bounds[0].lower_fps, res.bounds[0].upper_fps
    assert up is not None and (lo is None or lo <= 123_457 < up)


def test_time_budget_stops_the_search() -> None:
    now = [0.0]

    class SlowDevice(TailDropDevice):
        def trial(self, frame_bytes, rate_fps, duration_s):
            now[0] += duration_s
            return super().trial(frame_bytes, rate_fps, duration_s)

    from wirespeed.collectors.search.session import Session
    cfg = SearchConfig(frame_bytes=64, max_rate_fps=TOP, trial_duration_s=2, time_budget_s=9, resolution=0.0, max_trials=100)
    s = Session(SlowDevice(5000), cfg, clock=lambda: now[0])
    while s.exhausted() is None:
        s.measure(10_000)
    assert len(s.trials) == 4 and "time budget of 9 s" in s.exhausted()


def test_repeated_points_keep_every_search_and_the_spread() -> None:
    class Drifting(TailDropDevice):
        """Capacity changes between searches: 100,000 then 110,000 then 90,000 (starting each at the maximum)."""
        caps = [100_000, 110_000, 90_000]

        def trial(self, frame_bytes, rate_fps, duration_s):
            if rate_fps == TOP:
                self.capacity_fps = self.caps[len([c for c in self.calls if c == TOP])]
            return super().trial(frame_bytes, rate_fps, duration_s)

    dev = Drifting(0)
    cfg = SearchConfig(frame_bytes=64, max_rate_fps=TOP, resolution=0.0, max_trials=200)
    point = search_point(dev, cfg, repeats=3)
    assert [s.bounds[0].rate_fps for s in point.searches] == [100_000, 110_000, 90_000]
    ndr = point.rates[0.0]
    assert (ndr.mean, ndr.min, ndr.max, ndr.n) == (100_000, 90_000, 110_000, 3) and ndr.stdev == pytest.approx(10_000)
    assert sorted(point.latency) == [0.1, 0.5, 0.9]
    assert [len(t) for t in point.latency.values()] == [3, 3, 3]
    assert [t[0].rate_fps for t in point.latency.values()] == [10_000, 50_000, 90_000]


def test_progress_sees_every_trial_with_current_bounds() -> None:
    seen = []
    res = mlr_search(TailDropDevice(50_000), SearchConfig(frame_bytes=64, max_rate_fps=TOP, resolution=0.001, max_trials=60),
                     on_trial=lambda s, t: seen.append((t.number, dict((r, tuple(b)) for r, b in s.bounds.items()))))
    assert [n for n, _ in seen] == list(range(1, len(res.trials) + 1))
    final = seen[-1][1][0.0]
    assert final == (res.bounds[0].lower_fps, res.bounds[0].upper_fps)


def test_the_protocol_and_the_result() -> None:
    assert isinstance(TailDropDevice(1), TrafficGenerator)
    r = TrialResult(tx_frames=1000, rx_frames=990, duration_s=2.0)
    assert (r.lost_frames, r.loss_ratio, r.rx_rate_fps) == (10, 0.01, 495.0)
    with pytest.raises(ValueError):
        TrialResult(tx_frames=-1, rx_frames=0, duration_s=1)
    assert Spread.of([5.0]).stdev == 0.0


@pytest.mark.parametrize("kwargs, message", [
    ({"frame_bytes": 63}, "frame_bytes"), ({"min_rate_fps": 10, "max_rate_fps": 5}, "min_rate_fps"),
    ({"loss_ratios": (1.5,)}, "loss_ratios"), ({"trial_duration_s": 0}, "trial_duration_s"), ({"max_trials": 0}, "max_trials"),
])
def test_bad_settings_are_refused(kwargs, message) -> None:
    with pytest.raises(SearchError, match=message):
        SearchConfig(**{"frame_bytes": 64, "max_rate_fps": 100, **kwargs})


class SlowGenerator(TailDropDevice):
    """A generator that cannot send faster than `ceiling_fps`: asked for more, it sends the frames asked for, slower
    (as trafgen on a busy machine did), and a device that never drops (capacity above anything it is sent)."""

    def __init__(self, ceiling_fps: int):
        super().__init__(10**9)
        self.ceiling_fps = ceiling_fps

    def trial(self, frame_bytes, rate_fps, duration_s):
        self.calls.append(rate_fps)
        tx = round(rate_fps * duration_s)
        took = max(duration_s, tx / self.ceiling_fps)
        return TrialResult(tx, tx, took, frame_bytes, rate_fps)


@pytest.mark.parametrize("search", [binary_search, mlr_search])
def test_a_generator_that_falls_short_bounds_the_device_from_below_only(search) -> None:
    """A trial sent slower than asked tested the slower rate (a lossless one here: a lower bound); the load asked
    for is the generator's limit, not the device's, and the result says so."""
    cfg = SearchConfig(frame_bytes=64, max_rate_fps=200_000, min_rate_fps=1000, resolution=0.02, resolution_fps=100, max_trials=30)
    res = search(SlowGenerator(18_270), cfg)
    ndr = res.bounds[0]
    assert ndr.generator_limited and ndr.converged
    assert 18_270 * 0.9 <= ndr.lower_fps <= 18_270 < ndr.upper_fps      # the highest rate the generator could deliver, lossless
    assert res.trials[0].load_fps == 200_000 and res.trials[0].result.tx_rate_fps == pytest.approx(18_270)
