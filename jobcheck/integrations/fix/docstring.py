"""Insert a section into the docstring of a function or class, with libcst so everything else
in the file — formatting, comments, quoting — stays as written.

A docstring that exists keeps its prefix, quotes and indentation; the section is appended after a
blank line, and the closing quotes move to their own line. A one-quote docstring (`"Send it."`)
becomes a triple-quoted one. With no docstring, one is created as the body's first statement.
Targets are found by qualified name (as the summaries spell it: `Cls.method`, `f.<locals>.g`),
with the `def` line to choose between redefinitions.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass


@dataclass(frozen=True)
class Target:
    qualname: str  # relative to the module: "send_invoice", "InvoiceTask", "InvoiceTask.run"
    line: int  # the line of its name in the analysed text (0: any)
    section: tuple[str, ...]  # the section's lines, relative to the docstring's indentation
    indent_unit: str = "    "  # what `section` uses for one level (re-indented to the file's)


class Unfixable(Exception):
    """The docstring cannot take the section safely (concatenated strings, byte strings...)."""


def insert_sections(text: str, targets: list[Target]) -> tuple[str, list[Target], dict[Target, str]]:
    """The new text, the targets applied, and why the others could not be (target -> reason; a
    target not found at all is in neither). Parses `text` with libcst; raises libcst's
    ParserSyntaxError when it does not parse."""
    import libcst as cst
    from libcst.metadata import MetadataWrapper, PositionProvider

    module = cst.parse_module(text)
    wrapper = MetadataWrapper(module, unsafe_skip_copy=True)
    positions = wrapper.resolve(PositionProvider)
    lines = _LINE_BREAK.split(text)  # as Python counts lines: not at form feeds or U+2028
    newline = module.default_newline
    applied: list[Target] = []
    refused: dict[Target, str] = {}
    by_name: dict[str, list[Target]] = {}
    for t in targets:
        by_name.setdefault(t.qualname, []).append(t)

    class Inserter(cst.CSTTransformer):
        def __init__(self) -> None:
            self.stack: list[tuple[str, str]] = []  # (kind, name)

        def _qualname(self, name: str) -> str:
            parts = []
            for kind, n in self.stack:
                parts.append(n)
                if kind == "def":
                    parts.append("<locals>")
            return ".".join([*parts, _identifier(name)])

        def visit_FunctionDef(self, node) -> bool:
            self.stack.append(("def", _identifier(node.name.value)))
            return True

        def visit_ClassDef(self, node) -> bool:
            self.stack.append(("class", _identifier(node.name.value)))
            return True

        def leave_FunctionDef(self, original, updated):
            return self._leave(original, updated)

        def leave_ClassDef(self, original, updated):
            return self._leave(original, updated)

        def _leave(self, original, updated):
            self.stack.pop()
            candidates = by_name.get(self._qualname(original.name.value))
            if not candidates:
                return updated
            line = positions[original.name].start.line
            target = next((t for t in candidates if t.line == line), None)
            if target is None and len(candidates) == 1 and candidates[0].line == 0:
                target = candidates[0]
            if target is None or target in applied:
                return updated
            try:
                new = _with_section(cst, updated, original, target, positions, lines, newline, module.default_indent)
            except Unfixable as exc:
                refused[target] = str(exc)
                return updated
            applied.append(target)
            return new

    new_module = wrapper.module.visit(Inserter())
    return new_module.code, applied, refused


def _identifier(name: str) -> str:
    """A name as Python (and the analysis) reads it: NFKC-normalised (PEP 3131), so `def ﬁx()`
    defines `fix`. libcst keeps the name as written."""
    return name if name.isascii() else unicodedata.normalize("NFKC", name)


def _with_section(cst, node, original, target: Target, positions, lines: list[str], newline: str, default_indent: str):
    body = node.body
    if isinstance(body, cst.SimpleStatementSuite):  # `def f(): return 1`: open a block first
        block_indent = _indent_of(lines, positions[original.name].start.line) + default_indent
        small = list(body.body)
        statements = []
        if small and _docstring_expr(cst, cst.SimpleStatementLine(body=small[:1])) is not None:
            statements.append(cst.SimpleStatementLine(body=[small.pop(0).with_changes(semicolon=cst.MaybeSentinel.DEFAULT)]))
        if small:
            small[-1] = small[-1].with_changes(semicolon=cst.MaybeSentinel.DEFAULT)
            statements.append(cst.SimpleStatementLine(body=small))
        body = cst.IndentedBlock(header=body.trailing_whitespace, body=statements)
        node = node.with_changes(body=body)
    elif original.body.body:
        block_indent = _indent_of(lines, positions[original.body.body[0]].start.line)
    else:
        block_indent = _indent_of(lines, positions[original.name].start.line) + default_indent
    first = body.body[0] if body.body else None
    docstring = _docstring_expr(cst, first)
    if docstring is None:
        doc = _new_docstring(cst, target, block_indent, newline)
        return node.with_changes(body=body.with_changes(body=[doc, *body.body]))
    expr_index, string = docstring
    indent = _docstring_indent(string.raw_value, block_indent)
    new_value = _appended(string, target, indent, newline)
    new_line = first.with_changes(body=[
        s.with_changes(value=string.with_changes(value=new_value)) if i == expr_index else s
        for i, s in enumerate(first.body)
    ])
    return node.with_changes(body=body.with_changes(body=[new_line, *body.body[1:]]))


def _docstring_expr(cst, statement):
    """(index of the Expr in the line, its SimpleString) when `statement` is a docstring."""
    if not isinstance(statement, cst.SimpleStatementLine) or not statement.body:
        return None
    expr = statement.body[0]
    if not isinstance(expr, cst.Expr):
        return None
    value = expr.value
    if isinstance(value, cst.SimpleString):
        if "b" in value.prefix.lower():
            return None  # a bytes literal is not a docstring: a new one goes above it
        return 0, value
    if isinstance(value, cst.ConcatenatedString):
        raise Unfixable("a docstring written as concatenated strings")
    return None


def _indent_of(lines: list[str], line: int) -> str:
    text = lines[line - 1] if 0 < line <= len(lines) else ""
    return text[: len(text) - len(text.lstrip(" \t"))]


def _docstring_indent(raw: str, block_indent: str) -> str:
    """The indentation the docstring's own lines use; the block's when it has none."""
    continuation = [ln for ln in raw.splitlines()[1:] if ln.strip()]
    if continuation:
        return min((ln[: len(ln) - len(ln.lstrip(" \t"))] for ln in continuation), key=len)
    return block_indent


def _section_text(target: Target, indent: str, newline: str) -> str:
    unit = "\t" if "\t" in indent else "    "
    out = []
    for line in target.section:
        depth = 0
        while line.startswith(target.indent_unit):
            line = line[len(target.indent_unit):]
            depth += 1
        out.append(indent + unit * depth + line)
    return newline.join(out)


def _new_docstring(cst, target: Target, indent: str, newline: str):
    text = _escaped(_section_text(target, indent, newline), raw=False, triple='"""')
    value = f'"""{newline}{text}{newline}{indent}"""'
    return cst.SimpleStatementLine(body=[cst.Expr(cst.SimpleString(value))])


_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_ODD_BACKSLASHES = re.compile(r"(?<!\\)(\\\\)*\\$")


def _escaped(text: str, raw: bool, triple: str) -> str:
    """`text` as it must be written inside the string literal to read back as itself."""
    if raw:  # backslashes are themselves here; only the closing quotes cannot be written
        if triple in text or text.endswith("\\"):
            raise Unfixable("the section cannot be written inside this raw docstring")
        return text
    return text.replace("\\", "\\\\").replace(triple, "\\".join(triple))


def _appended(string, target: Target, indent: str, newline: str) -> str:
    prefix, quote, raw = string.prefix, string.quote, string.raw_value
    triple = quote if len(quote) == 3 else quote * 3
    text = _escaped(_section_text(target, indent, newline), "r" in prefix.lower(), triple)
    if len(quote) == 1 and triple in raw:
        raise Unfixable("the docstring holds its own triple quotes")
    core = raw.rstrip()
    if "r" not in prefix.lower() and _ODD_BACKSLASHES.search(core):
        raise Unfixable("the docstring ends with a line continuation")
    if core:
        body = f"{core}{newline}{newline}{text}{newline}{indent}"
    else:
        body = f"{newline}{text}{newline}{indent}"
    return f"{prefix}{triple}{body}{triple}"
