"""``crosshairs db forget-user``: a person's deletion request, on a database the bot
filled through Discord. Nothing names them afterwards; the other player's games,
series and rating are untouched and still load."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import discord
import pytest
from support.flying import fly_first_turns, match_in, resign
from support.replies import answer
from support.tables import Table, board_message

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
    offer = answer(await alice.slash(channel, "crosshairs-series start", opponent=bob, games=1))
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
    for kept in simcord_bot.games.loaded():  # as after a restart: matches reload from storage
        simcord_bot.games.live.drop(kept.id)
    duel = await simcord_bot.games.by_thread(duel_thread.id)
    assert duel is not None and duel.names == [FORGOTTEN, "bob"]
    status = answer(await bob.slash(channel, "crosshairs-series status", series_id=1))
    assert f"**{FORGOTTEN}**: 1 won" in status.content


async def test_a_person_who_left_mid_game_is_forgotten_and_their_matches_end(
    simcord_env: Any,
    simcord_bot: CrosshairsBot,
    new_bot: Callable[[], CrosshairsBot],
    bot_config: Config,
    capsys: pytest.CaptureFixture[str],
) -> None:
    table = Table(simcord_env)
    alice, bob = table.alice, table.bob
    begun = await table.start()  # every side flies: bob's leaving resigns it
    await fly_first_turns(table.member, begun, await match_in(simcord_bot, begun))
    fresh = await table.start()  # nobody has flown: bob's leaving aborts it
    path = bot_config.database_path
    await simcord_bot.close()  # admins run it with the bot stopped (docs/admins.md)

    code = await asyncio.to_thread(main, ["db", "--db", str(path), "forget-user", str(bob.id)])
    assert code == 0
    out = capsys.readouterr().out
    assert "match #2 aborted (not every side had flown)" in out
    assert "match #1: resigned for them (unrated)" in out
    assert mentions(path, bob.id, "bob") == []
    # secure_delete and the TRUNCATE checkpoint: not even the file's free pages or the
    # write-ahead log still hold the name
    wal = path.with_name(path.name + "-wal")
    assert b"bob" not in path.read_bytes()
    assert not wal.exists() or wal.stat().st_size == 0

    restarted = new_bot()
    await simcord_env.restart_bot(restarted)
    await simcord_env.advance_time(1)
    board = board_message(begun)  # the restarted bot shows the end it never saw
    assert "alice (P1) wins" in board.content
    # no Rematch: the forgotten pilot cannot be asked; the game can still be read
    rows: list[Any] = list(board.components)  # action rows of buttons
    labels = [item.label for row in rows for item in row.children]
    assert labels == ["Record", "Analyse"]
    told = [m.content for m in begun.history()]
    assert "📊 Unrated game: a forgotten pilot played (their data was deleted)." in told
    assert await RatingRepo(restarted.db).get(alice.id, "duel") is None
    with sqlite3.connect(path) as conn:
        statuses = dict(conn.execute("SELECT id, status FROM matches"))
    assert statuses == {1: "finished", 2: "abandoned"}
    assert (await restarted.games.by_thread(fresh.id)) is not None


async def test_forgetting_an_entrant_of_an_open_tournament_withdraws_them(
    simcord_env: Any,
    simcord_bot: CrosshairsBot,
    bot_config: Config,
    capsys: pytest.CaptureFixture[str],
) -> None:
    table = Table(simcord_env)
    admins = table.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    ada = table.guild.add_member(simcord_env.create_user("ada"), roles=[admins])
    created = answer(
        await ada.slash(table.channel, "crosshairs-tournament create", name="Cup", format="single")
    )
    for pilot in (table.alice, table.bob, table.eve):
        await pilot.click(created, label="Join")
    path = bot_config.database_path
    code = await asyncio.to_thread(
        main, ["db", "--db", str(path), "forget-user", str(table.bob.id)]
    )
    assert code == 0
    assert "entries withdrawn: 1" in capsys.readouterr().out
    await ada.click(created, label="Start")
    games = [await match_in(simcord_bot, t) for t in table.channel.threads]
    seated = {e.user_id for live in games for e in live.seats}
    assert seated <= {table.alice.id, table.eve.id}  # nobody flies a forgotten pilot
    assert not any("Forgotten pilot" in m.content for m in table.channel.history())
    wal = path.with_name(path.name + "-wal")
    assert not wal.exists() or b"bob" not in wal.read_bytes()
