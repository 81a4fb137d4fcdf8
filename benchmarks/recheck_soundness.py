"""Do re-checked findings equal a fresh run's on real code? Random edits of function bodies, of
module-level names, of decorators, of calls scans ask for, of class attributes and of which
functions and classes there are, in a pinned corpus, each followed by a cached run and an
uncached one.

    python benchmarks/recheck_soundness.py --corpus dagster --edits 30 --seed 11

Uses the corpora and the download of `bench.py` (nothing is committed) and the edit generators
of tests/test_recheck.py; each edit is undone (and the record brought back) before the next.
Prints how each cached run was had (re-checked, re-scanned, reused, re-linked) and exits 1 on any difference.
"""

from __future__ import annotations

import argparse
import ast
import os
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.bench import CORPORA, fetch  # noqa: E402
from jobcheck import api, cache, incremental  # noqa: E402
from jobcheck.config import Config  # noqa: E402
from tests.test_recheck import (random_body_edit, random_call_edit, random_class_edit,  # noqa: E402
                                random_decorator_edit, random_structure_edit, random_table_edit)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", choices=sorted(CORPORA), default="airflow")
    parser.add_argument("--edits", type=int, default=20)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "jobcheck-bench")
    args = parser.parse_args()
    root = fetch(*CORPORA[args.corpus], args.work)
    os.chdir(root)
    config = Config(root=root)
    store = cache.Cache(Path(tempfile.mkdtemp(prefix="recheck-soundness-")))
    incremental.check_paths(["."], config, cache=store)
    files = sorted(p for p in root.rglob("*.py") if "test" not in p.relative_to(root).as_posix())
    rng = random.Random(args.seed)
    ways: dict[str, int] = {}
    different = 0
    for i in range(args.edits):
        path = rng.choice(files)
        text = path.read_text(encoding="utf-8")
        edited = (random_body_edit, random_table_edit, random_decorator_edit, random_call_edit,
                  random_class_edit, random_structure_edit)[i % 6](text, rng)
        try:
            ast.parse(edited)
        except SyntaxError:
            continue
        if edited == text:
            continue
        path.write_text(edited, encoding="utf-8")
        try:
            started = time.perf_counter()
            cached = incremental.check_paths(["."], config, cache=store)
            took = time.perf_counter() - started
            same = cached.findings == api.check_paths(["."], config).findings
        finally:
            path.write_text(text, encoding="utf-8")
            incremental.check_paths(["."], config, cache=store)
        way = cached.reused or "re-linked"
        ways[way] = ways.get(way, 0) + 1
        different += not same
        print(f"{i:3} {way:10} {took:5.2f} s {'same' if same else 'DIFFERENT'}  {path.relative_to(root)}", flush=True)
    print(f"{ways}; different: {different}")
    sys.exit(1 if different else 0)


if __name__ == "__main__":
    main()
