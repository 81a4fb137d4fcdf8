"""Checking one file's text that is not on disk (`jobcheck check - --stdin-filename app/tasks.py`,
for editors and formatters' pipelines): the text is analysed as the file at that path would be —
named as that module, configured by the configuration around it, and reading the modules it
imports from disk — and its findings are reported under the name given."""

from __future__ import annotations

import io
import tokenize
from pathlib import Path

from ..analysis import context, files, source
from ..config import Config
from . import pipeline


def check_document(data: bytes, path: Path, display: str, config: Config,
                   selection: pipeline.Selection = pipeline.Selection(), force_exclude: bool = False) -> pipeline.Report:
    """The findings in `data` (the file's bytes, decoded as Python decodes a file) as the file at
    `path`, reported under `display`. With `force_exclude`, a path the configuration excludes is
    not checked (an empty report, as for excluded files given by name)."""
    if force_exclude and not files.discover([str(path)], config.root, config.exclude + config.extend_exclude, True):
        return pipeline.Report(findings=[], files=0, project=None)
    planned = pipeline.plan_modules([(path, display)])
    _, _, module, is_package = planned[0]
    summary = source.summarize_bytes(data, display, module, is_package)  # undecodable: JC000
    decoded = text_of(data)
    texts = {display: decoded[0]} if decoded else {}  # columns come from this text, not from the disk
    extra = context.load([summary], pipeline.import_roots(planned, config),
                         lambda batch: [source.summarize_one(job) for job in batch])
    return pipeline.analyse([summary, *extra], config, selection, {display: path}, sources=texts,
                            report_paths={display}, report_modules={module})


def text_of(data: bytes) -> tuple[str, str] | None:
    """The text of a file's bytes and their encoding as `tokenize` names it ("utf-8-sig" with a
    BOM, so that encoding a fixed text writes the BOM again); None when it cannot be decoded."""
    try:
        text = source.decode(data)
    except UnicodeError:
        return None
    encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    return text, encoding
