"""The live board's lobby, what the App Launcher opens on before any match: a new
challenge to someone in the same live board, and the challenges of the server the
viewer asked or is asked, answered there as with the posted challenge's buttons
(:mod:`bot.services.challenges` checks both alike).

Only people signed in to the same instance can be challenged from it: Discord vouched
for each of them (their token) and for their being there (the instance), so neither
the opponent nor their name comes from the page.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Literal

from bot.live.received import number
from bot.services.challenge_offers import Challenge
from bot.services.computer_seat import computer_name
from bot.services.live import COMPUTER_STRENGTHS
from bot.services.refusal import Refusal
from i18n import _, n_
from rules.modes import Settings
from rules.variants import RULESETS, find_ruleset

PERSON = re.compile(r"[1-9][0-9]{0,19}")  # a Discord id, sent as a string (JS numbers lose it)
COMPUTER = "computer-"  # then its strength: the computer as an opponent
PLANES = range(3, 7)  # a duel's planes each, as Settings allows them
DEFAULT_PLANES = Settings().plane_counts()[0]  # a duel's own


@dataclass(frozen=True)
class Asked:
    """A new challenge as the page asks it: of a person, or of the computer at a
    strength."""

    opponent: int | None
    strength: str | None
    settings: Settings
    rated: bool


def misunderstood() -> Refusal:
    return Refusal(_("the live board did not understand that message"))


def asked(message: dict[str, Any]) -> Asked:
    """The page's new challenge, or the refusal for a malformed one."""
    opponent, ruleset = message.get("opponent"), message.get("ruleset")
    planes, rated = message.get("planes"), message.get("rated")
    strength = opponent.removeprefix(COMPUTER) if isinstance(opponent, str) else None
    if strength not in COMPUTER_STRENGTHS:
        strength = None
    if (
        not isinstance(opponent, str)
        or not (PERSON.fullmatch(opponent) or strength is not None)
        or ruleset not in [r.name for r in RULESETS]
        or not isinstance(planes, int)
        or isinstance(planes, bool)
        or planes not in PLANES
        or not isinstance(rated, bool)
    ):
        raise misunderstood()
    person = None if strength is not None else int(opponent)
    return Asked(
        person, strength, Settings(mode="duel", ruleset=str(ruleset), planes=planes), rated
    )


def answered(message: dict[str, Any]) -> tuple[int, Literal["accept", "decline"]]:
    """The challenge a page answers and how, or the refusal for a malformed answer."""
    op, challenge = message.get("op"), message.get("challenge")
    if op not in ("accept", "decline") or not number(challenge):
        raise misunderstood()
    return challenge, "accept" if op == "accept" else "decline"


def shown(challenge: Challenge, me: int) -> dict[str, Any]:
    """A challenge as the viewer's page lists it, in their language: asked of them (to
    accept or decline) or by them (to withdraw)."""
    mine = challenge.host.user_id == me
    s = challenge.settings
    planes = s.plane_counts()[0]
    terms = [
        _(find_ruleset(s.ruleset).title),
        n_("{n} plane each", "{n} planes each", planes, n=planes),
        _("rated") if challenge.rated else _("unrated (takebacks allowed)"),
    ]
    if mine:
        said = _("You challenge {name}: waiting for their answer", name=challenge.invited.name)
    else:
        said = _("{name} challenges you", name=challenge.host.name)
    return {
        "challenge": challenge.id,
        "text": f"⚔️ {said} · {' · '.join(terms)}",
        "answer": not mine,
        "withdraw": mine,
    }


def computers() -> list[dict[str, object]]:
    """The computer at each strength, as the page offers it beside the people."""
    return [
        {"id": COMPUTER + s, "name": "🤖 " + computer_name(s), "computer": True}
        for s in COMPUTER_STRENGTHS
    ]


def rulesets() -> list[dict[str, str]]:
    """The rulesets a page offers, the default first, in the viewer's language."""
    return [{"key": r.name, "title": _(r.title)} for r in RULESETS]
