"""Output formats. Each module has `render(report, stream, **options)`; the CLI picks one.

Options every renderer accepts (and may ignore): `color` (bool), `root` (the folder CI paths are
relative to; default: the repository around the working folder) and `sources` (display path ->
text, for findings on text that is not on disk).
"""

from __future__ import annotations

FORMATS = ("text", "concise", "json", "sarif", "github", "gitlab")


def renderer(name: str):
    from importlib import import_module

    if name not in FORMATS:
        raise ValueError(f"unknown output format {name!r}")
    return import_module(f"{__name__}.{name}").render
