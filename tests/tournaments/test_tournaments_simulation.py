"""Two hundred seeded random events with every invariant checked (the bench runs 3,000)."""

from __future__ import annotations

import pytest

from tournaments.simulation import simulate

pytestmark = pytest.mark.slow  # seconds each: see tests/support/order.py


def test_two_hundred_random_events_keep_every_invariant() -> None:
    tally = simulate(200)
    assert sum(tally.events.values()) == 200
    assert tally.brute_checked > 20  # the brute force really ran
