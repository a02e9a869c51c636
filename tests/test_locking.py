"""The machine-wide namespace lock: a second holder is refused at once with one line; the lock is freed on every way out."""

from __future__ import annotations

import pytest

from wirespeed.collectors import netns_ramp, netns_search
from wirespeed.system import locking


def test_both_namespace_collectors_share_one_lock():
    assert netns_ramp.LOCK_FILE == netns_search.LOCK_FILE == locking.NETNS_LOCK


def test_a_second_holder_is_refused_and_the_lock_is_freed_after(tmp_path):
    path = tmp_path / "run" / "netns.lock"
    assert not locking.busy(path)
    with locking.exclusive(path):
        assert locking.busy(path)
        with pytest.raises(locking.Busy, match=r"^another netns collection is running \(it holds .*netns\.lock\)$"):
            with locking.exclusive(path):
                pass
    assert not locking.busy(path)
    with pytest.raises(RuntimeError):
        with locking.exclusive(path):
            raise RuntimeError("a failing collection")
    assert not locking.busy(path)
