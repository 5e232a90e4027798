"""A whole game as JSON: its settings, how it started, and every step, versioned.

Loading replays the steps through the rules, so a document that claims an illegal
step is refused, and the rebuilt game equals the one saved. The ``status`` block is
written for readers (the bot, storage, people) and is ignored when loading::

    {"format": "crosshairs/game", "version": 1,
     "settings": {"mode": "duel", "ruleset": "2026", ...},
     "start": {"clouds": ["c3", ...]},            # or {"clouds": null} or {"position": "..."}
     "steps": ["+a3NE", "k7C<", ..., "resign:2"],
     "status": {"phase": "over", "turn": 31, "to_move": null, "result": {...}, ...}}
"""

from __future__ import annotations

import json
import re
from typing import Any, Final

from rules import board, position, schema
from rules.achievements import claims
from rules.errors import GameFileError, RulesError
from rules.game import Game
from rules.modes import Settings
from rules.steps import Step

FORMAT: Final = "crosshairs/game"
VERSION: Final = 1


def settings_to_dict(s: Settings) -> dict[str, Any]:
    return {
        "mode": s.mode,
        "ruleset": s.ruleset,
        "planes": s.planes,
        "fire": s.fire,
        "variants": sorted(s.variants),
        "handicaps": list(s.handicaps),
        "cloud_groups": s.cloud_groups,
        "turn_limit": s.turn_limit,
        "cards": list(s.cards),
    }


def settings_from_dict(d: dict[str, Any]) -> Settings:
    schema.SETTINGS(d, "settings")
    values = dict(d)
    for key in ("variants", "handicaps", "cards"):
        if key in values:
            values[key] = frozenset(values[key]) if key == "variants" else tuple(values[key])
    try:
        return Settings(**values)
    except (RulesError, TypeError) as exc:
        raise GameFileError(f"settings: {exc}") from None


def to_dict(game: Game) -> dict[str, Any]:
    start: dict[str, Any]
    if game.start_position is not None:
        start = {"position": game.start_position}
    else:
        start = {"clouds": _start_clouds(game)}
    status: dict[str, Any] = {
        "phase": game.phase,
        "turn": game.turn,
        "to_move": game.to_move,
        "result": None
        if game.result is None
        else {"winners": list(game.result.winners), "reason": game.result.reason},
        "claims": [{"card": c.card, "seat": c.seat, "step": c.step} for c in claims(game)],
    }
    if game.at_turn_start:
        status["position"] = position.format_position(game)
    return {
        "format": FORMAT,
        "version": VERSION,
        "settings": settings_to_dict(game.settings),
        "start": start,
        "steps": [p.token for p in game.history],
        "status": status,
    }


def _start_clouds(game: Game) -> list[str] | None:
    placed = any(p.token.startswith("~") for p in game.history)
    if placed or game.phase == "setup":
        return None
    return [board.name(c) for c in sorted(game.clouds)]


def dumps(game: Game, indent: int | None = 2) -> str:
    return json.dumps(to_dict(game), indent=indent)


def loads(text: str) -> Game:
    """The game a JSON document describes, rebuilt by replaying its steps."""
    if len(text) > schema.MAX_DOCUMENT:
        raise GameFileError(f"a game file is at most {schema.MAX_DOCUMENT:,} characters")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise GameFileError(f"not JSON: {exc}") from None
    except ValueError as exc:  # e.g. an integer of more than 4,300 digits
        raise GameFileError(f"not a readable game: {exc}") from None
    except RecursionError:
        raise GameFileError("not a readable game: lists or objects nested too deeply") from None
    return from_dict(data)


def from_dict(data: Any) -> Game:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise GameFileError(f"not a Crosshairs game (the format must be {FORMAT!r})")
    version = data.get("version")
    if version != VERSION:
        raise GameFileError(f"game format version {version!r} is not supported (this is {VERSION})")
    schema.GAME(data, "")
    raw_settings = data.get("settings", {})
    start = data.get("start", {})
    raw_steps = data.get("steps", [])
    settings = settings_from_dict(raw_settings)
    game = _start(settings, start)
    for i, token in enumerate(raw_steps):
        try:
            apply_record(game, token)
        except RulesError as exc:
            raise GameFileError(f"step {i + 1} ({token!r}): {exc}") from None
    return game


def _start(settings: Settings, start: dict[str, Any]) -> Game:
    try:
        if "position" in start:
            extra = {
                k: v for k, v in vars(settings).items() if k in ("fire", "turn_limit", "cards")
            }
            return position.parse(start["position"], **extra)
        clouds = start.get("clouds")
        if clouds is None:
            return Game(settings, clouds=None)
        return Game(settings, clouds=[board.cell(c) for c in clouds])
    except (RulesError, ValueError) as exc:
        raise GameFileError(f"start: {exc}") from None


def apply_record(game: Game, token: str) -> None:
    """Apply one entry of a game record: a single step, a resignation or a draw."""
    if token == "draw":
        game.agree_draw()
    elif ":" in token:
        reason, _, seat = token.partition(":")
        # ASCII digits only: "²".isdigit() is true, yet int() refuses it
        if not re.fullmatch(r"[0-9]{1,2}", seat):
            raise GameFileError(f"{token!r}: expected resign:<seat> or timeout:<seat>")
        game.concede(int(seat) - 1, reason)
    else:
        game.play(Step.parse(token))
