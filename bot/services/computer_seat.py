"""The computer as a seat of a match: its name, kept with the match, so in the language
of the server it is played in (every surface that seats it names it so)."""

from __future__ import annotations

from i18n import N_, _

STRENGTH_WORDS = {
    "easy": N_("easy"),
    "medium": N_("medium"),
    "hard": N_("hard"),
    "expert": N_("expert"),
}


def computer_name(strength: str) -> str:
    """The computer's name in a seat (kept with the match, so in the language of the
    server it is played in)."""
    return _("Computer ({strength})", strength=_(STRENGTH_WORDS.get(strength, strength)))
