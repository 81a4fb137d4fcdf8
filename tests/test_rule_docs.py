"""Each rule document's `bad` example triggers its rule and its `good` example does not."""

from __future__ import annotations

import pytest

from jobcheck import api, ruledocs

DOCS = ruledocs.load_all()


def _examples():
    for code, (_, body) in sorted(DOCS.items()):
        for label, source in ruledocs.examples(body):
            if label in ("bad", "good"):
                yield pytest.param(code, label, source, id=f"{code}-{label}")


def test_every_rule_has_both_examples() -> None:
    for code, (info, body) in DOCS.items():
        labels = {label for label, _ in ruledocs.examples(body)}
        assert {"bad", "good"} <= labels or not info.examples, f"{code} lacks a bad or a good example"
    assert [code for code, (info, _) in DOCS.items() if not info.examples] == ["JC002"]


def test_every_rule_document_has_the_sections() -> None:
    for code, (info, body) in DOCS.items():
        for section in ("## What it does", "## Why is this bad?", "## Example", "## Use instead", "## References"):
            assert section in body, f"{code} lacks {section!r}"
        assert info.name and info.summary and info.code == code


@pytest.mark.parametrize(("code", "label", "source"), list(_examples()))
def test_example(code: str, label: str, source: str) -> None:
    report = api.check_sources({f"example_{label}.py": source}, selection=api.Selection(select=["ALL"]))
    codes = {f.code for f in report.findings}
    if label == "bad":
        assert code in codes, f"{code} bad example not reported; got {sorted(codes)}"
    else:
        assert code not in codes, f"{code} good example reported: {[f.message for f in report.findings if f.code == code]}"
