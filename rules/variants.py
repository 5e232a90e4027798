"""Rulesets, fire modes and variants: the ways a game's rules can be chosen (rules spec §7).

Each choice is an object in a registry, found by its name the way python-chess finds a
variant (``VARIANTS`` and ``find_variant``). A game's :class:`rules.modes.Settings`
keeps the chosen *names*, which is what JSON, position text and storage write; the
engine asks only the :class:`Rules` they add up to::

    >>> find_ruleset("classic").rules(auto_fire=True).rings
    True
    >>> combined_rules("2026", "auto", frozenset({"no-level", "aces"})).level_flights
    0

* a **ruleset** is the rulebook: the 2026 edition (level flight is two cells) or the
  2010 classic one (altitude rings pay for climbs; level flight one or two cells);
* the **fire mode** says who pulls the trigger: automatic fire shoots every caught plane
  as soon as it can, manual fire offers each shot as a step (``*d4``);
* a **variant** changes one rule on top of the ruleset; any set of them can be played.

To add a variant, write one :class:`Variant` subclass below — its name, a sentence for
players and how it changes :class:`Rules` — and list it in ``VARIANTS``. A variant that
needs a rule :class:`Rules` cannot yet express needs that rule added here and read by the
engine layer it belongs to (see docs/rules.md, "Adding a variant").
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import ClassVar, Final

from i18n import N_
from rules.errors import RulesError


@dataclass(frozen=True)
class Rules:
    """What the engine asks of a game's ruleset, fire mode and variants together."""

    rings: bool  # climbs cost altitude rings (classic)
    level_flights: int  # 0: none; 1: two cells (F); 2: also one cell (F1, classic)
    auto_fire: bool  # every shot is fired as soon as it appears
    turbulence: bool = False  # moving into a cloud from outside costs one height
    fire_from_clouds: bool = False  # a plane in a cloud fires (and can be hit)
    aces: bool = False  # the planes taking part in a kill become aces (Immelmann)


# ------------------------------------------------------------------ rulesets


class Ruleset:
    """A rulebook. ``name`` is what settings, JSON and position text write."""

    name: ClassVar[str]
    title: ClassVar[str]  # how players see it in a menu
    rings: ClassVar[bool]
    level_flights: ClassVar[int]

    def rules(self, auto_fire: bool) -> Rules:
        return Rules(rings=self.rings, level_flights=self.level_flights, auto_fire=auto_fire)


class Edition2026(Ruleset):
    """The 2026 edition, the default: level flight is two cells, climbs are free."""

    name = "2026"
    title = N_("2026 edition")
    rings = False
    level_flights = 1


class Classic(Ruleset):
    """The 2010 rules: each seat has 20 altitude rings; a climb takes one from the
    supply and losing height gives them back. Level flight may be one cell (``F1``)."""

    name = "classic"
    title = N_("Classic (2010)")
    rings = True
    level_flights = 2


RULESETS: Final[tuple[Ruleset, ...]] = (Edition2026(), Classic())


def find_ruleset(name: str) -> Ruleset:
    for ruleset in RULESETS:
        if ruleset.name == name:
            return ruleset
    raise RulesError(f"unknown ruleset {name!r}; rulesets are: {names(RULESETS)}")


# ---------------------------------------------------------------- fire modes


@dataclass(frozen=True)
class FireMode:
    name: str
    title: str
    automatic: bool


FIRE_MODES: Final[tuple[FireMode, ...]] = (
    FireMode("auto", "Automatic fire", automatic=True),
    FireMode("manual", "Manual fire (choose every shot)", automatic=False),
)


def find_fire_mode(name: str) -> FireMode:
    for fire in FIRE_MODES:
        if fire.name == name:
            return fire
    raise RulesError(f"unknown fire mode {name!r}; fire modes are: {names(FIRE_MODES)}")


# ------------------------------------------------------------------ variants


class Variant:
    """One optional rule. ``name`` is what settings, JSON and position text write."""

    name: ClassVar[str]
    title: ClassVar[str]
    teaching: ClassVar[str]  # the rule in one sentence, for players (translated where shown)

    def apply(self, rules: Rules) -> Rules:
        raise NotImplementedError


class Turbulence(Variant):
    name = "turbulence"
    title = N_("Turbulence")
    teaching = N_("entering a cloud costs 1 height.")

    def apply(self, rules: Rules) -> Rules:
        return replace(rules, turbulence=True)


class ConcealedFire(Variant):
    name = "concealed-fire"
    title = N_("Concealed fire")
    teaching = N_("planes in clouds may fire out.")

    def apply(self, rules: Rules) -> Rules:
        return replace(rules, fire_from_clouds=True)


class Aces(Variant):
    name = "aces"
    title = N_("Aces")
    teaching = N_(
        "planes in a kill become aces and may make the **Immelmann** (`I`: −3 height, turn about)."
    )

    def apply(self, rules: Rules) -> Rules:
        return replace(rules, aces=True)


class NoLevel(Variant):
    name = "no-level"
    title = N_("No level flight")
    teaching = N_("the designer's early rules.")

    def apply(self, rules: Rules) -> Rules:
        return replace(rules, level_flights=0)


# The order is the order position text lists them in.
VARIANTS: Final[tuple[Variant, ...]] = (Turbulence(), ConcealedFire(), Aces(), NoLevel())


def find_variant(name: str) -> Variant:
    for variant in VARIANTS:
        if variant.name == name:
            return variant
    raise RulesError(f"unknown variant {name!r}; variants are: {names(VARIANTS)}")


def parse_variants(text: str) -> frozenset[str]:
    """The variant names in a comma-separated list as players type it (not checked)."""
    return frozenset(v.strip().lower() for v in text.split(",") if v.strip())


def check_variants(chosen: Iterable[str]) -> None:
    """Refuse the first unknown name, in alphabetical order."""
    for name in sorted(chosen):
        find_variant(name)


def in_order(chosen: Iterable[str]) -> list[str]:
    """The chosen variant names in registry order."""
    wanted = set(chosen)
    return [v.name for v in VARIANTS if v.name in wanted]


def combined_rules(ruleset: str, fire: str, variants: Iterable[str]) -> Rules:
    """The rules of a game with this ruleset, fire mode and set of variants."""
    rules = find_ruleset(ruleset).rules(find_fire_mode(fire).automatic)
    for name in in_order(variants):
        rules = find_variant(name).apply(rules)
    return rules


def names(choices: Iterable[Ruleset | FireMode | Variant]) -> str:
    return ", ".join(c.name for c in choices)
