"""``crosshairs db forget-user``: a person's deletion request, on a database the bot
filled through Discord. Nothing names them afterwards; the other player's games,
series and rating are untouched and still load."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from support.flying import fly_first_turns, match_in, resign
from support.replies import answer
from support.tables import Table

from bot.cli.main import main
from bot.config import Config
from bot.discord_app import CrosshairsBot
from storage.forget import FORGOTTEN
from storage.ratings import RatingRepo


def mentions(path: Path, user_id: int, name: str) -> list[str]:
    """Every table and column still holding the person's id or name."""
    found = []
    with sqlite3.connect(path) as conn:
        tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        for table in tables:
            for column in [r[1] for r in conn.execute(f"PRAGMA table_info({table})")]:
                for (value,) in conn.execute(f"SELECT {column} FROM {table}"):
                    if value == user_id or (
                        isinstance(value, str) and (str(user_id) in value or f'"{name}"' in value)
                    ):
                        found.append(f"{table}.{column}")
    return found


async def test_forget_user_anonymises_them_and_keeps_the_other_players_games(
    simcord_env: Any,
    simcord_bot: CrosshairsBot,
    bot_config: Config,
    capsys: pytest.CaptureFixture[str],
) -> None:
    table = Table(simcord_env)
    channel, alice, bob = table.channel, table.alice, table.bob
    duel_thread = await table.start()
    await fly_first_turns(table.member, duel_thread, await match_in(simcord_bot, duel_thread))
    await resign(alice, duel_thread)  # rated: bob wins
    offer = answer(await alice.slash(channel, "crosshairs series start", opponent=bob, games=1))
    await bob.click(offer, label="Accept")
    series_thread = channel.threads[-1]
    await fly_first_turns(table.member, series_thread, await match_in(simcord_bot, series_thread))
    await resign(bob, series_thread)  # series: alice wins
    ratings = RatingRepo(simcord_bot.db)
    bob_before = await ratings.get(bob.id, "duel")
    assert await ratings.get(alice.id, "duel") is not None
    path = bot_config.database_path
    assert mentions(path, alice.id, "alice")

    code = await asyncio.to_thread(main, ["db", "--db", str(path), "forget-user", str(alice.id)])
    assert code == 0
    assert f"user {alice.id} is now -1 ({FORGOTTEN})" in capsys.readouterr().out

    assert mentions(path, alice.id, "alice") == []
    assert await ratings.get(alice.id, "duel") is None
    assert await ratings.get(bob.id, "duel") == bob_before
    simcord_bot.games._live.clear()  # as after a restart: matches reload from storage
    duel = await simcord_bot.games.by_thread(duel_thread.id)
    assert duel is not None and duel.names == [FORGOTTEN, "bob"]
    status = answer(await bob.slash(channel, "crosshairs series status", series_id=1))
    assert f"**{FORGOTTEN}**: 1 won" in status.content


async def test_forget_user_refuses_while_they_are_playing(
    simcord_env: Any,
    simcord_bot: CrosshairsBot,
    bot_config: Config,
    capsys: pytest.CaptureFixture[str],
) -> None:
    table = Table(simcord_env)
    bob = table.bob
    await table.start()
    path = bot_config.database_path
    code = await asyncio.to_thread(main, ["db", "--db", str(path), "forget-user", str(bob.id)])
    assert code == 2
    assert "is playing in match #1: finish or abort it first" in capsys.readouterr().err
    assert mentions(path, bob.id, "bob")  # nothing changed
