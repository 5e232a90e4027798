"""Slash-command options that several commands share (``challenge``, ``lobby``,
``series start``, ``tournament create``): one declaration of their choices and
descriptions, so the same option reads and behaves the same everywhere."""

from __future__ import annotations

from typing import TypeVar

from discord import app_commands

from bot.services.live import COMPUTER_STRENGTHS
from bot.services.refusal import Refusal
from i18n import N_, _
from rules import clouds
from rules.modes import Settings
from rules.variants import FIRE_MODES, RULESETS, VARIANTS, names

RULESET_CHOICES = [app_commands.Choice(name=r.title, value=r.name) for r in RULESETS]
FIRE_CHOICES = [app_commands.Choice(name=f.title, value=f.name) for f in FIRE_MODES]
CLOUD_CHOICES = [
    app_commands.Choice(name=n, value=n) for n in ("random", "manual", "none", *clouds.PRESETS)
]
# Leaving the clock out means no clock; every choice is a real clock.
CLOCK_CHOICES = [
    app_commands.Choice(name="2 minutes a turn", value=120),
    app_commands.Choice(name="5 minutes a turn", value=300),
    app_commands.Choice(name="1 day a turn", value=86400),
    app_commands.Choice(name="3 days a turn", value=259200),
]
STRENGTH_CHOICES = [app_commands.Choice(name=s.title(), value=s) for s in COMPUTER_STRENGTHS]

CLOCK_RANGE = (10, 14 * 86400)  # seconds per player-turn a clock may give

T = TypeVar("T")

# The options that make up a game's settings, described the same in every command.
GAME_DESCRIPTIONS = {
    "ruleset": "2026 edition (default) or classic",
    "variants": f"Comma-separated: {names(VARIANTS)}",
    "clouds": "Cloud setup",
    "fire": "Automatic or manual fire",
    "clock": "Time per turn (leave out for no clock)",
}


def game_choices(command: T) -> T:
    """The choices of the game-settings options, on a command that has them all."""
    with_names = app_commands.choices(
        ruleset=RULESET_CHOICES, fire=FIRE_CHOICES, clouds=CLOUD_CHOICES
    )(command)
    return app_commands.choices(clock=CLOCK_CHOICES)(with_names)


def turn_clock(seconds: int | None) -> float | None:
    """Seconds per turn from a ``clock`` option (None: no clock). A value outside
    :data:`CLOCK_RANGE` is refused, never read as a clock that has already run out."""
    if seconds is None:
        return None
    low, high = CLOCK_RANGE
    if not low <= seconds <= high:
        raise Refusal(
            _(
                "a turn clock is {low} seconds to {high} days, given in seconds "
                "(300 is five minutes), and {seconds} is not; leave it out for no clock",
                low=low,
                high=high // 86400,
                seconds=seconds,
            )
        )
    return float(seconds)


CLOUD_WORDS = {
    "random": N_("random clouds"),
    "none": N_("no clouds"),
    "manual": N_("clouds placed in turn"),
}
FIRE_WORDS = {"auto": N_("auto fire"), "manual": N_("manual fire")}


def game_settings_words(settings: Settings, cloud_setup: str) -> list[str]:
    """What every game of an invitation is played with, always including the planes
    and the clouds: ``2026 rules · auto fire · 5 planes each · random clouds``."""
    counts = settings.plane_counts()
    if len(set(counts)) == 1:
        planes = _("{n} planes each", n=counts[0])
    else:
        planes = _("planes {counts}", counts="/".join(str(c) for c in counts))
    said = [
        _("{ruleset} rules", ruleset=settings.ruleset),
        _(FIRE_WORDS[settings.fire]) if settings.fire in FIRE_WORDS else settings.fire,
        planes,
    ]
    if settings.variants:
        said.append(_("variants: {variants}", variants=", ".join(sorted(settings.variants))))
    choice = cloud_setup.lower()
    if choice in CLOUD_WORDS:
        said.append(_(CLOUD_WORDS[choice]))
    else:
        said.append(_("clouds: {preset} preset", preset=choice))
    return said


def game_settings_text(settings: Settings, cloud_setup: str) -> str:
    return " · ".join(game_settings_words(settings, cloud_setup))
