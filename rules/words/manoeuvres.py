"""The manoeuvres' names, in the one place they are written: as a cockpit button, as a
choice's verb, as a run of them in a turn told in words, and as a count on a profile."""

from __future__ import annotations

from typing import Final

from i18n import N_, n_
from rules import steps

# English, marked for translation (i18n); translated where they are shown
LABELS: Final = {
    steps.CLIMB: N_("Climb"),
    steps.LEVEL: N_("Level"),
    steps.LEVEL1: N_("Level 1"),
    steps.SWOOP: N_("Swoop"),
    steps.POWER: N_("Power dive"),
    steps.IMMELMANN: N_("Immelmann"),
    steps.CRASH: N_("Crash"),
}
VERBS: Final = {
    steps.CLIMB: N_("climb"),
    steps.LEVEL: N_("fly level"),
    steps.LEVEL1: N_("fly level one cell"),
    steps.SWOOP: N_("swoop"),
    steps.POWER: N_("power dive"),
    steps.IMMELMANN: N_("Immelmann turn"),
}


def run_of(kind: str, n: int) -> str:
    """``swoop``, or ``3 swoops``: a manoeuvre flown ``n`` times in a row."""
    if kind == steps.CLIMB:
        return n_("climb", "{n} climbs", n)
    if kind == steps.LEVEL:
        return n_("level", "{n} levels", n)
    if kind == steps.LEVEL1:
        return n_("level one cell", "{n} levels of one cell", n)
    if kind == steps.SWOOP:
        return n_("swoop", "{n} swoops", n)
    if kind == steps.POWER:
        return n_("power dive", "{n} power dives", n)
    return n_("Immelmann", "{n} Immelmanns", n)


def times_flown(kind: str, n: int) -> str:
    """``12 swoops``: how often a manoeuvre (a step kind of :mod:`rules.steps`) was flown."""
    if kind == steps.CLIMB:
        return n_("{n} climb", "{n} climbs", n)
    if kind == steps.LEVEL:
        return n_("{n} level flight", "{n} level flights", n)
    if kind == steps.LEVEL1:
        return n_("{n} one-cell flight", "{n} one-cell flights", n)
    if kind == steps.SWOOP:
        return n_("{n} swoop", "{n} swoops", n)
    if kind == steps.POWER:
        return n_("{n} power dive", "{n} power dives", n)
    return n_("{n} Immelmann", "{n} Immelmanns", n)
