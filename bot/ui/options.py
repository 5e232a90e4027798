"""Slash-command options that several commands share (``challenge``, ``lobby``,
``series start``, ``tournament create``): one declaration of their choices and
descriptions, so the same option reads and behaves the same everywhere."""

from __future__ import annotations

from typing import TypeVar

from discord import app_commands

from bot.services.live import COMPUTER_STRENGTHS
from rules import clouds
from rules.variants import FIRE_MODES, RULESETS, VARIANTS, names

RULESET_CHOICES = [app_commands.Choice(name=r.title, value=r.name) for r in RULESETS]
FIRE_CHOICES = [app_commands.Choice(name=f.title, value=f.name) for f in FIRE_MODES]
CLOUD_CHOICES = [
    app_commands.Choice(name=n, value=n) for n in ("random", "manual", "none", *clouds.PRESETS)
]
CLOCK_CHOICES = [
    app_commands.Choice(name="No clock", value=0),
    app_commands.Choice(name="2 minutes a turn", value=120),
    app_commands.Choice(name="5 minutes a turn", value=300),
    app_commands.Choice(name="1 day a turn", value=86400),
    app_commands.Choice(name="3 days a turn", value=259200),
]
STRENGTH_CHOICES = [app_commands.Choice(name=s.title(), value=s) for s in COMPUTER_STRENGTHS]

T = TypeVar("T")

# The options that make up a game's settings, described the same in every command.
GAME_DESCRIPTIONS = {
    "ruleset": "2026 edition (default) or classic",
    "variants": f"Comma-separated: {names(VARIANTS)}",
    "clouds": "Cloud setup",
    "fire": "Automatic or manual fire",
    "clock": "Time per turn",
}


def game_choices(command: T) -> T:
    """The choices of the game-settings options, on a command that has them all."""
    with_names = app_commands.choices(
        ruleset=RULESET_CHOICES, fire=FIRE_CHOICES, clouds=CLOUD_CHOICES
    )(command)
    return app_commands.choices(clock=CLOCK_CHOICES)(with_names)
