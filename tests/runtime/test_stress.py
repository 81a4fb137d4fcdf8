"""8 processes x 200 lease cycles per backend, with pauses past the TTL injected at random.

Figures are printed in the terminal summary ("jobcheck lease stress") and recorded as junit
properties; benchmarks/runtime_stress.py runs the same thing standalone.
"""

from __future__ import annotations

from typing import Any

import pytest

from jobcheck.runtime.stress import StressConfig, run_stress

from .conftest import STRESS_FIGURES


@pytest.mark.timeout(120)
def test_stress(lease_url: str, request: pytest.FixtureRequest, record_property: Any) -> None:
    cfg = StressConfig(lease_url, processes=8, cycles=200, resources=4, ttl=0.1, pause_probability=0.03, seed=7)
    result = run_stress(cfg, timeout=90)
    request.config.stash[STRESS_FIGURES].append(result)
    for key, value in result.as_dict().items():
        record_property(f"stress_{key}", value)
    print(result.as_dict())

    assert result.problems == []
    assert result.cycles == cfg.processes * cfg.cycles
    # Tokens were issued exactly 1..N per resource, so the highest is at most the cycle count.
    assert result.max_token <= result.cycles
    # Nothing lost, nothing doubled.
    assert result.counter == result.accepted
    assert result.accepted + result.rejected == result.cycles
    # The pauses really happened and the store really refused stale writers.
    assert result.paused >= 10
    assert result.rejected >= 1
