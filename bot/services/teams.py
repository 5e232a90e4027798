"""A match's teams as the people in them: in a team mode (2v2, 3v3, 1vN) the seats of a
team play together (:attr:`rules.modes.Mode.teams`); the computer's seats have nobody."""

from __future__ import annotations

from bot.services.live import LiveMatch


def people_by_team(live: LiveMatch) -> dict[int, list[int]]:
    """Each team with people in it (none outside team modes): its people, in seat order
    and each once."""
    mode = live.game.mode
    if not mode.family.teams:
        return {}
    found: dict[int, list[int]] = {}
    for seat, occupant in enumerate(live.seats):
        user = occupant.user_id
        if user is not None and user > 0 and user not in found.get(mode.teams[seat], []):
            found.setdefault(mode.teams[seat], []).append(user)
    return found


def team_of(live: LiveMatch, user_id: int) -> int | None:
    """The team ``user_id`` plays for in ``live`` (None: none, or not a team game)."""
    return next((t for t, people in people_by_team(live).items() if user_id in people), None)
