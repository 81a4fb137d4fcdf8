"""Lease + fencing stress on SQLite, PostgreSQL and Redis; prints a table of figures.

    python benchmarks/runtime_stress.py                  # all three backends, 8 x 200 cycles
    python benchmarks/runtime_stress.py --backends sqlite --processes 16 --cycles 500 --json

The same stress as tests/runtime/test_stress.py (jobcheck.runtime.stress): worker processes
acquire leases on a few shared resources, sometimes pause past the TTL, and make fenced writes;
the run fails if a stale write was accepted, a token was issued twice, or a write was lost or
doubled. Servers are JOBCHECK_TEST_POSTGRES_DSN / JOBCHECK_TEST_REDIS_URL when set, else
throwaway servers started from the installed binaries (jobcheck.runtime.servers). Exit status 1
if any backend shows a problem.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from contextlib import ExitStack
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout

from jobcheck.runtime.servers import throwaway_postgres, throwaway_redis  # noqa: E402
from jobcheck.runtime.stress import StressConfig, format_table, run_stress  # noqa: E402

CONFIGURED = {"postgres": "JOBCHECK_TEST_POSTGRES_DSN", "redis": "JOBCHECK_TEST_REDIS_URL"}
THROWAWAY = {"postgres": throwaway_postgres, "redis": throwaway_redis}


def server_url(backend: str, stack: ExitStack, tmp: str) -> str:
    if backend == "sqlite":
        return f"sqlite:///{Path(tmp) / 'stress.db'}"
    return os.environ.get(CONFIGURED[backend]) or stack.enter_context(THROWAWAY[backend]())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backends", default="sqlite,postgres,redis", help="comma-separated subset")
    parser.add_argument("--processes", type=int, default=8)
    parser.add_argument("--cycles", type=int, default=200, help="lease cycles per process")
    parser.add_argument("--resources", type=int, default=4)
    parser.add_argument("--ttl", type=float, default=0.1)
    parser.add_argument("--pause-probability", type=float, default=0.03)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--json", action="store_true", help="also print the figures as JSON")
    args = parser.parse_args()

    results = []
    with tempfile.TemporaryDirectory(prefix="jobcheck-stress-") as tmp, ExitStack() as stack:
        for backend in args.backends.split(","):
            try:
                url = server_url(backend, stack, tmp)
                cfg = StressConfig(url, args.processes, args.cycles, args.resources, args.ttl, args.pause_probability,
                                   seed=args.seed)
                result = run_stress(cfg)
            except Exception as exc:  # noqa: BLE001 - a server unreachable or not installed: report and go on
                print(f"{backend}: could not run ({type(exc).__name__}: {exc})", file=sys.stderr)
                continue
            results.append(result)
            for problem in result.problems:
                print(f"{backend}: problem: {problem}", file=sys.stderr)
    print(format_table(results))
    if args.json:
        print(json.dumps([r.as_dict() for r in results], indent=2))
    return 0 if results and all(r.ok for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
