"""Parse Python source of any Python 3 version, whatever Python runs jobcheck.

`ast.parse` reads only the syntax of the running interpreter: a 3.12 codebase checked under 3.11 (as
pre-commit and CI images often are) would not be analysed at all. When `ast.parse` refuses a file,
libcst (whose parser reads every Python 3 syntax) parses it, and the constructs the running Python
lacks are rewritten in place into older syntax of the same meaning to the analysis, on the same lines
and (but for `except A, B:`) the same columns, so every line and column jobcheck reports is the
original file's:

    type Alias[T] = value            ->  Alias         = value
    def f[T](x) / class C[T](B)      ->  def f   (x) / class C   (B)
    f"{a["k"]}:{b!r:>{w}}"  (PEP 701) ->  (  a["k"] , b    ,  w  )   (a tuple of its expressions)
    t"..."                  (PEP 750) ->  the same tuple
    except A, B:            (PEP 758) ->  except(A, B):
    except* E:              (3.11)    ->  except  E:

and code of Python 3.6 and earlier, where `async` and `await` were names (`async = True`,
`def fetch(url, async=False)`, `self.async`), gets those names spelt `asyn_` / `awai_`, same length.

A file that neither parser reads raises the original SyntaxError.
"""

from __future__ import annotations

import ast
import re
import warnings


def parse(text: str, filename: str = "<unknown>") -> ast.Module:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # invalid escape sequences in analysed code are not ours
        try:
            return ast.parse(text, filename=filename)
        except SyntaxError as exc:
            original = exc
        older = _rewrite(text) if not _nested_deeper_than(text, _MAX_NESTING) else None
        if older is None:
            older = _rename_old_keywords(text)
        if older is None:
            raise original
        try:
            return ast.parse(older, filename=filename)
        except SyntaxError:
            raise original from None


# Python 3.7 made `async` and `await` keywords; before, they were names everywhere but where they
# began `async def` / `async for` / `async with` or an `await` inside `async def`.
_RENAMED = {"async": "asyn_", "await": "awai_"}
_AFTER_ASYNC = ("def", "for", "with")
_NAME_BEFORE = (".", "def", "class", "as", "import")
_NAME_AFTER = ("=", ")", ",", ":", "]", ".", ";", "+=", "-=", "|=", "")


def _rename_old_keywords(text: str) -> str | None:
    """TEXT with `async` / `await` used as names respelt (same length, so every line and column
    stays), or None when there is none or the text does not tokenize."""
    import io
    import tokenize

    try:
        tokens = [t for t in tokenize.generate_tokens(io.StringIO(text).readline)
                  if t.type not in (tokenize.NL, tokenize.COMMENT)]
    except (tokenize.TokenError, SyntaxError):
        return None
    lines = io.StringIO(text).readlines()  # the rows tokenize counts (not `splitlines`, which breaks at a form feed)
    changed = False
    for i, tok in enumerate(tokens):
        if tok.type != tokenize.NAME or tok.string not in _RENAMED:
            continue
        before = tokens[i - 1].string if i else ""
        after = tokens[i + 1].string if i + 1 < len(tokens) and tokens[i + 1].type != tokenize.NEWLINE else ""
        if tok.string == "async" and after in _AFTER_ASYNC and before not in _NAME_BEFORE:
            continue  # `async def`: the keyword
        if tok.string == "await" and before not in _NAME_BEFORE and after not in _NAME_AFTER:
            continue  # `await fetch()`: the keyword
        row, col = tok.start
        line = lines[row - 1]
        lines[row - 1] = line[:col] + _RENAMED[tok.string] + line[col + len(tok.string):]
        changed = True
    return "".join(lines) if changed else None


# CPython's parser refuses brackets nested deeper than 200 (its MAXLEVEL), so no rewrite could help
# such a file; libcst's native parser overflows its stack (a segmentation fault, which takes the
# whole run down) at about 1,500.
_MAX_NESTING = 200
_BRACKETS = re.compile(r"[()\[\]{}]")


def _nested_deeper_than(text: str, limit: int) -> bool:
    """Do brackets nest deeper than `limit` (counting those in strings and comments too)?"""
    depth = 0
    for m in _BRACKETS.finditer(text):
        depth += 1 if m.group() in "([{" else -1
        if depth > limit:
            return True
    return False


def _rewrite(text: str) -> str | None:
    """TEXT with newer syntax rewritten into the running Python's, or None if libcst refuses it too."""
    import libcst as cst  # only for files the running Python cannot parse: checking stays on `ast`
    from libcst.metadata import MetadataWrapper, PositionProvider

    try:
        module = cst.parse_module(text)
    except Exception:  # libcst's ParserSyntaxError, or its native parser's own limits
        return None
    wrapper = MetadataWrapper(module, unsafe_skip_copy=True)
    positions = wrapper.resolve(PositionProvider)
    edits = _Edits(text)
    for node, where in positions.items():
        if isinstance(node, cst.TypeAlias):
            name = positions[node.name]
            end = positions[node.type_parameters].end if node.type_parameters else name.end
            edits.replace(where.start, end, node.name.value)
        elif isinstance(node, (cst.FunctionDef, cst.ClassDef)) and node.type_parameters:
            brackets = positions[node.type_parameters]
            edits.replace(brackets.start, brackets.end, "")
        elif isinstance(node, (cst.ExceptHandler, cst.ExceptStarHandler)):
            if isinstance(node, cst.ExceptStarHandler):
                edits.drop_star_after_except(where.start)
            if _unparenthesized_tuple(node.type):
                kind = positions[node.type]
                edits.insert(kind.start, "(")
                edits.insert(kind.end, ")")
        elif _is_template(node) and not _parses_alone(module.code_for_node(node)):
            edits.as_tuple(where, [positions[e.expression] for e in _expressions(node)])
    return edits.apply()


def _unparenthesized_tuple(node) -> bool:
    return type(node).__name__ == "Tuple" and not node.lpar


def _is_template(node) -> bool:
    return type(node).__name__ in ("FormattedString", "TemplatedString")


def _expressions(node) -> list:
    """Every `{expression}` of an f-string (or t-string) in source order, format specs included."""
    out = []
    for part in node.parts:
        if hasattr(part, "expression"):
            out.append(part)
            out.extend(_expressions_in_spec(part.format_spec))
    return out


def _expressions_in_spec(spec) -> list:
    out = []
    for part in spec or ():
        if hasattr(part, "expression"):
            out.append(part)
            out.extend(_expressions_in_spec(part.format_spec))
    return out


def _parses_alone(code: str) -> bool:
    try:
        ast.parse("(" + code + "\n)", mode="eval")
    except SyntaxError:
        return False
    return True


class _Edits:
    """Character edits on TEXT, addressed by libcst's (line, column) positions."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.starts = [0]
        for line in text.splitlines(keepends=True):
            self.starts.append(self.starts[-1] + len(line))
        self.chars = list(text)
        self.inserts: dict[int, str] = {}
        self.failed = False

    def offset(self, position) -> int:
        return self.starts[position.line - 1] + position.column

    def replace(self, start, end, with_text: str) -> None:
        """Blank [start, end) and write WITH_TEXT at its start; its line breaks are kept, continued."""
        a, b = self.offset(start), self.offset(end)
        for i in range(a, b):
            if self.chars[i] not in "\r\n":
                self.chars[i] = " "
            elif i == a or self.chars[i - 1] in "\r\n":
                self.failed = True  # a blank line inside the removed part: no place for a backslash
            elif self.chars[i] == "\n" and self.chars[i - 1] == "\r":
                continue
            else:
                self.chars[i - 1] = "\\"
        if len(with_text) > b - a or any(c in "\r\n\\" for c in self.chars[a : a + len(with_text)]):
            self.failed = True
        self.chars[a : a + len(with_text)] = list(with_text)

    def insert(self, position, with_text: str) -> None:
        at = self.offset(position)
        self.inserts[at] = self.inserts.get(at, "") + with_text

    def drop_star_after_except(self, start) -> None:
        i = self.offset(start) + len("except")
        while i < len(self.chars) and self.chars[i] in " \t\f\\\r\n":
            i += 1
        if i < len(self.chars) and self.chars[i] == "*":
            self.chars[i] = " "
        else:
            self.failed = True

    def as_tuple(self, where, inner: list) -> None:
        """The f-string at WHERE becomes a parenthesised tuple of its expressions, each in place."""
        a, b = self.offset(where.start), self.offset(where.end)
        keep = [(self.offset(r.start), self.offset(r.end)) for r in inner]
        cursor = a
        gaps = []
        for s, e in keep:
            gaps.append((cursor, s))
            cursor = e
        gaps.append((cursor, b))
        for s, e in gaps:
            for i in range(s, e):
                if self.chars[i] not in "\r\n":
                    self.chars[i] = " "
        self.chars[a] = "("
        self.chars[b - 1] = ")"
        for s, e in gaps[1:-1]:
            spot = next((i for i in range(s, e) if self.chars[i] == " "), None)
            if spot is None:
                self.failed = True
            else:
                self.chars[spot] = ","

    def apply(self) -> str | None:
        if self.failed:
            return None
        for at in sorted(self.inserts, reverse=True):
            self.chars[at:at] = list(self.inserts[at])
        return "".join(self.chars)
