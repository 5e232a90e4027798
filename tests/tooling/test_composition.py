"""The bot is put together in one place (docs/architecture.md, "Where the bot is put
together"): :class:`bot.env.Env` builds every service once, :mod:`bot.app` sets up every
feature from its list. So under bot/ no feature looks another up (``get_cog``), no domain
event goes through discord.py's ``dispatch`` (they go through the one event bus), the
Discord side builds no service of its own, and every feature module's ``setup`` is
listed, and is where its commands, buttons and cogs are added: none joins the bot as its
module is imported, nor from anywhere else. (The admin CLI, bot/cli, is a program of its
own, run with the bot stopped: it builds what it needs.)"""

from __future__ import annotations

import ast
import typing
from pathlib import Path

from bot.app import FEATURES
from bot.env import Env

BOT = Path(__file__).resolve().parents[2] / "bot"
DISCORD_SIDE = [*sorted((BOT / "ui").rglob("*.py")), BOT / "app.py", BOT / "discord_app.py"]
LOOKUPS = frozenset({"get_cog", "dispatch"})
ADDS = frozenset({"add_dynamic_items", "add_cog", "add_command", "add_commands"})
# where a bot/ui module may add to the bot: its setup, and the helper the setups call
ADDING = frozenset({"setup", "add_commands"})


def calls_named(source: str, names: frozenset[str]) -> list[tuple[int, str]]:
    """The lines where ``source`` calls a function or method of one of ``names``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
        if name in names:
            found.append((node.lineno, name))
    return found


def services() -> frozenset[str]:
    """The classes of the services the Env holds (read from its fields, so a service
    added to it is covered too)."""
    hints = typing.get_type_hints(Env)
    return frozenset(kind.__name__ for kind in hints.values() if isinstance(kind, type))


def modules() -> list[Path]:
    found = sorted(BOT.rglob("*.py"))
    assert len(found) > 20, "bot/ has its modules"
    return found


def test_the_check_sees_a_lookup_and_a_service_built() -> None:
    source = "def f(bot):\n    bot.get_cog('X')\n    bot.dispatch('e')\n    AchievementSeries(g)\n"
    assert calls_named(source, LOOKUPS) == [(2, "get_cog"), (3, "dispatch")]
    assert calls_named(source, frozenset({"AchievementSeries"})) == [(4, "AchievementSeries")]
    assert calls_named("def f(env):\n    return env.series\n", LOOKUPS) == []


def test_the_env_holds_the_services() -> None:
    assert {"Games", "AchievementSeries", "Ratings", "Tournaments"} <= services()


def test_no_feature_looks_another_up_or_dispatches_a_domain_event() -> None:
    found = {
        str(path.relative_to(BOT)): lines
        for path in modules()
        if (lines := calls_named(path.read_text(), LOOKUPS))
    }
    assert found == {}, (
        f"hand the desk over in bot/app.py, publish on bot/services/events.py's bus: {found}"
    )


def test_the_discord_side_builds_no_service() -> None:
    built = services()
    found = {
        str(path.relative_to(BOT)): lines
        for path in DISCORD_SIDE
        if (lines := calls_named(path.read_text(), built))
    }
    assert found == {}, f"build a service once, in bot/env.py, and hand it over: {found}"


def test_every_feature_module_is_listed() -> None:
    listed = {setup.__module__ for setup in FEATURES}
    with_setup = {
        ".".join(path.relative_to(BOT.parent).with_suffix("").parts)
        for path in sorted((BOT / "ui").rglob("*.py"))
        if any(
            isinstance(node, ast.AsyncFunctionDef | ast.FunctionDef) and node.name == "setup"
            for node in ast.parse(path.read_text()).body
        )
    }
    assert with_setup, "features have their setup"
    assert with_setup == listed, f"list each feature's setup in bot/app.py: {with_setup ^ listed}"
    assert len(FEATURES) == len(listed), "each feature is set up once"


def adds_outside_setup(source: str) -> list[tuple[int, str]]:
    """The lines where ``source`` adds a command, button or cog to the bot (or to
    /crosshairs) other than in a function of :data:`ADDING`, its decorators included."""
    found = []
    for top in ast.parse(source).body:
        inside = top.name if isinstance(top, ast.FunctionDef | ast.AsyncFunctionDef) else None
        for node in ast.walk(top):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
            owner = getattr(func, "value", None)
            joins = name == "command" and getattr(owner, "id", None) == "crosshairs"
            parent = any(
                k.arg == "parent" and getattr(k.value, "id", None) == "crosshairs"
                for k in node.keywords
            )
            if (name in ADDS and inside not in ADDING) or joins or parent:
                found.append((node.lineno, name or "?"))
    return found


def test_the_check_sees_a_command_joining_at_import() -> None:
    source = (
        "@crosshairs.command(name='x')\nasync def x(i): ...\n"
        "g = Group(name='g', parent=crosshairs)\n"
        "def later(bot):\n    bot.add_dynamic_items(B)\n"
        "async def setup(bot):\n    add_commands(x)\n    await bot.add_cog(C(bot))\n"
    )
    assert adds_outside_setup(source) == [(1, "command"), (3, "Group"), (5, "add_dynamic_items")]


def test_features_add_to_the_bot_only_in_their_setup() -> None:
    found = {
        str(path.relative_to(BOT)): lines
        for path in sorted((BOT / "ui").rglob("*.py"))
        if (lines := adds_outside_setup(path.read_text()))
    }
    assert found == {}, f"add it in the module's setup, listed in bot/app.py: {found}"
