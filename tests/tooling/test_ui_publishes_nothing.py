"""The domain publishes a match's life; the Discord layer only shows it
(docs/architecture.md, "A press, start to finish"). So no module under bot/ui publishes
a domain event: every action goes through :meth:`bot.services.life.MatchLife.after`,
which publishes what it did once, in the domain's order."""

from __future__ import annotations

import ast
import typing
from pathlib import Path

from bot.services import events

UI = Path(__file__).resolve().parents[2] / "bot" / "ui"
EVENTS = frozenset(kind.__name__ for kind in typing.get_args(events.Event))
BUSES = frozenset({"events", "bus"})  # what the event bus is called where it is held


def _name(node: ast.expr) -> str | None:
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.id if isinstance(node, ast.Name) else None


def publications(source: str) -> list[int]:
    """The lines where ``source`` publishes a domain event: ``….publish(...)`` on the
    event bus, or of an event it builds."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "publish"
        ):
            continue
        on_bus = _name(node.func.value) in BUSES
        built = any(isinstance(a, ast.Call) and _name(a.func) in EVENTS for a in node.args)
        if on_bus or built:
            found.append(node.lineno)
    return found


def test_the_check_sees_a_publication() -> None:
    assert {"MatchFinished", "TurnPassed", "GameBooked", "PairingBooked", "Acted"} <= EVENTS
    source = (
        "async def f(bot, live, desk):\n"
        "    await bot.games.events.publish(x)\n"
        "    await desk.publish(MatchFinished(live))\n"
        "    await events.publish(TurnPassed(live, 1, None))\n"
        "    await desk.publish(7, advanced)\n"  # a tournament desk posting an advance
    )
    assert publications(source) == [2, 3, 4]


def test_no_ui_module_publishes_a_domain_event() -> None:
    found = {
        path.name: lines
        for path in sorted(UI.rglob("*.py"))
        if (lines := publications(path.read_text(encoding="utf-8")))
    }
    assert len(list(UI.rglob("*.py"))) > 20, "bot/ui has its modules"
    assert found == {}, f"bot/ui publishes domain events (lines): {found}"
