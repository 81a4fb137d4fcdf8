"""Output formats. Each module has `render(report, stream, **options)`; the CLI picks one."""

from __future__ import annotations

FORMATS = ("text", "concise", "json")


def renderer(name: str):
    from importlib import import_module

    if name not in FORMATS:
        raise ValueError(f"unknown output format {name!r}")
    return import_module(f"{__name__}.{name}").render
