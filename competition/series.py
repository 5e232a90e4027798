"""Series rules without storage: how long a series may be and who sits where in each game
(rules spec §8; the pool of cards and the standings are :mod:`rules.achievements`)."""

from __future__ import annotations

from rules.modes import Mode

MAX_GAMES = 15  # a series is an evening's play, not a league


def team_rotation(mode: Mode) -> int | None:
    """The smallest rotation of positions round the seats that keeps every team
    together, or None when there is none (uneven teams: 1 vs 2, 1 vs 3).

    Rotating by one seat changes who flies first in duels and free-for-alls; in 2 vs 2
    it would split both teams, so the whole team moves two seats instead."""
    n, teams = mode.seats, mode.teams
    for shift in range(1, n):
        if all(
            (teams[p] == teams[q]) == (teams[(p + shift) % n] == teams[(q + shift) % n])
            for p in range(n)
            for q in range(n)
        ):
            return shift
    return None


def seat_positions(mode: Mode, alternate_first: bool, game_no: int) -> list[int]:
    """The position sitting in each seat in game ``game_no`` (1-based)."""
    n = mode.seats
    shift = team_rotation(mode) if alternate_first else None
    turn = 0 if shift is None else shift * (game_no - 1)
    return [(seat + turn) % n for seat in range(n)]
