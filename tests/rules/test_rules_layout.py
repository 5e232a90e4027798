"""The rules package imports in one direction: no circles, nothing from the layers above.

Every ``import`` counts, including those under ``TYPE_CHECKING`` and inside functions,
because a circle that only type checking sees still ties the modules together.
"""

from __future__ import annotations

import ast
from pathlib import Path

RULES = Path(__file__).resolve().parents[2] / "rules"


def module_name(path: Path) -> str:
    parts = path.relative_to(RULES.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports() -> dict[str, set[str]]:
    """Each module of ``rules`` with the ``rules`` modules it imports."""
    found: dict[str, set[str]] = {module_name(p): set() for p in RULES.rglob("*.py")}
    for path in RULES.rglob("*.py"):
        name = module_name(path)
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*up, base] if base else up)
                # A name that is a submodule points at it; any other name, at ``base``.
                targets = [
                    f"{base}.{a.name}" if f"{base}.{a.name}" in found else base for a in node.names
                ]
            else:
                continue
            for target in targets:
                module = target
                while module and module not in found:
                    module = module.rpartition(".")[0]
                if module and module != name:
                    found[name].add(module)
    return found


def test_no_import_circles_in_rules() -> None:
    graph = imports()
    assert "rules.game" in graph and "rules.game" in graph["rules.ai.search"]
    done: set[str] = set()

    def visit(name: str, path: list[str]) -> None:
        if name in path:
            raise AssertionError("import circle: " + " -> ".join([*path[path.index(name) :], name]))
        if name in done:
            return
        for target in sorted(graph[name]):
            visit(target, [*path, name])
        done.add(name)

    for name in sorted(graph):
        visit(name, [])


def test_rules_imports_nothing_from_the_layers_above() -> None:
    for path in RULES.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import | ast.ImportFrom):
                names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
                if isinstance(node, ast.ImportFrom) and not node.level:
                    names.append(node.module or "")
                for n in names:
                    top = n.partition(".")[0]
                    assert top not in ("render", "storage", "bot", "localcord"), (path, n)
