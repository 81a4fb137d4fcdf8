"""Run jobcheck on real applications nobody here wrote and print the findings per rule.

    python benchmarks/real_projects.py [--out findings.json]

Each project is fetched at run time with `pip download --no-deps` into a temporary folder
(never committed), unpacked, and checked with every rule selected. The printed table is what
the closing notes quote; the findings themselves go to --out for reading by hand.
"""

from __future__ import annotations

import argparse
import collections
import json
import re
import subprocess
import sys
import tarfile
import tempfile
import time
import zipfile
from pathlib import Path

# name, version, extra pip flags, folder inside the archive to check
PROJECTS = [
    ("saleor", "2.10.1", ["--no-binary", ":all:", "--python-version", "3.8"], "saleor-2.10.1/saleor"),
    ("misago", "0.39.6", ["--no-binary", ":all:"], "misago-0.39.6/misago"),
    ("pretix", "2024.7.0", ["--only-binary", ":all:"], "pretix"),
    ("mayan-edms", "4.6", ["--only-binary", ":all:"], "mayan"),
    ("apache-superset", "6.1.0", ["--only-binary", ":all:"], "superset"),
]


def fetch(name: str, version: str, flags: list[str], into: Path) -> Path:
    subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", *flags,
                    f"{name}=={version}", "-d", str(into)], check=True)
    # Archive names normalise the project name (PEP 625: `changedetection.io` -> `changedetection_io`).
    stem = re.sub(r"[-_.]+", "_", name.lower())
    archive = next(p for p in into.iterdir() if re.sub(r"[-_.]+", "_", p.name.lower()).startswith(stem))
    target = into / "src"
    target.mkdir(exist_ok=True)
    if archive.suffix == ".whl" or archive.suffix == ".zip":
        zipfile.ZipFile(archive).extractall(target)
    else:
        with tarfile.open(archive) as tar:
            tar.extractall(target, filter="data") if sys.version_info >= (3, 12) else tar.extractall(target)
    return target


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, help="write every finding as JSON here")
    parser.add_argument("--only", help="comma-separated project names")
    args = parser.parse_args()
    wanted = set(args.only.split(",")) if args.only else None
    everything = {}
    print(f"{'project':<14} {'files':>6} {'seconds':>8}  findings per rule")
    for name, version, flags, folder in PROJECTS:
        if wanted and name not in wanted:
            continue
        with tempfile.TemporaryDirectory() as tmp:
            root = fetch(name, version, flags, Path(tmp))
            started = time.perf_counter()
            result = subprocess.run(
                [sys.executable, "-m", "jobcheck.cli", "check", "--select", "ALL", "--no-cache", "--output-format", "json", folder],
                cwd=root, capture_output=True, text=True,
            )
            elapsed = time.perf_counter() - started
            if result.returncode not in (0, 1):
                print(f"{name}: jobcheck failed: {result.stderr}", file=sys.stderr)
                continue
            findings = json.loads(result.stdout)
            files = sum(1 for _ in (root / folder).rglob("*.py"))
            counts = collections.Counter(f["code"] for f in findings)
            print(f"{name + '==' + version:<14} {files:>6} {elapsed:>8.2f}  {dict(sorted(counts.items()))}")
            everything[f"{name}=={version}"] = findings
    if args.out:
        args.out.write_text(json.dumps(everything, indent=2))


if __name__ == "__main__":
    main()
