"""Macros in a region: kept by name where that means what C's text means, else replaced by their expansion.

Public: ``Expanded``, ``region_probes``, ``invocation_probes``, ``expand_macros``, ``restore_positions``,
``file_macros_check``.

A macro is text: with ``#define W NN+1``, C reads ``2*W`` as ``2*NN+1`` and ``W*2`` as ``NN+1*2``.  An
occurrence of a macro in a region keeps its name (and the model reads it as a value, a parameter, a
variable or a call) when its expansion at the region (gcc's, with the command line's flags) reads as
one operand wherever the region puts it and brings nothing the model would miss:

- the expansion is one postfix expression (a name, a literal or a parenthesized expression, then any
  subscripts, calls or members: ``16``, ``n``, ``(NN + 1)``, ``sqrtf(x)``), a sign before a literal or a
  parenthesized expression (``-1``), or type words (``double``, ``unsigned long``);
- it holds no assignment, ``++`` or ``--`` and calls no function with side effects; an object-like
  macro calls no function at all (as a parameter, its value must hold through the region);
- the region neither writes nor declares the macro's name or a name that its expansion brings (for a
  function-like macro, the names of its arguments aside: the model reads them as a pure call's);
- a function-like macro is not named like the helpers that the model reads with their usual meaning
  (``min``, ``max``, ``MIN``, ``MAX``, ``floord``, ``ceild``), does not stand where the model needs an
  affine expression (a loop's header, an ``if`` condition, a subscript: the model reads no call there),
  and its arguments hold no occurrence that is replaced.

So PolyBench's ``_PB_N``, ``DATA_TYPE``, ``SCALAR_VAL(0.5)`` and ``SQRT_FUN(x)`` stay as written.  Any
other occurrence (a whole invocation, for a function-like macro) is replaced by its expansion before
the region is parsed, so that the model reads what gcc reads, and the generated code holds the
expansion.  Lines do not move, and ``restore_positions`` gives the nodes of the parsed region their
columns in the file (a node of an expansion: its macro's).  The region is declined, with a warning
naming the macro, when the expansion is unknown: the preprocessor failed (then the file's own
``#define`` lines before the region are read instead, and a name whose definition is not such an
operand declines the region), or an object-like macro's expansion ends with a function-like macro's
name that the region's text invokes.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass

from pycparser import c_ast

from polyopt.diagnostics import Location, UnsupportedRegion
from polyopt.frontend import lexing
from polyopt.frontend.accesses import SIDE_EFFECT_CALLS
from polyopt.frontend.affine_expressions import AFFINE_CALLS
from polyopt.frontend.cparse import C_TYPE_WORDS
from polyopt.frontend.extract import written_names
from polyopt.frontend.lexing import Token, blank_comments, definitions, without_directives
from polyopt.frontend.params import MacrosAt
from polyopt.frontend.regions import Region

_ASSIGNING = {"=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=", "++", "--"}


def _matching(tokens: list[Token], index: int) -> int | None:
    """The index of the token that closes the bracket at ``index``, or None."""
    closing = {"(": ")", "[": "]"}[tokens[index].text]
    depth = 0
    for position in range(index, len(tokens)):
        text = tokens[position].text
        depth += 1 if text in "([" and tokens[position].kind == "punct" else 0
        depth -= 1 if text in ")]" and tokens[position].kind == "punct" else 0
        if depth == 0:
            return position if text == closing else None
    return None


@dataclass(frozen=True)
class _Occurrence:
    """A macro's name in the region's text (``start``/``end``: offsets in the body), with its arguments for an
    invocation of a function-like macro, and the occurrences inside those arguments."""

    name: str
    start: int
    end: int
    invocation: bool
    inner: tuple[_Occurrence, ...] = ()


def _scanned(region: Region) -> str:
    """The region's body with comments and directive lines blanked (positions kept)."""
    return without_directives(blank_comments(region.body))


def _occurrences(tokens: list[Token], functions: Collection[str], objects: Collection[str]) -> list[_Occurrence]:
    """The outermost occurrences of the macros among ``tokens``: ``objects`` are object-like, ``functions``
    function-like (an occurrence only when an argument list follows, as C expands it)."""
    found: list[_Occurrence] = []
    index = 0
    while index < len(tokens):
        token = tokens[index]
        index += 1
        if token.kind != "name":
            continue
        if token.text in objects:
            found.append(_Occurrence(token.text, token.start, token.end, False))
        elif token.text in functions and index < len(tokens) and tokens[index].text == "(":
            close = _matching(tokens, index)
            if close is None:
                continue
            inner = _occurrences(tokens[index + 1 : close], functions, objects)
            found.append(_Occurrence(token.text, token.start, tokens[close].end, True, tuple(inner)))
            index = close + 1
    return found


def _every(occurrences: list[_Occurrence] | tuple[_Occurrence, ...]) -> list[_Occurrence]:
    """``occurrences`` and, depth first, those inside their arguments."""
    return [each for occurrence in occurrences for each in (occurrence, *_every(occurrence.inner))]


def region_probes(region: Region) -> list[str]:
    """The names of the region's text, for the preprocessor to expand at the region."""
    return list(dict.fromkeys(token.text for token in lexing.tokens(_scanned(region)) if token.kind == "name"))


def _functions(place: MacrosAt) -> set[str]:
    return {name for name, macro in place.macros.items() if macro.parameters is not None}


def invocation_probes(region: Region, place: MacrosAt) -> list[str]:
    """The text of every invocation of a function-like macro in the region (nested ones too), for the
    preprocessor to expand at the region."""
    body = _scanned(region)
    occurrences = _occurrences(lexing.tokens(body), _functions(place), ())
    return list(dict.fromkeys(body[o.start : o.end] for o in _every(occurrences) if o.invocation))


def _postfix(tokens: list[Token]) -> bool:
    """Whether ``tokens`` are one postfix expression: a primary, then subscripts, calls and members."""
    if not tokens:
        return False
    if tokens[0].kind != "punct":
        index = 1
        while tokens[0].kind == "string" and index < len(tokens) and tokens[index].kind == "string":
            index += 1
    elif tokens[0].text == "(" and (close := _matching(tokens, 0)) is not None:
        index = close + 1
    else:
        return False
    while index < len(tokens):
        text = tokens[index].text
        if text in ("[", "(") and (close := _matching(tokens, index)) is not None:
            index = close + 1
        elif text in (".", "->") and index + 1 < len(tokens) and tokens[index + 1].kind == "name":
            index += 2
        else:
            return False
    return True


def _operand(tokens: list[Token]) -> bool:
    """Whether ``tokens`` read as one operand wherever they stand (the module docstring's first rule)."""
    if tokens and all(token.text in C_TYPE_WORDS for token in tokens):
        return True
    if len(tokens) > 1 and tokens[0].text in ("-", "+"):
        rest = tokens[1:]
        return (len(rest) == 1 and rest[0].kind == "number") or (
            rest[0].text == "(" and _matching(rest, 0) == len(rest) - 1
        )
    return _postfix(tokens)


def _calls(tokens: list[Token]) -> list[str]:
    """The names that ``tokens`` call."""
    return [
        t.text
        for t, n in zip(tokens, tokens[1:], strict=False)
        if t.kind == "name" and n.text == "(" and t.text != "sizeof"
    ]


def _harmless(tokens: list[Token], invocation: bool) -> bool:
    """Whether ``tokens`` assign nothing and call no function with side effects (no function at all for an
    object-like macro's expansion)."""
    if any(token.kind == "punct" and token.text in _ASSIGNING for token in tokens):
        return False
    calls = _calls(tokens)
    return not calls or invocation and not set(calls) & SIDE_EFFECT_CALLS


@dataclass(frozen=True)
class _Reader:
    """What decides whether an occurrence keeps its name: the region's scanned text, the names it writes or
    declares, and the expansions at the region (of names and of invocations; None: unknown)."""

    body: str
    bound: frozenset[str]
    place: MacrosAt
    invocations: Mapping[str, str] | None
    location: Location
    region: Region
    affine: frozenset[tuple[int, int]]  # (line, column) of each call where the model needs an affine expression

    def text(self, occurrence: _Occurrence) -> str:
        return self.body[occurrence.start : occurrence.end]

    def where(self, occurrence: _Occurrence) -> Location:
        line = self.region.body_line + self.body.count("\n", 0, occurrence.start)
        column = occurrence.start - (self.body.rfind("\n", 0, occurrence.start) + 1) + 1
        return Location(self.location.file, line, column)

    def expansion(self, occurrence: _Occurrence) -> str:
        """The occurrence's expansion; ``UnsupportedRegion`` when it is unknown."""
        if not occurrence.invocation:
            return self.place.expansions.get(occurrence.name, occurrence.name)
        found = self.invocations.get(self.text(occurrence)) if self.invocations is not None else None
        if found is None:
            reason = f"the expansion of macro '{occurrence.name}' is unknown (the preprocessor failed on it)"
            raise UnsupportedRegion(reason, self.where(occurrence))
        return found

    def kept(self, occurrence: _Occurrence) -> bool:
        """Whether ``occurrence`` keeps its name (the module docstring's rules)."""
        tokens = lexing.tokens(self.expansion(occurrence))
        brought = {token.text for token in tokens if token.kind == "name"}
        if occurrence.invocation:
            brought -= {token.text for token in lexing.tokens(self.text(occurrence)) if token.kind == "name"}
            if occurrence.name in AFFINE_CALLS or not all(self.kept(inner) for inner in occurrence.inner):
                return False
            where = self.where(occurrence)
            if (where.line, where.column) in self.affine:
                return False
        return (
            _operand(tokens)
            and _harmless(tokens, occurrence.invocation)
            and not (brought | {occurrence.name}) & self.bound
        )

    def check_follower(self, occurrence: _Occurrence, tokens: list[Token], index: int) -> None:
        """Decline an object-like macro whose expansion ends with a function-like macro's name that the
        region's text after it invokes (its arguments would come from the region's text)."""
        last = lexing.tokens(self.expansion(occurrence))[-1:]
        following = index + 1 < len(tokens) and tokens[index + 1].text == "("
        if last and last[0].text in _functions(self.place) and following:
            name, function = occurrence.name, last[0].text
            reason = f"macro '{name}' expands to '{function}', a function-like macro that the text after it invokes"
            raise UnsupportedRegion(reason, self.where(occurrence))


@dataclass(frozen=True)
class Expanded:
    """A region's body with its macros replaced where they must be: ``body`` (the body to parse, lines as
    in the file), ``segments`` (per line, each replacement's columns in ``body`` and in the file, and how
    many columns the text after it moved right) and ``macros`` (the names replaced)."""

    body: str
    segments: Mapping[int, tuple[tuple[int, int, int, int], ...]]
    macros: tuple[str, ...]


def _affine_calls(tree: c_ast.Node) -> frozenset[tuple[int, int]]:
    """The (line, column) of each call in a loop's header, an ``if`` condition or a subscript of ``tree``."""
    parts: list[c_ast.Node | None] = []
    for node in _nodes(tree):
        if isinstance(node, c_ast.For):
            parts += [node.init, node.cond, node.next]
        elif isinstance(node, c_ast.If):
            parts.append(node.cond)
        elif isinstance(node, c_ast.ArrayRef):
            parts.append(node.subscript)
    calls = [call for part in parts if part is not None for call in _nodes(part) if isinstance(call, c_ast.FuncCall)]
    return frozenset((call.coord.line, call.coord.column) for call in calls if call.coord is not None)


def _declared(tree: c_ast.Node) -> set[str]:
    """The names that ``tree`` declares."""
    return {node.name for node in _nodes(tree) if isinstance(node, c_ast.Decl) and node.name}


def expand_macros(
    region: Region, tree: c_ast.Node, place: MacrosAt, invocations: Mapping[str, str] | None
) -> Expanded | None:
    """The region's body with each occurrence of a macro that cannot keep its name replaced by its
    expansion at the region (``place``; ``invocations``: the expansions of ``invocation_probes``, None when
    the preprocessor failed on them), or None when every one keeps its name.  ``tree``: the region as
    written, parsed.  Raises ``UnsupportedRegion`` naming the macro whose expansion is unknown."""
    bound = written_names(tree) | _declared(tree)
    body = _scanned(region)
    tokens = lexing.tokens(body)
    objects = {name for name, macro in place.macros.items() if macro.parameters is None}
    occurrences = _occurrences(tokens, _functions(place), objects & set(place.expansions))
    reader = _Reader(body, frozenset(bound), place, invocations, region.location, region, _affine_calls(tree))
    starts = {token.start: index for index, token in enumerate(tokens)}
    for occurrence in occurrences:
        if not occurrence.invocation:
            reader.check_follower(occurrence, tokens, starts[occurrence.start])
    replaced = [occurrence for occurrence in occurrences if not reader.kept(occurrence)]
    if not replaced:
        return None
    return _replace(region, blank_comments(region.body), replaced, reader)


def _replace(region: Region, body: str, replaced: list[_Occurrence], reader: _Reader) -> Expanded:
    """``body`` with each of ``replaced`` replaced by its expansion, and the columns moved."""
    pieces: list[str] = []
    segments: dict[int, list[tuple[int, int, int, int]]] = {}
    last = 0
    for occurrence in replaced:
        pieces.append(body[last : occurrence.start])
        built = "".join(pieces)
        line = region.body_line + built.count("\n")
        column = len(built) - (built.rfind("\n") + 1) + 1
        original = body[occurrence.start : occurrence.end]
        text = f" {reader.expansion(occurrence)} "
        if "\n" in original:
            tail = len(original) - (original.rfind("\n") + 1)
            pieces.append(text + "\n" * original.count("\n") + " " * tail)
            shift = 0
        else:
            text = text.ljust(len(original))
            pieces.append(text)
            shift = len(text) - len(original)
        first = occurrence.start - (body.rfind("\n", 0, occurrence.start) + 1) + 1
        segments.setdefault(line, []).append((column, column + len(text), first, shift))
        last = occurrence.end
    pieces.append(body[last:])
    names = tuple(dict.fromkeys(occurrence.name for occurrence in replaced))
    return Expanded("".join(pieces), {line: tuple(found) for line, found in segments.items()}, names)


def restore_positions(tree: c_ast.Node, expanded: Expanded) -> None:
    """Give the nodes of ``tree`` (parsed from ``expanded.body``) the columns of the file: a node of an
    expansion its macro's.  Runs right after the parse, on the tree it returned."""
    seen: set[int] = set()
    for node in _nodes(tree):
        coord = getattr(node, "coord", None)
        if coord is None or id(coord) in seen or not getattr(coord, "column", None):
            continue
        seen.add(id(coord))
        coord.column = _column(expanded.segments.get(coord.line, ()), coord.column)


def _nodes(tree: c_ast.Node) -> list[c_ast.Node]:
    found, stack = [], [tree]
    while stack:
        node = stack.pop()
        found.append(node)
        stack.extend(child for _, child in node.children())
    return found


def _column(segments: tuple[tuple[int, int, int, int], ...], column: int) -> int:
    """The file's column of ``column`` of an expanded line with ``segments``."""
    moved = 0
    for start, end, original, shift in segments:
        if start <= column < end:
            return original
        if column >= end:
            moved += shift
    return column - moved


def file_macros_check(region: Region, text: str) -> None:
    """Without the preprocessor: decline the region when it uses a macro that the file defines before it
    (followed through the names of object-like definitions) with a definition that is not one operand."""
    defined: dict[str, tuple[str | None, str]] = {}
    for name, define in definitions(blank_comments(text[: region.start])):
        if define is not None:
            defined[name] = (define.parameters, define.body)
        else:
            defined.pop(name, None)
    body = _scanned(region)
    for token in lexing.tokens(body):
        if token.kind == "name" and token.text in defined and not _defined_operand(token.text, defined, set()):
            where = Location(
                region.location.file,
                region.body_line + body.count("\n", 0, token.start),
                token.start - (body.rfind("\n", 0, token.start) + 1) + 1,
            )
            reason = (
                f"macro '{token.text}' is defined as '{defined[token.text][1]}', which C reads as text where the "
                "region uses it, and the preprocessor failed, so its expansion is unknown"
            )
            raise UnsupportedRegion(reason, where)


def _defined_operand(name: str, defined: Mapping[str, tuple[str | None, str]], seen: set[str]) -> bool:
    """Whether the definition of ``name`` (and of each object-like macro it names) is one operand."""
    if name in seen:
        return True
    seen.add(name)
    parameters, definition = defined[name]
    tokens = lexing.tokens(definition)
    if not _operand(tokens) or not _harmless(tokens, parameters is not None):
        return False
    named = {token.text for token in tokens if token.kind == "name" and token.text in defined}
    return all(_defined_operand(other, defined, seen) for other in named if defined[other][0] is None)
