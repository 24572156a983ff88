"""Generated programs: the region's tree of nodes, the arrays and sizes, and the rendered C file."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

ITERATORS = ("i", "j", "k", "m")
MODULUS = 1009  # every integer store of an array is reduced modulo it
MIN_N = 5  # constant loop bounds stay below it
DUMP_LIMIT = 5000  # arrays with more elements (only those of large sizes) are dumped as one weighted sum
# printf forms of floating values: '#' keeps the decimal point, so that a double holding a whole number
# (-8039767584603540.0) never prints as an integer token, which the oracle compares exactly
DOUBLE_FORM = "%#.17g"
FLOAT_FORM = "%#.9g"
STATIC, HEAP, ROWS, PARAMETER = "static", "heap", "rows", "parameter"  # how an array is stored

_DEAD = re.compile(r"#pragma polyopt dead\(([^)]*)\)")


@dataclass(frozen=True)
class Stmt:
    text: str


@dataclass(frozen=True)
class Loop:
    header: str
    body: tuple[Node, ...]


@dataclass(frozen=True)
class If:
    condition: str
    body: tuple[Node, ...]
    orelse: tuple[Node, ...] = ()  # the ``else`` branch, when it has statements


Node = Stmt | Loop | If


@dataclass(frozen=True)
class Size:
    """``#define SZ0 value``, read in the region as ``sz0``: a macro for it, or a parameter of a parametric kernel."""

    macro: str
    value: int

    @property
    def name(self) -> str:
        return self.macro.lower()


@dataclass(frozen=True)
class Array:
    name: str
    ctype: str  # "double", "float" or "int"
    extents: tuple[str, ...]  # each dimension's declared size over the macros: "N + 4", "2 * N + 4", "SZ0 + 1"
    lengths: tuple[int, ...]  # their values
    storage: str = STATIC
    readonly: bool = False  # only read in the region
    init: str = ""  # the initial value over i, j, k when not the default one (an index array's values in range)

    @property
    def rank(self) -> int:
        return len(self.extents)

    @property
    def elements(self) -> int:
        return math.prod(self.lengths)

    def declaration(self) -> str:
        if self.storage == HEAP:
            rows = "".join(f"[{extent}]" for extent in self.extents[1:])
            return f"static {self.ctype} (*{self.name}){rows};" if rows else f"static {self.ctype} *{self.name};"
        if self.storage == ROWS:
            return f"static {self.ctype} {'*' * self.rank}{self.name};"
        return f"static {self.ctype} {self.name}{''.join(f'[{extent}]' for extent in self.extents)};"


# printf forms of the kernel's local scalars, by type, and the type each is printed as
_LOCAL_FORMS = {
    "double": (DOUBLE_FORM, "double"),
    "float": (FLOAT_FORM, "double"),
    "int": ("%d", "int"),
    "long": ("%ld", "long"),
    "unsigned": ("%u", "unsigned"),
    "size_t": ("%lu", "unsigned long"),
}


@dataclass(frozen=True)
class Local:
    """A scalar of the kernel declared before the region with an initial value (``long q0 = 0;``) and
    printed after it: a counter, a temporary, a bound or an iterator of the written family."""

    ctype: str  # one of _LOCAL_FORMS
    name: str
    value: str  # its initializer, a C expression over n

    def declaration(self) -> str:
        return f"{self.ctype} {self.name} = {self.value};"

    def dump(self) -> str:
        form, printed = _LOCAL_FORMS[self.ctype]
        return f'printf("begin dump: {self.name}\\n{form}\\n", ({printed}){self.name});'


@dataclass(frozen=True)
class Program:
    seed: int
    n: int
    arrays: tuple[Array, ...]
    nests: tuple[Node, ...]
    sizes: tuple[Size, ...] = ()
    parametric: bool = False  # the kernel takes n and the sizes as parameters
    show_iterators: bool = False  # the iterators get a value before the region and are printed after it
    pointer: int = 0  # elements of the buffer in which the pointer p moves (0: no pointer)
    constants: tuple[Size, ...] = ()  # named constants (``#define K0 3``), never parameters
    family: str | None = None  # the kind of every top-level nest, when the generator was restricted to one
    macros: tuple[str, ...] = ()  # expression macros after '#define' ("W0 n-1", "F0(x) x*2"), the macros family
    locals: tuple[Local, ...] = ()  # scalars of the kernel declared before the region, printed after it

    @property
    def dead(self) -> frozenset[str]:
        """The arrays that the region's ``#pragma polyopt dead(...)`` lines name (not dumped)."""
        pragmas = _DEAD.finditer(region_text(self.nests))
        return frozenset(name.strip() for match in pragmas for name in match[1].split(","))

    def _in_region(self, extent: str) -> str:
        return extent.lower() if self.parametric else extent

    def _kernel_interface(self) -> tuple[str, str]:
        """The kernel's parameter list and main's arguments."""
        declared: list[str] = []
        passed: list[str] = []
        if self.parametric:
            for macro in ("N", *(size.macro for size in self.sizes)):
                declared.append(f"int {macro.lower()}")
                passed.append(macro)
        for array in self.arrays:
            if array.storage == PARAMETER:
                dims = "".join(f"[{self._in_region(extent)}]" for extent in array.extents)
                declared.append(f"{array.ctype} {array.name}{dims}")
                passed.append(array.name)
        return ", ".join(declared) or "void", ", ".join(passed)

    def render(self) -> str:
        heap = any(array.storage in (HEAP, ROWS) for array in self.arrays)
        origin = f"seed {self.seed}" + (f", family {self.family}" if self.family else "")
        lines = [f"/* polyopt fuzz program, {origin} */", "#include <stdio.h>"]
        lines += ["#include <stdlib.h>"] if heap else []
        lines += ["", f"#define N {self.n}", *(f"#define {size.macro} {size.value}" for size in self.sizes)]
        lines += [f"#define {constant.macro} {constant.value}" for constant in self.constants]
        lines += [f"#define {macro}" for macro in self.macros]
        if not self.parametric:
            lines += ["#define n N", *(f"#define {size.name} {size.macro}" for size in self.sizes)]
        lines.append("")
        aligned = " __attribute__((aligned(16)));" if self.family == "gnu" else ";"
        lines += [array.declaration().removesuffix(";") + aligned for array in self.arrays]
        lines += ["static double s;", "static int t;", "static float f;"]
        if self.pointer:
            lines += [f"static double PB[{self.pointer}];", "static double *p;"]
        lines += ["", "static void init(void)", "{", "  int i, j, k;", ""]
        for array in self.arrays:
            lines += _allocation_lines(array) + _init_lines(array)
        lines += ["  s = 0.25;", "  t = 3;", "  f = 1.5f;"]
        lines += [f"  p = PB + {self.pointer // 2};"] if self.pointer else []
        parameters, arguments = self._kernel_interface()
        iterators = ", ".join(f"{v} = -1" if self.show_iterators else v for v in ITERATORS)
        inline = "__attribute__((noinline)) " if self.family == "gnu" else ""
        lines += ["}", "", f"{inline}static void kernel({parameters})", "{", f"  int {iterators};"]
        lines += [f"  {local.declaration()}" for local in self.locals]
        lines += ["", "#pragma scop"]
        for nest in self.nests:
            lines += _render_node(nest, 1)
        lines.append("#pragma endscop")
        if self.show_iterators:
            values = ", ".join(ITERATORS)
            lines.append(f'  printf("begin dump: iterators\\n{" ".join("%d" for _ in ITERATORS)}\\n", {values});')
        lines += [f"  {local.dump()}" for local in self.locals]
        lines += ["}", "", "static void dump(void)", "{", "  int i, j, k;", ""]
        dead = self.dead
        for array in self.arrays:
            lines += [] if array.name in dead else _dump_lines(array)
        lines += [f'  printf("begin dump: s\\n{DOUBLE_FORM}\\n", s);', '  printf("begin dump: t\\n%d\\n", t);']
        lines += [f'  printf("begin dump: f\\n{FLOAT_FORM}\\n", f);']
        lines += ['  printf("begin dump: p\\n%ld\\n", (long)(p - PB));'] if self.pointer else []
        lines += ["}", "", "int main(void)", "{", "  init();", f"  kernel({arguments});", "  dump();"]
        lines += ["  return 0;", "}", ""]
        return "\n".join(lines)


def _loops(array: Array) -> tuple[list[str], str]:
    """Loop headers over every element of ``array``, and its element's access."""
    names = "ijk"[: array.rank]
    headers = [f"for ({v} = 0; {v} < {array.extents[d]}; {v}++)" for d, v in enumerate(names)]
    return headers, array.name + "".join(f"[{v}]" for v in names)


def _allocation_lines(array: Array) -> list[str]:
    """``malloc`` calls for an array on the heap (every row, for row pointers)."""
    if array.storage not in (HEAP, ROWS):
        return []
    lines = [f"  {array.name} = malloc(sizeof *{array.name} * ({array.extents[0]}));"]
    if array.storage == HEAP:
        return lines
    element = array.name
    for d in range(1, array.rank):
        v = "ijk"[d - 1]
        lines.append(f"{'  ' * d}for ({v} = 0; {v} < {array.extents[d - 1]}; {v}++) {{")
        element += f"[{v}]"
        lines.append(f"{'  ' * (d + 1)}{element} = malloc(sizeof *{element} * ({array.extents[d]}));")
    return lines + [f"{'  ' * d}}}" for d in range(array.rank - 1, 0, -1)]


def _init_lines(array: Array) -> list[str]:
    headers, element = _loops(array)
    number = (ord(array.name) - ord("A")) % 13  # by name, so that dropping another array keeps the values
    j = "j" if array.rank >= 2 else "0"
    k = "k" if array.rank >= 3 else "0"
    mixed = f"i * {3 + number} + {j} * 7 + {k} * 5 + {number}"
    if array.init:
        value = array.init
    elif array.ctype == "double":
        value = f"(double)(({mixed}) % 17) / 8.0 - 1.0"
    elif array.ctype == "float":
        value = f"(float)(({mixed}) % 17) / 8.0f - 1.0f"
    else:
        value = f"(i * {5 + number} + {j} * 3 + {k} * 2 + {number}) % 11 - 5"
    lines = [f"  {'  ' * d}{header}" for d, header in enumerate(headers)]
    return [*lines, f"  {'  ' * len(headers)}{element} = {value};"]


def _dump_lines(array: Array) -> list[str]:
    headers, element = _loops(array)
    pad = "  " * len(headers)
    if array.elements > DUMP_LIMIT:  # one sum, weighted so that a misplaced value shows
        weight = " + ".join(f"{v} * {w}" for v, w in zip("ijk"[: array.rank], (7, 3, 5), strict=False))
        total, form = ("long", "%ld") if array.ctype == "int" else ("double", DOUBLE_FORM)
        lines = [f'  printf("begin dump: {array.name} (weighted sum)\\n");', "  {", f"    {total} sum = 0;"]
        lines += [f"    {'  ' * d}{header}" for d, header in enumerate(headers)]
        lines += [f"    {pad}sum += {element} * (({weight}) % 5 + 1);", f'    printf("{form}\\n", sum);', "  }"]
        return lines
    form = "%d " if array.ctype == "int" else f"{DOUBLE_FORM} "
    lines = [f'  printf("begin dump: {array.name}\\n");']
    lines += [
        f"  {'  ' * d}{header} {{" if d == len(headers) - 1 else f"  {'  ' * d}{header}"
        for d, header in enumerate(headers)
    ]
    lines += [f'  {pad}printf("{form}", {element});', f"  {'  ' * (len(headers) - 1)}}}", '  printf("\\n");']
    return lines


def _render_node(node: Node, depth: int) -> list[str]:
    pad = "  " * depth
    if isinstance(node, Stmt):
        return [pad + node.text]
    head = node.header if isinstance(node, Loop) else f"if ({node.condition})"
    inner = [line for child in node.body for line in _render_node(child, depth + 1)]
    if isinstance(node, If) and node.orelse:
        other = [line for child in node.orelse for line in _render_node(child, depth + 1)]
        return [f"{pad}{head} {{", *inner, pad + "} else {", *other, pad + "}"]
    return [f"{pad}{head} {{", *inner, pad + "}"]


def region_text(nodes: tuple[Node, ...]) -> str:
    """The region's nodes as C text, without indentation."""
    return "\n".join(line for node in nodes for line in _render_node(node, 0))
