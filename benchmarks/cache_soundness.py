"""Is the cache invisible on real code? For each real project: a cold cached run, a warm run and a
run after each of several seeded random edits must report exactly what a run without a cache
reports.

    python benchmarks/cache_soundness.py [--edits 6] [--only saleor,dagster] [--seed 1]

Projects are fetched at run time with `pip download --no-deps` into a temporary folder (never
committed): the five applications of `real_projects.py`, and apache-airflow-core, dagster and
label-studio. Each run is `jobcheck check --select ALL --output-format json` in its own process;
an edit is one of: a function appended, blank lines inserted at the top of a module, a job's first
decorator dropped, the top-level function most modules import by name renamed, a statement that
posts inserted at the top of a function body. Exits 1 on any difference.
"""

from __future__ import annotations

import argparse
import ast
import collections
import json
import random
import re
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from real_projects import PROJECTS, fetch  # noqa: E402

MORE = [
    ("apache-airflow-core", "3.3.2", ["--no-binary", ":all:"], "apache_airflow_core-3.3.2/src"),
    ("dagster", "1.13.29", ["--no-binary", ":all:"], "dagster-1.13.29"),
    ("label-studio", "1.23.2", ["--no-binary", ":all:"], "label_studio-1.23.2/label_studio"),
]


def run(root: Path, folder: str, cache: Path | None) -> list:
    args = [sys.executable, "-m", "jobcheck.cli", "check", "--select", "ALL", "--output-format", "json", "--exit-zero"]
    args += ["--cache-dir", str(cache)] if cache is not None else ["--no-cache"]
    result = subprocess.run([*args, folder], cwd=root, capture_output=True, text=True)
    if result.returncode != 0:
        raise SystemExit(f"jobcheck failed (exit {result.returncode}) in {root / folder}:\n{result.stderr[-2000:]}")
    return json.loads(result.stdout)


def _functions(text: str):
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return []
    return [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.body]


def edit(files: list[Path], rng: random.Random, core: tuple[Path, str] | None) -> str:
    kind = rng.choice(["append", "blank lines", "decorator dropped", "core renamed", "body statement"])
    # Mostly a file that has jobs or retries in it, where an edit can change findings.
    jobs = [p for p in files if re.search(r"task|job|retry|schedule|@op\b|dag", p.read_text(errors="replace"))]
    path = rng.choice(jobs if jobs and rng.random() < 0.8 else files)
    text = path.read_text(encoding="utf-8", errors="surrogateescape")
    lines = text.splitlines(keepends=True)
    if kind == "append":
        text += "\n\ndef _soundness_probe(x):\n    return x\n"
    elif kind == "blank lines":
        text = "\n\n\n" + text
    elif kind == "decorator dropped":
        decorated = [n for n in _functions(text) if n.decorator_list]
        if not decorated:
            return edit(files, rng, core)
        line = rng.choice(decorated).decorator_list[0].lineno - 1
        text = "".join(lines[:line] + ["\n"] + lines[line + 1:]) if not lines[line].rstrip().endswith(("(", ",")) else text
    elif kind == "core renamed" and core is not None:
        path, name = core
        text = path.read_text(encoding="utf-8", errors="surrogateescape")
        text = re.sub(rf"^def {re.escape(name)}\(", f"def {name}_renamed(", text, count=1, flags=re.M)
    else:
        functions = _functions(text)
        if not functions:
            return edit(files, rng, core)
        first = rng.choice(functions).body[0]
        indent = " " * first.col_offset
        line = first.lineno - 1
        text = "".join(lines[:line] + [f"{indent}import requests; requests.post('https://example.com', json={{}})\n"]
                       + lines[line:])
    path.write_text(text, encoding="utf-8", errors="surrogateescape")
    return f"{kind}: {path}"


def core_function(root: Path, files: list[Path]) -> tuple[Path, str] | None:
    """The top-level function the most modules import by name."""
    counts: collections.Counter = collections.Counter()
    for path in files:
        for match in re.finditer(r"^from [\w.]+ import ([\w, ]+)$", path.read_text(errors="replace"), flags=re.M):
            counts.update(n.strip() for n in match.group(1).split(","))
    for name, _ in counts.most_common(50):
        for path in files:
            if re.search(rf"^def {re.escape(name)}\(", path.read_text(errors="replace"), flags=re.M):
                return path, name
    return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--edits", type=int, default=6)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", help="comma-separated project names")
    args = parser.parse_args()
    wanted = set(args.only.split(",")) if args.only else None
    failed = 0
    for name, version, flags, folder in PROJECTS + MORE:
        if wanted and name not in wanted:
            continue
        rng = random.Random(f"{args.seed}-{name}")
        with tempfile.TemporaryDirectory() as tmp:
            root = fetch(name, version, flags, Path(tmp))
            cache = Path(tmp) / "cache"
            files = sorted(p for p in (root / folder).rglob("*.py") if "/tests/" not in p.as_posix())
            core = core_function(root, files)
            steps = [("cold", None), ("warm", None)] + [("edit", None)] * args.edits
            for step, _ in steps:
                what = step if step != "edit" else edit(files, rng, core)
                cached, fresh = run(root, folder, cache), run(root, folder, None)
                same = cached == fresh
                failed += not same
                print(f"{name}=={version:<10} {len(fresh):>5} findings  {'same' if same else 'DIFFERENT'}  {what}")
                if not same:
                    a, b = {json.dumps(f, sort_keys=True) for f in cached}, {json.dumps(f, sort_keys=True) for f in fresh}
                    print("  only cached:", sorted(a - b)[:3], "\n  only fresh:", sorted(b - a)[:3])
    print("FAIL" if failed else "ok: every cached run equals a run without a cache")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
