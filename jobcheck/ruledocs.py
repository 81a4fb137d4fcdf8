"""Rule documents (`rules/JCnnn.md`) are the single source of each rule's catalog entry and docs.

Front matter (between `---` lines, `key: value`) gives code, name, summary, severity, question,
default and precision; the Markdown body is what `jobcheck explain` renders and what SARIF's
help carries. The `bad` / `good` code blocks are tested.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from .model import RuleInfo, Severity

_FRONT = re.compile(r"\A---\n(.*?)\n---\n", re.S)
_BLOCK = re.compile(r"```python[ \t]*\{?\s*([a-z]+)?\s*\}?[ \t]*\n(.*?)```", re.S)
# JC000 (files that cannot be analysed) and JC001 (a suppression naming no code) are
# reported whatever the selection; they are built in, with their docs beside the others.


def rules_dir() -> Path:
    here = Path(__file__).parent / "rules"
    return here if here.is_dir() else Path(__file__).parent.parent / "rules"


@lru_cache(maxsize=1)
def load_all() -> dict[str, tuple[RuleInfo, str]]:
    out: dict[str, tuple[RuleInfo, str]] = {}
    for path in sorted(rules_dir().glob("JC*.md")):
        text = path.read_text(encoding="utf-8")
        match = _FRONT.match(text)
        if not match:
            raise ValueError(f"{path}: no front matter")
        meta = dict(
            (k.strip(), v.strip()) for k, _, v in (line.partition(":") for line in match.group(1).splitlines()) if k.strip()
        )
        info = RuleInfo(
            code=meta["code"],
            name=meta["name"],
            summary=meta["summary"],
            severity=Severity(meta.get("severity", "warning")),
            question=meta.get("question", ""),
            default=meta.get("default", "true").lower() == "true",
            precision=meta.get("precision", "high"),
            tags=tuple(t.strip() for t in meta.get("tags", "").split(",") if t.strip()),
            examples=meta.get("examples", "").lower() != "none",
        )
        out[info.code] = (info, text[match.end():])
    return out


def rules() -> dict[str, RuleInfo]:
    return {code: info for code, (info, _) in load_all().items()}


def known_codes() -> set[str]:
    return set(load_all())


def document(code_or_name: str) -> tuple[RuleInfo, str] | None:
    key = code_or_name.strip()
    for code, (info, body) in load_all().items():
        if key.upper() == code or key.lower() == info.name:
            return info, body
    return None


def examples(body: str) -> list[tuple[str, str]]:
    """(label, code) for each ```python block labelled bad/good in a rule document."""
    return [(label or "", code) for label, code in _BLOCK.findall(body)]
