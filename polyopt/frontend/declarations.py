"""The C types of the names a region uses, read from the declarations before it (no preprocessor).

Public: ``INTEGER``, ``FLOATING``, ``BOOLEAN``, ``UNKNOWN``, ``DEFAULT_ELEMENT_BYTES``, ``CType``,
``Declarations``, ``declared_types``, ``declarator_type``, ``expression_type``, ``base_type``.

Visible at a region are the file-scope declarations before it, the parameters of the function
around it and the declarations of the blocks that enclose it: closed blocks (other functions'
bodies, earlier loops), other functions' parameter lists and prototypes are skipped.  Object-like
macros count as well: ``#define DATA_TYPE double`` names a type, ``#define ALPHA 1.5`` a
floating constant.  PolyBench's ``POLYBENCH_2D(A, N, M, n, m)`` declares ``A`` with two
subscripts.  A type name that is declared elsewhere (a header) has an ``UNKNOWN`` kind; so has
an expression whose type cannot be told (a call, an undeclared name).  An expression's type follows
C's usual arithmetic conversions: floating when an operand is floating, integer when all are.
A declared type also carries its base type's ``name``, spelled one way (``long unsigned int`` is
``unsigned long``, a typedef or type macro of this file is what it stands for, a type name from a
header is itself: ``DATA_TYPE``), so that ``CType.same`` tells two declared types apart exactly.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace

from pycparser import c_ast

from polyopt.frontend.lexing import (
    IDENTIFIER,
    LITERAL,
    blank_comments,
    definitions,
    number_kind,
    tokens,
    without_directives,
)
from polyopt.frontend.regions import Region

INTEGER, FLOATING, BOOLEAN, UNKNOWN = "integer", "floating", "boolean", "unknown"

_FLOATING_WORDS = {"float", "double", "_Complex", "float_t", "double_t"}
_INTEGER_WORDS = {"char", "short", "int", "long", "signed", "unsigned", "enum"}
_BOOLEAN_WORDS = {"_Bool", "bool"}
_INTEGER_TYPEDEF = re.compile(r"u?int(?:_least|_fast)?\d+_t|u?intmax_t|u?intptr_t|s?size_t|ptrdiff_t|wchar_t|off_t")
_QUALIFIERS = {"const", "volatile", "restrict", "__restrict", "__restrict__", "_Atomic"}
_STORAGE = {"static", "extern", "register", "auto", "inline", "__inline", "_Thread_local", "typedef"}
_TAGS = {"struct", "union"}
_SPECIFIERS = _FLOATING_WORDS | _INTEGER_WORDS | _BOOLEAN_WORDS | _QUALIFIERS | _STORAGE | {"void"}
_STATEMENT_WORDS = {"if", "else", "for", "while", "do", "return", "break", "continue", "goto", "switch", "case"}
_KEYWORDS = _SPECIFIERS | _TAGS | _STATEMENT_WORDS | {"default", "sizeof", "_Alignof"}
_POLYBENCH_ARRAY = re.compile(r"\bPOLYBENCH_(\d)D\s*\(\s*([A-Za-z_]\w*)[^()]*\)")


@dataclass(frozen=True)
class CType:
    """A type: the ``kind`` of its base type and the pointer or array ``levels`` over it; ``name`` is
    the base type's spelling when it is declared ("" otherwise; kinds alone decide equality);
    ``indirect``: an object with levels that is reached through a pointer (a pointer, or an array
    parameter), not an array of its own, so that gcc cannot tell it from another one."""

    kind: str
    levels: int = 0
    name: str = field(default="", compare=False)
    indirect: bool = field(default=False, compare=False)

    @property
    def pointer(self) -> bool:
        return self.levels > 0

    def element(self, subscripts: int) -> CType:
        """The type of the name subscripted ``subscripts`` times (``UNKNOWN`` past its levels)."""
        if subscripts > self.levels:
            return CType(UNKNOWN)
        return CType(self.kind, self.levels - subscripts, self.name)

    def same(self, other: CType) -> bool:
        """Whether both are declared and spelled as one type (a type from a header: by its name)."""
        return bool(self.name) and (self.kind, self.levels, self.name) == (other.kind, other.levels, other.name)


@dataclass(frozen=True)
class Declarations:
    """The types of the objects (variables, number macros) and of the type names visible at a region;
    ``expanded``: type names from a header as the preprocessor expands them (``DATA_TYPE`` -> ``float``),
    for the sizes of their elements."""

    objects: Mapping[str, CType] = field(default_factory=dict)
    type_names: Mapping[str, CType] = field(default_factory=dict)
    expanded: Mapping[str, str] = field(default_factory=dict)

    def with_objects(self, objects: Mapping[str, CType]) -> Declarations:
        return replace(self, objects={**self.objects, **objects})

    def with_expansions(self, macros: Mapping[str, str]) -> Declarations:
        """These declarations, with the ``macros`` (name -> body) that name their objects' base types."""
        names = {declared.name for declared in self.objects.values()}
        return replace(self, expanded={name: " ".join(body.split()) for name, body in macros.items() if name in names})

    def element_bytes(self, name: str) -> int:
        """The bytes of one element of the array (or scalar) ``name``, from its declared base type;
        ``DEFAULT_ELEMENT_BYTES`` when the type is not known here or its size is not C's own."""
        declared = self.objects.get(name)
        if declared is None:
            return DEFAULT_ELEMENT_BYTES
        return _TYPE_BYTES.get(self.expanded.get(declared.name, declared.name), DEFAULT_ELEMENT_BYTES)

    def resolved(self) -> Declarations:
        """These declarations with each object's base type that is a header's type macro (PolyBench's
        ``DATA_TYPE``) replaced by the type of C's own it expands to."""
        bases = {name: base for name, body in self.expanded.items() if (base := base_type(body)) is not None}
        objects = {
            name: CType(base.kind, declared.levels, base.name)
            for name, declared in self.objects.items()
            if (base := bases.get(declared.name)) is not None
        }
        return self.with_objects(objects)


DEFAULT_ELEMENT_BYTES = 8  # an element whose type is declared elsewhere (a header) is taken for a double
_TYPE_BYTES = {"float": 4, "double": 8, "long double": 16, "_Bool": 1, "char": 1, "signed char": 1}
_TYPE_BYTES |= {
    f"{sign}{size}": bytes_
    for size, bytes_ in (("char", 1), ("short", 2), ("int", 4), ("long", 8), ("long long", 8))
    for sign in ("", "unsigned ")
}
_TYPE_BYTES |= {f"{sign}int{bits}_t": bits // 8 for bits in (8, 16, 32, 64) for sign in ("", "u")}
_TYPE_BYTES |= {name: 8 for name in ("size_t", "ssize_t", "ptrdiff_t", "intptr_t", "uintptr_t")}


def _spelling(words: list[str]) -> str:
    """The base type that the specifier ``words`` spell, one way for each type of C's own."""
    words = [word for word in words if word not in _QUALIFIERS and word not in _STORAGE]
    if not set(words) <= (_FLOATING_WORDS | _INTEGER_WORDS | _BOOLEAN_WORDS) - {"float_t", "double_t", "enum"}:
        return " ".join(words)
    if set(words) & _BOOLEAN_WORDS:
        return "_Bool"
    complex_ = " _Complex" if "_Complex" in words else ""
    if "float" in words or "double" in words:
        return ("long double" if "long" in words else "double" if "double" in words else "float") + complex_
    if "char" in words:
        return "signed char" if "signed" in words else "unsigned char" if "unsigned" in words else "char"
    size = "short" if "short" in words else " ".join(["long"] * words.count("long")) or "int"
    return ("unsigned " if "unsigned" in words else "") + size


def _base(words: list[str], type_names: Mapping[str, CType]) -> CType | None:
    """The type that the specifier ``words`` name, or None when they name none."""
    name = _spelling(words)
    if any(word in _FLOATING_WORDS for word in words):
        return CType(FLOATING, 0, name)
    if any(word in _BOOLEAN_WORDS for word in words):
        return CType(BOOLEAN, 0, name)
    if any(word in _INTEGER_WORDS or _INTEGER_TYPEDEF.fullmatch(word) for word in words):
        return CType(INTEGER, 0, name)
    for word in words:
        if word in type_names:
            return type_names[word]
    if any(word in _TAGS or word == "void" or word not in _KEYWORDS for word in words):
        return CType(UNKNOWN, 0, name)
    return None


def base_type(spelling: str) -> CType | None:
    """The type of C's own that ``spelling`` names (``unsigned int``, ``double``), by its one spelling; None
    for any other text."""
    base = _base(spelling.split(), {})
    return base if base is not None and base.kind in (FLOATING, INTEGER, BOOLEAN) else None


def _macros(text: str) -> tuple[dict[str, CType], dict[str, CType]]:
    """The object-like macros of ``text`` that stand for a number, and those that stand for a type."""
    objects: dict[str, CType] = {}
    type_names: dict[str, CType] = {}
    for name, define in definitions(text):
        if define is None:
            objects.pop(name, None)
            type_names.pop(name, None)
            continue
        if define.parameters is not None:
            continue
        words = define.body.split()
        number = number_kind(define.body)
        if number is not None:
            _define(objects, name, CType(number))
        elif words and all(w in _SPECIFIERS or w in type_names or _INTEGER_TYPEDEF.fullmatch(w) for w in words):
            _define(type_names, name, _base(words, type_names) or CType(UNKNOWN))
    return objects, type_names


def _define(table: dict[str, CType], name: str, ctype: CType) -> None:
    """Record a macro's type; one defined twice with different types (``#if`` branches) is known by its
    own name, and of the ``UNKNOWN`` kind unless both types have one kind."""
    old = table.get(name, ctype)
    if old != ctype:
        ctype = CType(UNKNOWN, 0, name if ctype.name else "")
    elif old.name != ctype.name:
        ctype = CType(ctype.kind, ctype.levels, name)
    table[name] = ctype


def _visible_tokens(text: str) -> list[str]:
    """The tokens of ``text`` (a file up to a region) that the region can see: closed blocks become
    ``;`` (the bodies of structures and initializers disappear), and parenthesized groups other than
    those that open an enclosing block (its function's parameter list, its loops' headers) and
    parenthesized declarators ``(*name)`` are emptied."""
    text = _POLYBENCH_ARRAY.sub(lambda m: m[2] + "[]" * int(m[1]), LITERAL.sub("0", text))
    visible: list[str] = []
    opened: list[int] = []
    for token in (token.text for token in tokens(text)):
        if token == "}" and opened:
            start = opened.pop()
            del visible[start:]
            if visible[-1:] == ["="] or {"struct", "union", "enum"} & set(visible[-2:]):
                continue
            token = ";"
        elif token == "{":
            opened.append(len(visible))
        visible.append(token)
    kept: list[str] = []
    groups: list[int] = []
    for index, token in enumerate(visible):
        kept.append(token)
        if token == "(":
            groups.append(len(kept))
        elif token == ")" and groups:
            start = groups.pop()
            declarator = kept[start : start + 1] == ["*"]
            named = start >= 2 and IDENTIFIER.fullmatch(kept[start - 2]) is not None
            if named and not declarator and visible[index + 1 : index + 2] != ["{"]:
                del kept[start:-1]
    return kept


class _Scanner:
    """Reads the declarations in a token list (``_visible_tokens``) into ``objects`` and ``type_names``."""

    def __init__(self, tokens: list[str], objects: dict[str, CType], type_names: dict[str, CType]) -> None:
        self.tokens = tokens
        self.objects = objects
        self.type_names = type_names

    def at(self, index: int) -> str:
        return self.tokens[index] if index < len(self.tokens) else ";"

    def scan(self) -> None:
        depth = 0
        for index, token in enumerate(self.tokens):
            if index == 0 or self.tokens[index - 1] in (";", "{", "}", "(", ","):
                self.declaration(index, in_list=depth > 0)
            depth += {"(": 1, ")": -1}.get(token, 0)

    def specifiers(self, index: int) -> tuple[list[str], int]:
        """The specifier words from ``index`` on (a type name not declared here is one when a name
        follows it), and the index after them."""
        words: list[str] = []
        while True:
            token, following = self.at(index), self.at(index + 1)
            if token in _TAGS and IDENTIFIER.fullmatch(following):
                words.extend((token, following))
                index += 2
            elif token in _SPECIFIERS or token in self.type_names:
                words.append(token)
                index += 1
            elif IDENTIFIER.fullmatch(token) and token not in _KEYWORDS and IDENTIFIER.fullmatch(following):
                words.append(token)
                index += 1
            else:
                return words, index

    def declaration(self, index: int, in_list: bool) -> None:
        words, index = self.specifiers(index)
        base = _base(words, self.type_names)
        if base is None:
            return
        table = self.type_names if "typedef" in words else self.objects
        for name, levels, pointer in self.declarators(index, in_list):
            indirect = pointer or base.levels > 0 or (in_list and levels > 0)
            table[name] = CType(base.kind, base.levels + levels, base.name, indirect)

    def declarators(self, index: int, in_list: bool) -> Iterator[tuple[str, int, bool]]:
        """Each declared object's name, its levels over the base type and whether one of them is a pointer;
        stops at what is no declarator."""
        while True:
            levels = 0
            while self.at(index) == "*" or self.at(index) in _QUALIFIERS:
                levels += self.at(index) == "*"
                index += 1
            pointer = levels > 0
            inner = self.at(index) == "(" and self.at(index + 1) == "*"
            if inner:
                index += 1
                pointer = True
                while self.at(index) == "*":
                    levels, index = levels + 1, index + 1
            name = self.at(index)
            if not IDENTIFIER.fullmatch(name) or name in _KEYWORDS:
                return
            index += 1
            if inner:
                if self.at(index) != ")":
                    return
                index += 1
            function = False
            while self.at(index) in ("[", "("):
                function |= self.at(index) == "("
                levels += self.at(index) == "["
                index = self.after_group(index)
            if self.at(index) == "=":
                index = self.after_initializer(index + 1)
            if not function:
                yield name, levels, pointer
            if self.at(index) != "," or in_list:
                return
            index += 1

    def after_group(self, index: int) -> int:
        """The index after the bracket or parenthesis group that opens at ``index``."""
        depth = 0
        while index < len(self.tokens):
            depth += {"(": 1, "[": 1, ")": -1, "]": -1}.get(self.tokens[index], 0)
            index += 1
            if depth == 0:
                break
        return index

    def after_initializer(self, index: int) -> int:
        while self.at(index) not in (",", ";", ")", "]"):
            index = self.after_group(index) if self.at(index) in ("(", "[") else index + 1
        return index


def declared_types(text: str, region: Region) -> Declarations:
    """The declarations visible at ``region`` of the file ``text`` (see the module docstring)."""
    before = blank_comments(text[: region.start])
    objects, type_names = _macros(before)
    _Scanner(_visible_tokens(without_directives(before)), objects, type_names).scan()
    return Declarations(objects, type_names)


def _arithmetic(left: CType, right: CType, op: str = "+") -> CType:
    """The type of ``left op right`` under the usual arithmetic conversions (pointer arithmetic for ``+ -``)."""
    if left.pointer or right.pointer:
        if op == "-" and left.pointer and right.pointer:
            return CType(INTEGER)
        return left if left.pointer else right
    if FLOATING in (left.kind, right.kind):
        return CType(FLOATING)
    if UNKNOWN in (left.kind, right.kind):
        return CType(UNKNOWN)
    return CType(INTEGER)


def declarator_type(node: c_ast.Node, declarations: Declarations) -> CType:
    """The type that a declarator (a ``Decl``'s or a cast's ``type``) gives, pointer levels counted
    (``UNKNOWN`` kind for arrays, functions and structures)."""
    levels = 0
    while isinstance(node, c_ast.PtrDecl):
        levels, node = levels + 1, node.type
    if not isinstance(node, c_ast.TypeDecl) or not isinstance(node.type, c_ast.IdentifierType):
        return CType(UNKNOWN)
    base = _base(list(node.type.names), declarations.type_names) or CType(UNKNOWN)
    return CType(base.kind, base.levels + levels, base.name)


def expression_type(node: c_ast.Node, declarations: Declarations) -> CType:
    """The type of the expression ``node`` (``UNKNOWN`` kind where it cannot be told)."""
    if isinstance(node, c_ast.Constant):
        if node.type == "string":
            return CType(INTEGER, 1)
        return CType(FLOATING if "float" in node.type or "double" in node.type else INTEGER)
    if isinstance(node, c_ast.ID):
        return declarations.objects.get(node.name, CType(UNKNOWN))
    if isinstance(node, c_ast.ArrayRef):
        subscripts = 0
        while isinstance(node, c_ast.ArrayRef):
            subscripts, node = subscripts + 1, node.name
        return expression_type(node, declarations).element(subscripts) if isinstance(node, c_ast.ID) else CType(UNKNOWN)
    if isinstance(node, c_ast.Cast):
        return declarator_type(node.to_type.type, declarations)
    if isinstance(node, c_ast.UnaryOp):
        if node.op in ("!", "sizeof", "_Alignof"):
            return CType(INTEGER)
        operand = expression_type(node.expr, declarations)
        if node.op in ("-", "+", "~"):
            return CType(INTEGER) if operand.kind == BOOLEAN and not operand.pointer else operand
        return CType(UNKNOWN)
    if isinstance(node, c_ast.BinaryOp):
        if node.op in ("<", ">", "<=", ">=", "==", "!=", "&&", "||", "&", "|", "^", "<<", ">>"):
            return CType(INTEGER)
        left, right = expression_type(node.left, declarations), expression_type(node.right, declarations)
        return _arithmetic(left, right, node.op)
    if isinstance(node, c_ast.TernaryOp):
        return _arithmetic(expression_type(node.iftrue, declarations), expression_type(node.iffalse, declarations))
    if isinstance(node, c_ast.ExprList) and node.exprs:
        return expression_type(node.exprs[-1], declarations)
    return CType(UNKNOWN)
