"""Parse a region's text with pycparser, without running the preprocessor.

Public: ``parse_region``.  Macros stay as written: identifiers such as
``_PB_N`` are plain names and ``SCALAR_VAL(x)`` is a call.  Type names that
the region uses but does not declare (PolyBench's ``DATA_TYPE``) are declared
as typedefs in a wrapper so that casts and declarations parse.
"""

from __future__ import annotations

import re

from pycparser import c_ast, c_parser

from polyopt.diagnostics import Location, RegionSyntaxError, UnsupportedRegion
from polyopt.frontend.gnu import unmodelled
from polyopt.frontend.lexing import IDENTIFIER, LITERAL, blank_comments, definitions, directives
from polyopt.frontend.regions import Region, polyopt_pragmas

C_TYPE_WORDS = {
    "void",
    "char",
    "short",
    "int",
    "long",
    "float",
    "double",
    "signed",
    "unsigned",
    "_Bool",
    "const",
    "volatile",
    "restrict",
    "static",
    "struct",
    "union",
    "enum",
    "extern",
    "register",
    "auto",
    "inline",
}
_C_KEYWORDS = C_TYPE_WORDS | {
    "if",
    "else",
    "for",
    "while",
    "do",
    "return",
    "break",
    "continue",
    "goto",
    "switch",
    "case",
    "default",
    "sizeof",
    "typedef",
}
_IDENT = IDENTIFIER.pattern
_BASE_TYPE = re.compile(r"(?:(?:unsigned|signed|long|short|const)\s+)*(?:int|long|float|double|char|short|unsigned)\b")
_TYPEDEF = re.compile(rf"\btypedef\b[^;{{}}]*?\b({_IDENT})\s*;")
_CAST = re.compile(rf"\(\s*({_IDENT})\s*\**\s*\)\s*(?=[\w(.])")
_DECL = re.compile(rf"(?:^|[;{{}}(])\s*({_IDENT})\s+{_IDENT}\s*[;=\[,]", re.M)
_BRACE_OR_LITERAL = re.compile(rf"[{{}}]|{LITERAL.pattern}")


class _Parser(c_parser.CParser):
    """pycparser, with a position on every syntax error."""

    def _parse_error(self, msg, coord):  # type: ignore[no-untyped-def]
        if not hasattr(coord, "line"):
            token = self._peek()
            if token is not None:
                coord = self._tok_coord(token)
        super()._parse_error(msg, coord)


def _type_names(region_text: str, file_text: str) -> set[str]:
    """Names to declare as typedefs: file typedefs, type macros, cast targets."""
    names = {
        name
        for name, defined in definitions(file_text)
        if defined is not None and defined.parameters is None and _type_macro(defined.body)
    }
    names |= set(_TYPEDEF.findall(file_text))
    names |= set(_CAST.findall(region_text)) | set(_DECL.findall(region_text))
    names.add("DATA_TYPE")
    return {name for name in names if name not in _C_KEYWORDS}


def _type_macro(body: str) -> bool:
    """Whether a macro's ``body`` names a type of C's own (``double``, ``unsigned long``) and nothing else."""
    return _BASE_TYPE.match(body) is not None and "(" not in body


def _error_location(message: str, fallback: Location) -> tuple[Location, str]:
    match = re.match(r"^(.*?):(\d+):(\d+): (.*)$", message, re.S)
    if match:
        return Location(fallback.file, int(match[2]), int(match[3])), match[4]
    match = re.match(r"^(.*?):(\d+): (.*)$", message, re.S)
    if match:
        return Location(fallback.file, int(match[2])), match[3]
    return fallback, message.split(": ", 1)[-1]


def _check_directives(body: str, region: Region) -> None:
    for directive in directives(body):
        line = region.body_line + body.count("\n", 0, directive.start)
        column = directive.text.index("#") + 1
        where = Location(region.location.file, line, column)
        if directive.name in ("pragma", "line", ""):
            if directive.name == "pragma":
                words = " ".join(directive.rest.split()[:2])
                raise UnsupportedRegion(f"'#pragma {words}' inside the region", where)
            continue
        raise UnsupportedRegion(f"preprocessor directive '#{directive.name}' inside the region", where)


def _check_braces(body: str, region: Region) -> None:
    """Braces must balance inside the region: it is a sequence of whole statements."""
    opened: list[int] = []
    for match in _BRACE_OR_LITERAL.finditer(body):
        if match[0] == "{":
            opened.append(match.start())
        elif match[0] == "}":
            if not opened:
                raise RegionSyntaxError(
                    "syntax error: '}' closes a block that the region did not open",
                    _position(body, match.start(), region),
                )
            opened.pop()
    if opened:
        raise RegionSyntaxError(
            "syntax error: '{' is not closed before '#pragma endscop'", _position(body, opened[-1], region)
        )


def _offset(body: str, where: Location, region: Region) -> int:
    """The offset in ``body`` of the start of line ``where.line``."""
    offset = 0
    for _ in range(where.line - region.body_line):
        offset = body.index("\n", offset) + 1
    return offset


def _position(body: str, offset: int, region: Region) -> Location:
    line = region.body_line + body.count("\n", 0, offset)
    column = offset - (body.rfind("\n", 0, offset) + 1) + 1
    return Location(region.location.file, line, column)


def parse_region(region: Region, file_text: str) -> c_ast.Compound:
    """Parse the region's body; return it as one compound statement.

    Raises ``RegionSyntaxError`` on a C syntax error (with the position in the
    original file) and ``UnsupportedRegion`` for preprocessor directives and the
    GNU constructs that ``polyopt.frontend.gnu.unmodelled`` names.  GNU spellings of
    plain meaning must already be rewritten (``polyopt.frontend.gnu.readable``).
    """
    body = blank_comments(region.body).replace("\r", " ")
    if "/*" in body:
        raise RegionSyntaxError("syntax error: unterminated comment", _position(body, body.index("/*"), region))
    for where, _ in polyopt_pragmas(region):
        start = _offset(body, where, region)
        end = body.find("\n", start)
        body = body[:start] + " " * ((end if end >= 0 else len(body)) - start) + body[end if end >= 0 else len(body) :]
    _check_directives(body, region)
    _check_braces(body, region)
    construct = unmodelled(body)
    if construct is not None:
        raise UnsupportedRegion(f"{construct[1]} inside the region", _position(body, construct[0], region))
    typedefs = "".join(f"typedef int {name};\n" for name in sorted(_type_names(body, file_text)))
    filename = region.location.file.replace("\\", "\\\\").replace('"', '\\"')
    wrapper = f'{typedefs}void polyopt_region(void)\n{{\n# {region.body_line} "{filename}"\n{body}\n}}\n'
    try:
        unit = _Parser().parse(wrapper, filename)
    except c_parser.ParseError as error:
        location, message = _error_location(str(error), region.location)
        raise RegionSyntaxError(f"syntax error: {message}", location) from None
    except (AssertionError, IndexError, TypeError, ValueError) as error:
        raise RegionSyntaxError(
            f"syntax error: the region does not parse ({error or type(error).__name__})", region.location
        ) from None
    function = unit.ext[-1]
    assert isinstance(function, c_ast.FuncDef)
    return function.body


def parse_function(text: str, line: int, filename: str, file_text: str) -> c_ast.FuncDef | None:
    """Parse the function definition ``text`` (starting at ``line`` of ``filename``), with the type
    names of ``file_text`` declared; None when it does not parse as one."""
    typedefs = "".join(f"typedef int {name};\n" for name in sorted(_type_names(text, file_text)))
    quoted = filename.replace("\\", "\\\\").replace('"', '\\"')
    try:
        unit = _Parser().parse(f'{typedefs}# {line} "{quoted}"\n{text}\n', filename)
    except (c_parser.ParseError, AssertionError, IndexError, TypeError, ValueError):
        return None
    function = unit.ext[-1] if unit.ext else None
    return function if isinstance(function, c_ast.FuncDef) else None
