"""Everything is built once, where the bot is put together (docs/architecture.md):

- no process-global worker pool: whoever draws or searches is handed ``env.workers``;
- no module-level mutable state in bot/ui (a dict, list or set a module keeps and
  changes): state lives in objects built once in bot/app.py's install;
- no storage class built outside bot/env.py: services are handed the ones Env built
  (storage's own modules build each other, and the admin CLI, bot/cli, is a program of
  its own).
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BOT = ROOT / "bot"
COMPOSITION_ROOT = BOT / "env.py"

MUTATORS = frozenset(
    {
        "append",
        "appendleft",
        "add",
        "clear",
        "discard",
        "extend",
        "insert",
        "move_to_end",
        "pop",
        "popitem",
        "popleft",
        "remove",
        "setdefault",
        "update",
    }
)
CONTAINERS = frozenset({"dict", "list", "set", "defaultdict", "OrderedDict", "deque", "Counter"})


def _name(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def global_pools(source: str) -> list[int]:
    """Lines that use or make a process-global pool: ``workers.current()`` or
    ``workers.install(...)``, importing ``current``/``install`` from the workers module,
    or a pool built at module level."""
    tree = ast.parse(source)
    found = []
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in ("current", "install")
            and _name(node.func.value) == "workers"
        ):
            found.append(node.lineno)
        if (
            isinstance(node, ast.ImportFrom)
            and (node.module or "").endswith("workers")
            and {a.name for a in node.names} & {"current", "install"}
        ):
            found.append(node.lineno)
    for top in tree.body:
        if isinstance(top, ast.Assign | ast.AnnAssign) and any(
            isinstance(n, ast.Call) and _name(n.func) == "Workers" for n in ast.walk(top)
        ):
            found.append(top.lineno)
    return sorted(found)


def _is_container(value: ast.expr | None) -> bool:
    if isinstance(value, ast.Dict | ast.List | ast.Set | ast.DictComp | ast.ListComp):
        return True
    if isinstance(value, ast.SetComp):
        return True
    return isinstance(value, ast.Call) and _name(value.func) in CONTAINERS


def mutable_state(source: str) -> list[str]:
    """The module-level containers that the module changes after making them."""
    tree = ast.parse(source)
    kept: set[str] = set()
    for top in tree.body:
        targets = top.targets if isinstance(top, ast.Assign) else []
        if isinstance(top, ast.AnnAssign):
            targets = [top.target]
        if isinstance(top, ast.Assign | ast.AnnAssign) and _is_container(top.value):
            kept |= {t.id for t in targets if isinstance(t, ast.Name)}
    changed: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            if node.func.attr in MUTATORS and isinstance(node.func.value, ast.Name):
                changed.add(node.func.value.id)
        elif isinstance(node, ast.Assign | ast.AugAssign | ast.Delete):
            targets = node.targets if isinstance(node, ast.Assign | ast.Delete) else [node.target]
            for t in targets:
                if isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name):
                    changed.add(t.value.id)
                if isinstance(node, ast.AugAssign) and isinstance(t, ast.Name):
                    changed.add(t.id)
    return sorted(kept & changed)


def storage_classes() -> frozenset[str]:
    """The classes of storage/ that are built on a database (repositories and the like)."""
    found = set()
    for path in (ROOT / "storage").glob("*.py"):
        for node in ast.parse(path.read_text()).body:
            if not isinstance(node, ast.ClassDef):
                continue
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and item.name == "__init__":
                    hints = [ast.unparse(a.annotation) for a in item.args.args if a.annotation]
                    if any("Database" in h for h in hints):
                        found.add(node.name)
    return frozenset(found)


def built(source: str, classes: frozenset[str]) -> list[tuple[int, str]]:
    return [
        (node.lineno, name)
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Call) and (name := _name(node.func) or "") in classes
    ]


def test_the_checks_see_what_they_refuse() -> None:
    assert global_pools("from bot.services import workers\nx = workers.current()\n") == [2]
    assert global_pools("from bot.services.workers import current\n") == [1]
    assert global_pools("POOL = Workers(0)\ndef f():\n    return Workers(2)\n") == [1]
    assert global_pools("async def f(bot):\n    await bot.workers.run(g)\n") == []
    source = "PENDING: dict[int, int] = {}\nSEEN = set()\nNAMES = {1: 'a'}\n"
    source += "def f(k):\n    PENDING[k] = 1\n    SEEN.add(k)\n    return NAMES[k]\n"
    assert mutable_state(source) == ["PENDING", "SEEN"]
    assert built("def f(db):\n    return MatchRepo(db)\n", frozenset({"MatchRepo"})) == [
        (2, "MatchRepo")
    ]


def test_no_process_global_pool_outside_the_composition_root() -> None:
    found = {
        str(path.relative_to(ROOT)): lines
        for package in ("bot", "launcher", "localcord")
        for path in sorted((ROOT / package).rglob("*.py"))
        if path != COMPOSITION_ROOT and (lines := global_pools(path.read_text()))
    }
    assert found == {}, f"hand env.workers to whoever draws or searches: {found}"


def test_no_module_level_mutable_state_in_the_discord_layer() -> None:
    found = {
        str(path.relative_to(BOT)): names
        for path in sorted((BOT / "ui").rglob("*.py"))
        if (names := mutable_state(path.read_text()))
    }
    assert found == {}, f"keep it in an object built once in bot/app.py's install: {found}"


def test_storage_classes_are_built_only_in_env() -> None:
    classes = storage_classes()
    assert {"MatchRepo", "TournamentRepo", "UnratedRepo"} <= classes
    found = {
        str(path.relative_to(ROOT)): lines
        for package in ("bot", "launcher", "localcord")
        for path in sorted((ROOT / package).rglob("*.py"))
        if path != COMPOSITION_ROOT
        and "cli" not in path.relative_to(ROOT).parts
        and (lines := built(path.read_text(), classes))
    }
    assert found == {}, f"build it once in bot/env.py and hand it over: {found}"
