"""SQLite leases read time from SQLite's clock, which every process sharing the file agrees on,
not from Python's time.time(), which a process can fake or shift (freezegun, a monkeypatch)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from jobcheck.runtime import SQLiteLeases


@pytest.mark.parametrize("skew", [3600.0, -3600.0], ids=["an_hour_ahead", "an_hour_behind"])
def test_a_skewed_python_clock_neither_takes_a_held_lease_nor_blocks_others(
    skew: float, tmp_path: Path, resource: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "leases.db"
    honest = SQLiteLeases(path)
    held = honest.acquire(resource, 30)
    real_time = time.time
    monkeypatch.setattr(time, "time", lambda: real_time() + skew)
    skewed = SQLiteLeases(path)
    try:
        assert skewed.acquire(resource, 5) is None  # ahead: the lease looked expired
        assert skewed.get(resource).held
        assert honest.release(held)
        short = skewed.acquire(resource, 0.2)  # behind: a free lease looked held
        assert short is not None and short.token == held.token + 1
        expires = skewed.get(resource).expires_at.timestamp()
        assert abs(expires - (real_time() + 0.2)) < 5  # on the shared clock, not the skewed one
        time.sleep(0.3)
        later = honest.acquire(resource, 5)  # free after 0.2 s, not after an hour
        assert later is not None and later.token == short.token + 1
        assert skewed.acquire(resource, 5) is None
        assert [i.held for i in skewed.list()] == [True]
    finally:
        skewed.close()
        honest.close()
