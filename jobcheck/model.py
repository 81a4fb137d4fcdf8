"""The data every part of jobcheck shares: findings, severities, confidences, rule metadata."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field


class Severity(str, enum.Enum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


class Confidence(str, enum.Enum):
    """How the finding was reached: resolved names, inference, or a heuristic."""

    HIGH = "high"
    MEDIUM = "medium"
    LOW = "low"

    @staticmethod
    def weakest(*values: "Confidence") -> "Confidence":
        order = [Confidence.LOW, Confidence.MEDIUM, Confidence.HIGH]
        return min(values, key=order.index) if values else Confidence.HIGH


@dataclass(frozen=True)
class Span:
    """1-based lines, 1-based columns, end exclusive as editors expect."""

    line: int
    column: int
    end_line: int
    end_column: int


@dataclass(frozen=True)
class Finding:
    code: str
    name: str
    path: str
    span: Span
    message: str
    severity: Severity
    confidence: Confidence = Confidence.HIGH
    job: str | None = None
    chain: tuple[str, ...] = ()
    # The qualified name of the function the anchor lies in; used for baselines and fixes.
    function: str | None = None
    # Every job whose run reaches the anchor, `job` first (a helper's finding concerns each caller job).
    jobs: tuple[str, ...] = ()

    @property
    def line(self) -> int:
        return self.span.line

    @property
    def column(self) -> int:
        return self.span.column

    def sort_key(self) -> tuple:
        return (self.path, self.span.line, self.span.column, self.code, self.message)

    def to_json(self) -> dict:
        return {
            "code": self.code,
            "name": self.name,
            "path": self.path,
            "line": self.span.line,
            "column": self.span.column,
            "end_line": self.span.end_line,
            "end_column": self.span.end_column,
            "message": self.message,
            "severity": self.severity.value,
            "confidence": self.confidence.value,
            "job": self.job,
            "chain": list(self.chain),
            "function": self.function,
            "jobs": list(self.jobs),
        }


@dataclass(frozen=True)
class RuleInfo:
    """A rule's catalog entry, read from the front matter of its document in rules/."""

    code: str
    name: str
    summary: str
    severity: Severity
    question: str
    default: bool = True
    precision: str = "high"
    examples: bool = True  # the document has tested bad/good examples (JC002 cannot)
    tags: tuple[str, ...] = field(default_factory=tuple)


@dataclass(frozen=True)
class Failure:
    """jobcheck failed on one part of a run (a framework's scan, a rule, a file, linking); the
    rest goes on, and the failure is reported as JC002 (internal-error)."""

    where: str  # "framework celery", "rule JC201", "linking", ...
    error: str  # the exception, as `describe` gives it
    path: str | None = None  # the file it was working on, if known
    line: int = 1

    @staticmethod
    def describe(exc: BaseException) -> str:
        text = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
        return f"{type(exc).__name__}: {text[:200]}" if text else type(exc).__name__
