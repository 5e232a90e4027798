"""Load in CI: twenty duels at once (bench/e2e.py plays two hundred)."""

from __future__ import annotations

from e2e.conftest import Local
from localcord.load import play_many
from localcord.records import INTERACTION_DEADLINE


async def test_twenty_concurrent_duels_answer_every_interaction_in_time(local: Local) -> None:
    report = await play_many(local.server, matches=20, seed=5)
    print("\n".join(report.lines()))
    assert report.finished == 20, report.failures
    assert report.moves >= 20 * 4  # at least the placements of every match
    assert report.interactions > report.moves
    assert report.over_deadline == 0 and report.refused_late == 0
    assert report.worst < INTERACTION_DEADLINE
