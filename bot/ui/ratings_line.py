"""The ratings line shown after a match's result: the players' ratings as they stand
once it was rated, or why it was not. Posted in a match's thread after its final board
(:class:`bot.ui.surfaces.ThreadSurface`), and part of the final board of a match played
in one message (:mod:`bot.ui.anywhere_board`)."""

from __future__ import annotations

from bot.services.live import LiveMatch
from bot.services.rating_service import Ratings, shown_rating
from competition.ratings import FAMILY_TITLES, family_of
from i18n import _


async def ratings_line(ratings: Ratings, live: LiveMatch) -> str:
    verdict = await ratings.verdict(live)
    if not verdict.rated:
        return "📊 " + _("Unrated game: {why}.", why=verdict.why_not)
    family = family_of(live.game.settings.mode)
    parts = []
    for entrant in live.seats:
        assert entrant.user_id is not None  # rated games are between people
        rating = await ratings.rating(entrant.user_id, family)
        if rating is not None:
            parts.append(f"{entrant.name} {shown_rating(rating)}")
    said = _(
        "Ratings ({family}): {ratings} ('?': provisional, still settling)",
        family=_(FAMILY_TITLES[family]),
        ratings="; ".join(parts),
    )
    return f"📊 {said}"
