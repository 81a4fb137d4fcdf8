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
    render = import_module(f"{__name__}.{name}").render

    def render_any_name(report, stream, **options) -> None:
        _tolerant(stream)
        render(report, stream, **options)

    return render_any_name


def _tolerant(stream) -> None:
    """A file name that is not UTF-8 (`x\xff.py`) is held as lone surrogates: a stream that
    refuses them would fail the whole report. Write them as the bytes they were (as `ls` does) on
    a UTF-8 stream, escaped on any other. The JSON formats write valid Unicode themselves."""
    if getattr(stream, "errors", None) == "strict" and hasattr(stream, "reconfigure"):
        utf8 = (getattr(stream, "encoding", "") or "").lower().replace("-", "") == "utf8"
        stream.reconfigure(errors="surrogateescape" if utf8 else "backslashreplace")
