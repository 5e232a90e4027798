"""A big field starts: Start on a Swiss event of 257 (a bye) or 1,024 entrants announces
round 1 in as many posts as Discord's 2,000 characters call for, every table once, each
table's line linking the thread its game is played in."""

from __future__ import annotations

import re
from typing import Any

import pytest
from support.replies import answer

from bot.discord_app import CrosshairsBot
from bot.ui.text import MESSAGE

from .tournament_harness import Club


# hundreds of threads, series and boards at once: minutes on a small machine
@pytest.mark.timeout(1800)
@pytest.mark.simcord(settle_timeout=1500.0)
@pytest.mark.parametrize("size", [257, pytest.param(1024, marks=pytest.mark.long)])
async def test_a_big_field_starts_and_every_table_links_its_thread(
    simcord_env: Any, simcord_bot: CrosshairsBot, size: int
) -> None:
    club = Club(simcord_env, size)
    created = answer(
        await club.organiser.slash(
            club.channel, "crosshairs-tournament create", name="Open", format="swiss", rounds=3
        )
    )
    registration = simcord_bot.env.tournaments.registration
    for pilot in club.pilots:  # entering is not what is tested: straight to the service
        await registration.join(1, pilot.id, pilot.name)
    pressed = answer(await club.organiser.click(created, label="Start"))
    assert pressed.content == "🏁 Started."

    posts = [s for s in club.said() if s.startswith("📣 **Open — round 1**")]
    assert len(posts) > 1 and all(len(p) <= MESSAGE for p in posts)
    lines = [line for p in posts for line in p.splitlines()[1:]]
    tables = size // 2
    assert sorted(int(re.match(r"Table (\d+):", line)[1]) for line in lines) == list(  # type: ignore[index]
        range(1, tables + size % 2 + 1)
    )
    threads = {t.id: t for t in club.channel.threads}
    linked = [int(m[1]) for line in lines if (m := re.search(r"<#(\d+)>", line))]
    assert len(linked) == len(set(linked)) == tables == len(threads)
    for line in lines:
        found = re.search(r"Table (\d+): .*<#(\d+)>", line)
        if found is None:
            assert "has a bye" in line and size % 2
            continue
        assert f"R1 T{found[1]}:" in threads[int(found[2])].name
