"""The nonce a post that must go up once carries (``bot.services.events.nonce``): what
Discord takes (a string of at most 25 characters), one per match and step, and the same
in a restarted process, so that Discord can return the first post for the repeat."""

from __future__ import annotations

import subprocess
import sys

from bot.services.events import nonce

BIG = 2**63 - 1  # the largest match number either database can hand out


def test_a_nonce_fits_discords_25_characters_however_large_the_match() -> None:
    for parts in [(1, "ratings"), (BIG, "scoreboard"), (BIG, "turn", 10**6, BIG)]:
        said = nonce(*parts)
        assert isinstance(said, str) and 0 < len(said) <= 25, said


def test_each_match_and_step_has_its_own_nonce() -> None:
    keys: list[tuple[object, ...]] = [
        (m, s) for m in (1, 2, 12, BIG) for s in ("ratings", "scoreboard", "winner")
    ]
    keys += [(1, "turn", ply, user) for ply in (1, 2, 12) for user in (3, 33)]
    assert len({nonce(*k) for k in keys}) == len(keys)
    assert nonce(1, "turn", 12, 3) != nonce(1, "turn", 1, 23)  # parts stay apart


def test_another_process_makes_the_same_nonce() -> None:
    other = subprocess.run(
        [sys.executable, "-c", "from bot.services.events import nonce; print(nonce(7, 'ratings'))"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert other.stdout.strip() == nonce(7, "ratings")
