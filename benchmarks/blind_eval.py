"""Measure jobcheck against the blind hand labels in benchmarks/blind/*.toml.

    python benchmarks/blind_eval.py [--labels DIR] [--only lemur,zou] [--json OUT] [--keep DIR]

What it measures
----------------
For every label file (one real application, labelled by hand before jobcheck ever ran on it, see
benchmarks/blind/README.md) the script fetches the application's sdist at run time with
`pip download --no-deps --no-binary :all: NAME==VERSION` into a temporary folder (never into the
repository; `--keep DIR` keeps the downloads for reading by hand; an application labelled from its wheel,
`[meta].pypi_sdist` naming a `.whl`, is fetched as that wheel), unpacks it, and runs jobcheck the way
a new user would, from the sdist root with no configuration at all:

    python -m jobcheck.cli jobs  --no-cache --format json .
    python -m jobcheck.cli check --no-cache --select ALL --output-format json --exit-zero .

Exit code 2 from either command is a jobcheck failure: it is recorded, that application's jobs count as
not detected, and the run goes on. JC000 (unreadable file) and JC002 (internal error) findings are
counted too.

1. Detection. A labelled job is detected when the inventory (`jobs`) lists a job in the same file
   (`path` == the label's `app_path`) whose definition line is within LINE_TOLERANCE lines of the
   label's `line`, or, failing that, whose `function`/`job` qualified name ends with the labelled
   qualname (a method's bare name is not enough: another class's `run` in the file is another
   job). Labels are a sample (see each file's `[meta].scope`),
   so jobs jobcheck finds that carry no label are not false positives; their number is only reported.

2. Rule findings. A finding belongs to a labelled job when
   a) its `function` field is the function of the inventory entry matched to that label (a finding
      in a labelled job's own code, or at a retried function's retry setting, whichever job reaches
      it); else its `job` field names that inventory job (findings in helpers reached from the job,
      in any file, belong to it this way), or its `function` field ends with the labelled
      qualname; or
   b) it is in the label's file, inside the job's line range (decorators through the end of the
      def/class, read from the unpacked source with `ast`).
   For every rule in SCORED (the default rules, as their documents say; plus any code that
   appears in a label's `expected`), each labelled expected code is a true positive when at least one finding of that code belongs to that job,
   or lists that job among the jobs that run its code (`jobs`: a finding in a helper several jobs call
   is reported once, naming each of them; its verdict for precision stays the one of the job it belongs to);
   recall = TP / expected (reported as counts: the positives are few).
   Precision looks at every finding of a SCORED rule that is in a file holding labelled jobs or that
   belongs to a labelled job:
     - belongs to a job that expects that code       -> TP
     - belongs to a job that lists it as uncertain   -> uncertain (neither TP nor FP)
     - belongs to a labelled job that expects neither -> FP (the label says the job is clean of it)
     - belongs to no labelled job                     -> FP candidate (an unlabelled job or code
       outside the sample: a thing to read by hand, not a verdict)
   precision = TP findings / (TP + FP + FP candidates) is printed, together with the stricter-to-read
   split, and every unmatched finding is listed as `file:line code message`.
   JC501/JC502 (the five-questions docstring rules) are not scored; their counts are reported.

Output: a table per application, totals, and (`--json OUT`) every matched and unmatched item.
"""

from __future__ import annotations

import argparse
import ast
import collections
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
import time
import tarfile
import tomllib
import urllib.parse
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from real_projects import fetch  # noqa: E402  (pip download + unpack)

BLIND = Path(__file__).resolve().parent / "blind"
DOCSTRING = {"JC501", "JC502"}


def default_rules() -> list[str]:
    """The rules on by default, as their documents say (`default: true`), but the crash codes
    (JC0xx) and the docstring rules, which are counted apart: what "precision on the default
    rules" is measured on, read where the rules are declared so that no rule is left out."""
    rules = Path(__file__).resolve().parent.parent / "rules"
    return sorted(
        doc.stem for doc in rules.glob("JC*.md")
        if re.search(r"^default:\s*true\s*$", doc.read_text(encoding="utf-8"), re.M)
        and not doc.stem.startswith("JC0") and doc.stem not in DOCSTRING)


SCORED = default_rules()
LINE_TOLERANCE = 3


# ----------------------------------------------------------------------------- fetching

def fetch_sdist(name: str, version: str, into: Path) -> tuple[Path, str]:
    """Download and unpack NAME==VERSION's sdist into INTO/src; return (src, how).

    `pip download --no-deps --no-binary :all: --ignore-requires-python` first (real_projects.fetch). Recent pip refuses an sdist
    whose metadata it cannot parse (bodhi-server 26.4.0 has `zstandard (>=0.21,<0.22 || ...)`), so when pip
    fails the same sdist is taken from PyPI's JSON API for that one project, its sha256 checked, and unpacked.
    """
    # An application may require a newer Python than the one measuring it: only its source is read.
    # Its build backend may not build from source here (a Rust one, offline): then only the
    # application itself is asked for as an sdist.
    for only in (":all:", name):
        try:
            return fetch(name, version, ["--no-binary", only, "--ignore-requires-python"], into), "pip download"
        except subprocess.CalledProcessError:
            pass
    index = f"https://pypi.org/pypi/{name}/json"
    with urllib.request.urlopen(index, timeout=60) as response:
        files = json.load(response)["releases"][version]
    sdist = next(f for f in files if f["packagetype"] == "sdist")
    archive = into / sdist["filename"]
    with urllib.request.urlopen(urllib.parse.urljoin(index, sdist["url"]), timeout=180) as response:
        archive.write_bytes(response.read())
    if hashlib.sha256(archive.read_bytes()).hexdigest() != sdist["digests"]["sha256"]:
        raise RuntimeError(f"{archive.name}: sha256 does not match PyPI's")
    target = into / "src"
    target.mkdir(exist_ok=True)
    with tarfile.open(archive) as tar:
        tar.extractall(target, filter="data")
    return target, "PyPI JSON API (pip download refused the sdist's metadata)"


# ----------------------------------------------------------------------------- running jobcheck

def run_jobcheck(root: Path) -> dict:
    """Run `jobs` and `check` from the sdist root, as a new user would (no configuration)."""
    out: dict = {"errors": []}
    started = time.perf_counter()
    jobs = subprocess.run([sys.executable, "-m", "jobcheck.cli", "jobs", "--no-cache", "--format", "json", "."],
                          cwd=root, capture_output=True, text=True)
    out["jobs_seconds"] = time.perf_counter() - started
    out["jobs_rc"] = jobs.returncode
    out["inventory"] = None
    if jobs.returncode == 2:
        out["errors"].append(f"jobs exit 2: {jobs.stderr.strip()[-2000:]}")
    else:
        try:
            out["inventory"] = json.loads(jobs.stdout)
        except json.JSONDecodeError as exc:
            out["errors"].append(f"jobs printed no JSON ({exc}): {jobs.stderr.strip()[-2000:]}")
    started = time.perf_counter()
    check = subprocess.run([sys.executable, "-m", "jobcheck.cli", "check", "--no-cache", "--select", "ALL",
                            "--output-format", "json", "--exit-zero", "."],
                           cwd=root, capture_output=True, text=True)
    out["check_seconds"] = time.perf_counter() - started
    out["check_rc"] = check.returncode
    out["findings"] = []
    if check.returncode == 2:
        out["errors"].append(f"check exit 2: {check.stderr.strip()[-2000:]}")
    try:  # exit 2 with JC002 still prints every other finding
        out["findings"] = json.loads(check.stdout) if check.stdout.strip() else []
    except json.JSONDecodeError as exc:
        out["errors"].append(f"check printed no JSON ({exc}): {check.stderr.strip()[-2000:]}")
    return out


def norm(path: str, root: Path) -> str:
    """A path from jobcheck's output, relative to the sdist root, with forward slashes."""
    p = Path(path)
    if p.is_absolute():
        try:
            p = p.resolve().relative_to(root.resolve())
        except ValueError:
            pass
    return Path(os.path.normpath(p)).as_posix()


# ----------------------------------------------------------------------------- matching

def job_span(root: Path, label: dict) -> tuple[int, int]:
    """Line range of the labelled def/class: first decorator through the last line of the body."""
    try:
        tree = ast.parse((root / label["app_path"]).read_text(encoding="utf-8", errors="replace"))
    except (OSError, SyntaxError):
        return label["line"], label["line"]
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.lineno == label["line"]:
            start = min([node.lineno] + [d.lineno for d in node.decorator_list])
            return start, node.end_lineno or node.lineno
    return label["line"], label["line"]


def dotted_endswith(name: str | None, suffix: str) -> bool:
    return bool(name) and (name == suffix or name.endswith("." + suffix))


def match_inventory(label: dict, jobs: list[dict]) -> tuple[dict | None, str]:
    """The inventory entry for a labelled job, and how it matched ('line', 'qualname', '')."""
    same_file = [j for j in jobs if j["_path"] == label["app_path"]]
    near = [j for j in same_file if abs(j["line"] - label["line"]) <= LINE_TOLERANCE]
    if near:
        return min(near, key=lambda j: abs(j["line"] - label["line"])), "line"
    qual = label["qualname"]
    hits = [j for j in same_file if dotted_endswith(j.get("function"), qual) or dotted_endswith(j.get("job"), qual)]
    if hits:
        return min(hits, key=lambda j: abs(j["line"] - label["line"])), "qualname"
    return None, ""


def owner_of(finding: dict, labels: list[dict]) -> tuple[int | None, str]:
    """Index of the labelled job a finding belongs to, and why ('own' code of a labelled job,
    'job' field, 'function' field or 'range'). A finding in a labelled job's own function is that
    job's, whichever job reaches it (a retried method the bot's loop calls)."""
    for i, lab in enumerate(labels):
        inv = lab["_inventory"]
        if finding.get("function") and inv and finding["function"] == inv.get("function"):
            return i, "own"
    for i, lab in enumerate(labels):  # also when the labelled job itself was not detected
        if finding.get("function") and lab["app_path"] == finding["_path"] \
                and dotted_endswith(finding["function"], lab["qualname"]):
            return i, "function"
    for i, lab in enumerate(labels):
        inv = lab["_inventory"]
        if finding.get("job") and inv and finding["job"] in (inv.get("job"), inv.get("function")):
            return i, "job"
    for i, lab in enumerate(labels):
        start, end = lab["_span"]
        if finding["_path"] == lab["app_path"] and start <= finding["line"] <= end:
            return i, "range"
    return None, ""


# ----------------------------------------------------------------------------- one application

def evaluate(label_file: Path, keep: Path | None) -> dict:
    data = tomllib.loads(label_file.read_text())
    meta, labels = data["meta"], data.get("job", [])
    app = meta["name"]
    result: dict = {"app": app, "version": meta["version"], "label_file": label_file.name}
    started = time.perf_counter()
    tmp = None
    if keep:
        into = keep / f"{app}-{meta['version']}"
        into.mkdir(parents=True, exist_ok=True)
    else:
        tmp = tempfile.TemporaryDirectory()
        into = Path(tmp.name)
    try:
        result["fetched_with"] = "kept download"
        if not (into / "src").exists() and ".whl" in meta.get("pypi_sdist", ""):
            # Labelled from the wheel (no sdist, or one that does not build here): paths are the
            # unzipped wheel's.
            fetch(meta.get("pypi_name", app), meta["version"], ["--only-binary", ":all:", "--ignore-requires-python"], into)
            result["fetched_with"] = "pip download (wheel)"
        elif not (into / "src").exists():
            result["fetched_with"] = fetch_sdist(meta.get("pypi_name", app), meta["version"], into)[1]
        tops = [p for p in (into / "src").iterdir() if p.is_dir()]
        root = tops[0] if len(tops) == 1 else into / "src"
        result["fetch_seconds"] = time.perf_counter() - started
        result["root"] = str(root)
        run = run_jobcheck(root)
        return score(result, run, labels, root)
    finally:
        if tmp:
            tmp.cleanup()


def score(result: dict, run: dict, labels: list[dict], root: Path) -> dict:
    result.update({k: run[k] for k in ("jobs_seconds", "check_seconds", "jobs_rc", "check_rc", "errors")})
    failed = run["jobs_rc"] == 2 or run["inventory"] is None
    inventory = (run["inventory"] or {}).get("jobs", []) if not failed else []
    for j in inventory:
        j["_path"] = norm(j["path"], root)
    findings = run["findings"]
    for f in findings:
        f["_path"] = norm(f["path"], root)
    result["inventory_jobs"] = len(inventory)
    result["unanalysed"] = (run["inventory"] or {}).get("unanalysed", [])
    result["codes"] = dict(sorted(collections.Counter(f["code"] for f in findings).items()))

    # 1. detection
    detection = []
    for lab in labels:
        inv, how = match_inventory(lab, inventory)
        lab["_inventory"], lab["_span"] = inv, job_span(root, lab)
        detection.append({"app_path": lab["app_path"], "line": lab["line"], "qualname": lab["qualname"],
                          "detected": inv is not None, "how": how,
                          "inventory": None if inv is None else
                          {k: inv.get(k) for k in ("job", "function", "framework", "kind", "path", "line", "triggers")}})
    result["detection"] = detection
    result["detected"] = sum(d["detected"] for d in detection)
    result["labelled"] = len(labels)

    # 2. findings: assign each finding to a labelled job (or none)
    rules = list(SCORED) + sorted({c for lab in labels for c in lab["expected"]} - set(SCORED))
    result["rules"] = rules
    labelled_files = {lab["app_path"] for lab in labels}
    items = []  # every scored finding we looked at, classified
    tp_labels = set()  # (label index, code)
    for f in findings:
        if f["code"] not in rules and f["code"] not in DOCSTRING:
            continue
        idx, why = owner_of(f, labels)
        if f["code"] in DOCSTRING:
            f["_owner"] = idx
            continue
        if idx is None and f["_path"] not in labelled_files:
            continue  # outside the labelled sample: not read at all
        lab = labels[idx] if idx is not None else None
        if lab is None:
            verdict = "fp_candidate"
        elif f["code"] in lab["expected"]:
            verdict = "tp"
            tp_labels.add((idx, f["code"]))
        elif f["code"] in lab.get("uncertain", []):
            verdict = "uncertain"
        else:
            verdict = "fp"
        for j, other in enumerate(labels):  # a helper's finding also concerns the other jobs it lists
            inv = other["_inventory"]
            if j != idx and inv and f["code"] in other["expected"] and \
                    any(name in (inv.get("job"), inv.get("function")) for name in f.get("jobs", ())):
                tp_labels.add((j, f["code"]))
        items.append({"verdict": verdict, "code": f["code"], "path": f["_path"], "line": f["line"],
                      "job": f.get("job"), "label": lab["qualname"] if lab else None, "matched_by": why,
                      "confidence": f.get("confidence"), "message": f["message"]})
    result["findings"] = items

    expected = []  # every labelled expected code, hit or missed
    for i, lab in enumerate(labels):
        for code in lab["expected"]:
            expected.append({"code": code, "app_path": lab["app_path"], "line": lab["line"],
                             "qualname": lab["qualname"], "found": (i, code) in tp_labels})
        for code in lab.get("uncertain", []):
            expected.append({"code": code, "app_path": lab["app_path"], "line": lab["line"],
                             "qualname": lab["qualname"], "found": any(
                                 it["verdict"] == "uncertain" and it["code"] == code and it["label"] == lab["qualname"]
                                 for it in items), "uncertain": True})
    result["expected"] = expected
    docs = [f for f in findings if f["code"] in DOCSTRING]
    result["docstring"] = {"JC501": sum(f["code"] == "JC501" for f in docs),
                           "JC502": sum(f["code"] == "JC502" for f in docs),
                           "on_labelled_jobs": len({f["_owner"] for f in docs if f.get("_owner") is not None})}
    result["crash"] = {"exit2": int(run["jobs_rc"] == 2) + int(run["check_rc"] == 2),
                       "JC000": result["codes"].get("JC000", 0), "JC002": result["codes"].get("JC002", 0)}
    return result


# ----------------------------------------------------------------------------- report

def pct(a: int, b: int) -> str:
    return f"{a / b:.0%}" if b else "-"


def report(results: list[dict], seconds: float) -> None:
    print(f"\n{'app':<22} {'detected':>9} {'jobs found':>10} {'exp':>4} {'TP':>3} {'unc.hit':>7} "
          f"{'FP(lab)':>7} {'FPcand':>6} {'JC501':>5} {'JC502':>5} {'rc j/c':>7} {'JC000':>5} {'JC002':>5} {'secs':>6}")
    tot = collections.Counter()
    for r in results:
        v = collections.Counter(it["verdict"] for it in r["findings"])
        exp = [e for e in r["expected"] if not e.get("uncertain")]
        unc = [e for e in r["expected"] if e.get("uncertain")]
        secs = r["jobs_seconds"] + r["check_seconds"]
        print(f"{r['app']:<22} {r['detected']:>4}/{r['labelled']:<4} {r['inventory_jobs']:>10} {len(exp):>4} "
              f"{sum(e['found'] for e in exp):>3} {sum(e['found'] for e in unc):>3}/{len(unc):<3} {v['fp']:>7} "
              f"{v['fp_candidate']:>6} {r['docstring']['JC501']:>5} {r['docstring']['JC502']:>5} "
              f"{str(r['jobs_rc']) + '/' + str(r['check_rc']):>7} {r['crash']['JC000']:>5} {r['crash']['JC002']:>5} {secs:>6.1f}")
        tot.update({"detected": r["detected"], "labelled": r["labelled"], "found": r["inventory_jobs"],
                    "exp": len(exp), "tp": sum(e["found"] for e in exp), "unc_hit": sum(e["found"] for e in unc),
                    "unc": len(unc), "fp": v["fp"], "fpc": v["fp_candidate"], "jc501": r["docstring"]["JC501"],
                    "jc502": r["docstring"]["JC502"], "jc000": r["crash"]["JC000"], "jc002": r["crash"]["JC002"],
                    "exit2": r["crash"]["exit2"], "secs": secs})
    print(f"{'TOTAL':<22} {tot['detected']:>4}/{tot['labelled']:<4} {tot['found']:>10} {tot['exp']:>4} {tot['tp']:>3} "
          f"{tot['unc_hit']:>3}/{tot['unc']:<3} {tot['fp']:>7} {tot['fpc']:>6} {tot['jc501']:>5} {tot['jc502']:>5} "
          f"{'exit2=' + str(tot['exit2']):>7} {tot['jc000']:>5} {tot['jc002']:>5} {tot['secs']:>6.1f}")
    print(f"detection: {tot['detected']}/{tot['labelled']} = {pct(tot['detected'], tot['labelled'])}")

    rules = sorted({c for r in results for c in r["rules"]})
    print(f"\n{'rule':<6} {'expected':>8} {'TP':>3} {'recall':>7} | {'findings':>8} {'TP':>3} {'unc':>4} "
          f"{'FP(lab)':>7} {'FPcand':>6} {'precision':>9} {'(lab only)':>10}")
    for code in rules:
        exp = [e for r in results for e in r["expected"] if e["code"] == code and not e.get("uncertain")]
        its = [it for r in results for it in r["findings"] if it["code"] == code]
        v = collections.Counter(it["verdict"] for it in its)
        hit = sum(e["found"] for e in exp)
        print(f"{code:<6} {len(exp):>8} {hit:>3} {str(hit) + ' of ' + str(len(exp)):>7} | {len(its):>8} {v['tp']:>3} "
              f"{v['uncertain']:>4} {v['fp']:>7} {v['fp_candidate']:>6} "
              f"{pct(v['tp'], v['tp'] + v['fp'] + v['fp_candidate']):>9} {pct(v['tp'], v['tp'] + v['fp']):>10}")
    allits = [it for r in results for it in r["findings"]]
    v = collections.Counter(it["verdict"] for it in allits)
    print(f"{'all':<6} {tot['exp']:>8} {tot['tp']:>3} {str(tot['tp']) + ' of ' + str(tot['exp']):>7} | {len(allits):>8} "
          f"{v['tp']:>3} {v['uncertain']:>4} {v['fp']:>7} {v['fp_candidate']:>6} "
          f"{pct(v['tp'], v['tp'] + v['fp'] + v['fp_candidate']):>9} {pct(v['tp'], v['tp'] + v['fp']):>10}")
    print("  precision = TP / (TP + FP + FP candidates), uncertain excluded; '(lab only)' leaves out the FP candidates")
    print("  (findings outside any labelled job, which are to be read by hand, not verdicts).")

    missed = [(r["app"], e) for r in results for e in r["expected"] if not e["found"] and not e.get("uncertain")]
    if missed:
        print("\nmissed expected findings:")
        for app, e in missed:
            print(f"  {app}: {e['app_path']}:{e['line']} {e['qualname']} {e['code']}")
    undetected = [(r["app"], d) for r in results for d in r["detection"] if not d["detected"]]
    if undetected:
        print("\nlabelled jobs not in the inventory:")
        for app, d in undetected:
            print(f"  {app}: {d['app_path']}:{d['line']} {d['qualname']}")
    for kind, title in (("tp", "true positives"), ("uncertain", "findings on labels marked uncertain"),
                        ("fp", "FP: on a labelled job whose label expects no such code"),
                        ("fp_candidate", "FP candidates: in a labelled file, on no labelled job (read by hand)")):
        rows = [(r["app"], it) for r in results for it in r["findings"] if it["verdict"] == kind]
        if rows:
            print(f"\n{title}:")
            for app, it in rows:
                who = f" [{it['label']} via {it['matched_by']}]" if it["label"] else f" [job={it['job']}]"
                print(f"  {app}: {it['path']}:{it['line']} {it['code']}{who} {it['message'][:220]}")
    print("\nall codes reported per application (whole sdist, every rule):")
    for r in results:
        print(f"  {r['app']:<22} {r['codes']}  (fetched with: {r.get('fetched_with')})")
        for u in r["unanalysed"]:
            print(f"      unanalysed: {u.get('path')}:{u.get('line')} {u.get('message', '')[:160]}")
    errors = [(r["app"], e) for r in results for e in r["errors"]]
    if errors:
        print("\njobcheck failures:")
        for app, e in errors:
            print(f"  {app}: {e}")
    print(f"\nwall time {seconds:.1f} s (jobcheck {tot['secs']:.1f} s, the rest is pip download and unpacking)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", type=Path, help="write every matched and unmatched item here")
    parser.add_argument("--only", help="comma-separated application names (label file stems)")
    parser.add_argument("--keep", type=Path, help="download and unpack into this folder and keep it")
    parser.add_argument("--labels", type=Path, default=BLIND, help="the folder of label files (default: blind/)")
    args = parser.parse_args()
    wanted = set(args.only.split(",")) if args.only else None
    files = [p for p in sorted(args.labels.glob("*.toml")) if not wanted or p.stem in wanted]
    started = time.perf_counter()
    results = []
    for path in files:
        print(f"{path.stem} ...", file=sys.stderr, flush=True)
        try:
            results.append(evaluate(path, args.keep.resolve() if args.keep else None))
        except Exception as exc:  # the download failed: say so, go on
            print(f"{path.stem}: download failed: {exc}", file=sys.stderr)
    seconds = time.perf_counter() - started
    report(results, seconds)
    if args.json:
        args.json.write_text(json.dumps({"seconds": seconds, "results": results}, indent=2, default=str))


if __name__ == "__main__":
    main()
