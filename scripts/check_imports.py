"""Checks the import graph of the project's own packages: no import circles, and every
package imports only the layers below it.

Run: python scripts/check_imports.py [ROOT]   (ROOT: the repository, by default this one)

Every import statement counts, wherever it stands: at module level, under
``if TYPE_CHECKING:`` and inside functions (a lazy import still ties the two modules
together; it only hides the circle from the interpreter). Relative imports are resolved,
and ``from pkg import name`` where ``pkg.name`` is a module counts as importing that
module. Importing ``a.b.c`` is an edge to ``a.b.c`` only, not to the packages ``a`` and
``a.b`` that Python runs first: their ``__init__`` files would otherwise put every
package in a circle with its own modules.

Exit status 0 when clean, 1 with a listing of every circle and layer violation.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

PACKAGES = (
    "i18n",
    "rules",
    "render",
    "storage",
    "competition",
    "bot",
    "localcord",
    "launcher",
    "bench",
)

# What each layer may import of ours, or must not import at all; a package not listed
# may import anything. A layer is a package, or a sub-package listed as a layer of its
# own (``bot.ui``, the Discord layer, which reaches storage only through the services).
ONLY: dict[str, frozenset[str]] = {
    "i18n": frozenset({"i18n"}),
    "rules": frozenset({"rules", "i18n"}),
    "render": frozenset({"render", "rules", "i18n"}),
    "competition": frozenset({"competition", "rules", "i18n"}),
}
NEVER: dict[str, frozenset[str]] = {
    "storage": frozenset({"bot", "render", "localcord", "launcher", "discord"}),
    "bot": frozenset({"localcord", "launcher"}),
    "bot.ui": frozenset({"localcord", "launcher", "storage"}),
    # the live board (an Activity) shows matches without discord.py, through the services
    "bot.live": frozenset({"localcord", "launcher", "storage", "discord"}),
    "localcord": frozenset({"launcher"}),
}


@dataclass(frozen=True)
class Edge:
    source: str
    target: str
    line: int


@dataclass
class Report:
    cycles: list[list[str]] = field(default_factory=list)
    cycle_paths: list[list[Edge]] = field(default_factory=list)
    violations: list[Edge] = field(default_factory=list)

    @property
    def clean(self) -> bool:
        return not self.cycles and not self.violations


def find_modules(root: Path) -> dict[str, Path]:
    """Every module of our packages under ``root``, by dotted name."""
    modules: dict[str, Path] = {}
    for package in PACKAGES:
        base = root / package
        if not base.is_dir():
            continue
        for path in sorted(base.rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            modules[".".join(parts)] = path
    return modules


def imports_of(name: str, path: Path, modules: dict[str, Path]) -> Iterator[Edge]:
    """Every import in one module: edges to our modules, and to outside packages by
    their top-level name (so that layer rules can name ``discord``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield Edge(name, _known(alias.name, modules), node.lineno)
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(node, package)
            for alias in node.names:
                sub = f"{base}.{alias.name}" if base else alias.name
                target = sub if sub in modules else _known(base, modules)
                yield Edge(name, target, node.lineno)


def _absolute(node: ast.ImportFrom, package: str) -> str:
    if not node.level:
        return node.module or ""
    parts = package.split(".")
    base = parts[: len(parts) - (node.level - 1)]
    return ".".join([*base, node.module] if node.module else base)


def _known(dotted: str, modules: dict[str, Path]) -> str:
    """The most specific module of ours that ``dotted`` names, else its top level."""
    parts = dotted.split(".")
    for end in range(len(parts), 0, -1):
        candidate = ".".join(parts[:end])
        if candidate in modules:
            return candidate
    return parts[0]


def build_graph(root: Path) -> tuple[dict[str, list[Edge]], list[Edge]]:
    """The graph among our modules, and every import edge (for the layer rules)."""
    modules = find_modules(root)
    graph: dict[str, list[Edge]] = {m: [] for m in modules}
    every: list[Edge] = []
    for name, path in modules.items():
        for edge in imports_of(name, path, modules):
            every.append(edge)
            if edge.target in modules:
                graph[name].append(edge)
    return graph, every


def strongly_connected(graph: dict[str, list[Edge]]) -> list[list[str]]:
    """Tarjan's algorithm, iterative so that a deep graph cannot overflow the stack."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, 0)]
        while work:
            node, i = work.pop()
            if i == 0:
                index[node] = low[node] = len(index)
                stack.append(node)
                on_stack.add(node)
            targets = [e.target for e in graph[node]]
            if i < len(targets):
                work.append((node, i + 1))
                nxt = targets[i]
                if nxt not in index:
                    work.append((nxt, 0))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                found.append(sorted(component))
    return found


def one_cycle(graph: dict[str, list[Edge]], component: list[str]) -> list[Edge]:
    """A shortest circle through the component's first module, as the imports that
    make it, so the listing shows where to cut."""
    members = set(component)
    start = component[0]
    came: dict[str, Edge] = {}
    frontier = [start]
    while frontier:
        after: list[str] = []
        for node in frontier:
            for edge in graph[node]:
                if edge.target not in members:
                    continue
                if edge.target == start:
                    path = [edge]
                    while path[0].source != start:
                        path.insert(0, came[path[0].source])
                    return path
                if edge.target not in came:
                    came[edge.target] = edge
                    after.append(edge.target)
        frontier = after
    raise AssertionError(f"no circle through {start}")  # a component always has one


def check(root: Path) -> Report:
    graph, every = build_graph(root)
    report = Report()
    for component in strongly_connected(graph):
        single = component[0]
        if len(component) > 1 or any(e.target == single for e in graph[single]):
            report.cycles.append(component)
            report.cycle_paths.append(one_cycle(graph, component))
    for edge in every:
        source, target = layer_of(edge.source), edge.target.split(".")[0]
        only, never = ONLY.get(source), NEVER.get(source, frozenset())
        ours = target in PACKAGES
        if (only is not None and ours and target not in only) or target in never:
            report.violations.append(edge)
    return report


def layer_of(module: str) -> str:
    """The most specific layer ``module`` belongs to."""
    parts = module.split(".")
    sub_package = ".".join(parts[:2])
    return sub_package if sub_package in ONLY or sub_package in NEVER else parts[0]


def format_report(report: Report, root: Path) -> str:
    lines: list[str] = []
    for component, path in zip(report.cycles, report.cycle_paths, strict=True):
        lines.append(f"import circle of {len(component)} modules: {', '.join(component)}")
        for edge in path:
            lines.append(f"    {edge.source} (line {edge.line}) imports {edge.target}")
    for edge in sorted(report.violations, key=lambda e: (e.source, e.line)):
        lines.append(
            f"layer violation: {edge.source} (line {edge.line}) imports {edge.target}"
            f" ({_rule(layer_of(edge.source))})"
        )
    if not lines:
        return f"imports clean: no circles, no layer violations under {root}"
    lines.append(
        f"{len(report.cycles)} import circle(s), {len(report.violations)} layer violation(s)"
    )
    return "\n".join(lines)


def _rule(package: str) -> str:
    if package in ONLY:
        allowed = sorted(ONLY[package] - {package})
        return f"{package} may import only {', '.join(allowed) or 'itself'} of ours"
    return f"{package} must not import {', '.join(sorted(NEVER[package]))}"


def main(argv: list[str]) -> int:
    root = Path(argv[0]).resolve() if argv else Path(__file__).resolve().parent.parent
    report = check(root)
    print(format_report(report, root))
    return 0 if report.clean else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
