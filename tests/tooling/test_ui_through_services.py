"""The Discord layer reaches storage only through the services' verbs: besides not
importing storage (scripts/check_imports.py), no module of bot/ui reaches into a
service's repository (``service.repo.…``)."""

from __future__ import annotations

import ast
from pathlib import Path

UI = Path(__file__).resolve().parents[2] / "bot" / "ui"


def repo_uses(source: str) -> list[int]:
    """The lines where ``source`` reads an attribute named ``repo``."""
    return [
        node.lineno
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Attribute) and node.attr == "repo"
    ]


def test_the_check_sees_a_repository_reached_into() -> None:
    assert repo_uses("async def f(s):\n    return await s.service.repo.get(1)\n") == [2]
    assert repo_uses("def f(s):\n    return s.service.get(1)\n") == []


def test_no_ui_module_reaches_into_a_repository() -> None:
    modules = sorted(UI.rglob("*.py"))
    assert modules, "bot/ui has modules"
    found = {
        str(path.relative_to(UI)): lines
        for path in modules
        if (lines := repo_uses(path.read_text()))
    }
    assert found == {}, f"call a service's verb instead: {found}"
