"""The real discord.py bot in simcord's in-memory Discord, driven as players drive it."""

from __future__ import annotations

import io
import random
from collections.abc import Callable
from typing import Any

import discord
import pytest
from PIL import Image
from simcord.builders import UserHandle
from support.replies import answer, menu_with, refusals, told
from support.tables import Table, board_message

from bot.discord_app import CrosshairsBot
from rules import board


async def board_png_size(message: discord.Message) -> tuple[int, int]:
    (attachment,) = message.attachments
    data = await attachment.read()
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    with Image.open(io.BytesIO(data)) as img:
        return img.size


def player(table: Table, bot: CrosshairsBot, thread: Any) -> Any:
    live = next(iter(bot.games.live_matches()))
    user = live.user_to_move()
    return table.alice if user == table.alice.id else table.bob


async def test_challenge_accept_thread_and_a_whole_game(
    simcord_env: Any, simcord_bot: CrosshairsBot
) -> None:
    table = Table(simcord_env)
    invite = await table.challenge(clouds="none")
    assert "bob" in invite.content.lower() or table.bob.mention in invite.content
    await table.bob.click(invite, label="Accept")
    (thread,) = table.channel.threads
    board = board_message(thread)
    assert "alice (P1) to fly" in board.content
    width = simcord_bot.config.board_pixels  # BOARD_PIXELS
    assert (await board_png_size(board))[0] == width

    # Alice flies her first action with the cockpit: Play, then a3 facing NE in one choice.
    cockpit = answer(await table.alice.click(board, label="Play"))
    assert cockpit.ephemeral and cockpit.content == "**Place a plane.**"  # nothing to fly yet
    await table.alice.select(cockpit.message, ["+a3NE"], custom_id=menu_with(cockpit, "+a3NE"))
    board = board_message(thread)
    assert told(thread, "alice (P1) brings a plane on at a3, facing north-east, height 0 (+a3NE).")
    assert "bob (P2) to fly" in board.content
    assert table.bob.mention in board.content  # bob is pinged by the board itself

    # The rest of the game by notation, with legal moves picked at random.
    rng = random.Random(5)
    live = next(iter(simcord_bot.games.live_matches()))
    images = {board.attachments[0].url}
    moves = 0
    while not live.game.is_over:
        mover = table.alice if live.user_to_move() == table.alice.id else table.bob
        token = rng.choice(live.game.legal_steps()).token
        result = await mover.slash(thread, "crosshairs move", tokens=token)
        assert result.ephemeral
        moves += 1
        if moves % 10 == 0:
            images.add(board_message(thread).attachments[0].url)
    final = board_message(thread)
    assert live.game.result is not None
    assert "wins" in final.content
    assert any("/crosshairs replay" in m.content for m in thread.history())
    assert len(images) > 2  # the board image was replaced as the game went on
    assert (await board_png_size(final))[0] == width
    # Presses are routed by custom id alone, so the bot keeps nothing per message it
    # sent (boards, cockpits, the final board's Rematch) for the rest of its life.
    store = simcord_bot._connection._view_store
    assert (store._views, store._synced_message_views) == ({}, {})


async def test_a_strangers_press_is_answered_privately_and_changes_nothing(
    simcord_env: Any, simcord_bot: CrosshairsBot
) -> None:
    table = Table(simcord_env)
    thread = await table.start()
    board = board_message(thread)
    live = next(iter(simcord_bot.games.live_matches()))
    before = live.ply
    result = await table.eve.click(board, label="Play")
    assert result.ephemeral and "not playing" in answer(result).content
    result = await table.bob.click(board, label="Play")
    assert result.ephemeral and "not your turn" in answer(result).content
    result = await table.eve.slash(thread, "crosshairs move", tokens="+a3NE")
    assert "not playing" in answer(result).content
    assert live.ply == before
    assert refusals(simcord_env) == ["you are not playing in this match — you can watch, though!"]


async def test_a_stale_cockpit_button_does_nothing(
    simcord_env: Any, simcord_bot: CrosshairsBot
) -> None:
    table = Table(simcord_env)
    thread = await table.start(clouds="none")
    cockpit = answer(await table.alice.click(board_message(thread), label="Play"))
    await table.alice.slash(thread, "crosshairs move", tokens="+a3NE")
    live = next(iter(simcord_bot.games.live_matches()))
    before = live.ply
    result = await table.alice.select(
        cockpit.message, ["+a4NE"], custom_id=menu_with(cockpit, "+a4NE")
    )
    assert "not your turn" in answer(result).content
    assert live.ply == before


async def test_a_restart_mid_game_and_the_old_button_still_works(
    simcord_env: Any, simcord_bot: CrosshairsBot, new_bot: Callable[[], CrosshairsBot]
) -> None:
    table = Table(simcord_env)
    thread = await table.start(clouds="none")
    await table.alice.slash(thread, "crosshairs move", tokens="+a3NE")
    old_board = board_message(thread)
    await simcord_env.restart_bot(new_bot())
    cockpit = answer(await table.bob.click(old_board, label="Play"))
    assert cockpit.content == "**Place a plane.**"
    await table.bob.select(cockpit.message, ["+k7SW"], custom_id=menu_with(cockpit, "+k7SW"))
    assert "bob (P2) brings a plane on at k7, facing south-west, height 0 (+k7SW)." in (
        board_message(thread).content
    )


async def test_move_autocompletes_legal_tokens(
    simcord_env: Any, simcord_bot: CrosshairsBot
) -> None:
    table = Table(simcord_env)
    thread = await table.start(clouds="none")
    choices = await table.alice.autocomplete(thread, "crosshairs move", "tokens", "+a1")
    assert {c["value"] for c in choices} == {f"+a1{d}" for d in ("E", "NE", "NW", "W", "SW", "SE")}
    assert await table.bob.autocomplete(thread, "crosshairs move", "tokens", "+") == []


@pytest.mark.parametrize("strength", ["easy", "expert"])
async def test_play_against_the_computer(
    simcord_env: Any, simcord_bot: CrosshairsBot, strength: str
) -> None:
    table = Table(simcord_env)
    assert simcord_bot.user is not None
    me = UserHandle(simcord_env, simcord_env.backend.get_user(simcord_bot.user.id))
    await table.alice.slash(
        table.channel, "crosshairs challenge", opponent=me, strength=strength, clouds="none"
    )
    (thread,) = table.channel.threads
    await table.alice.slash(thread, "crosshairs move", tokens="+a3NE")
    live = next(iter(simcord_bot.games.live_matches()))
    assert live.user_to_move() == table.alice.id  # the computer flew its two actions
    assert len(live.game.planes(1)) == 2
    assert f"Computer ({strength}) (P2) brings a plane on" in "\n".join(
        m.content for m in thread.history()
    )


async def test_only_the_challenged_player_may_accept(
    simcord_env: Any, simcord_bot: CrosshairsBot
) -> None:
    table = Table(simcord_env)
    invite = await table.challenge()
    result = await table.eve.click(invite, label="Accept")
    assert result.ephemeral and "not addressed to you" in answer(result).content
    assert table.channel.threads == []
    await table.bob.click(invite, label="Decline")
    assert "declined" in table.channel.last_message.content


async def test_syncing_commands_is_for_the_owner_only(
    simcord_env: Any, simcord_bot: CrosshairsBot
) -> None:
    table = Table(simcord_env)
    result = await table.eve.slash(table.channel, "crosshairs sync")
    assert result.ephemeral and "owner" in answer(result).content
    assert refusals(simcord_env) == ["only the bot's owner can sync its commands"]


async def test_a_lobby_seats_three_and_starts(simcord_env: Any, simcord_bot: CrosshairsBot) -> None:
    table = Table(simcord_env)
    result = await table.alice.slash(table.channel, "crosshairs lobby", mode="ffa3", clouds="none")
    lobby = result.response.message
    refused = await table.bob.click(lobby, label="Add computer")
    assert "only the host" in answer(refused).content
    await table.bob.click(lobby, label="Sit P2")
    await table.alice.click(lobby, label="Add computer")
    await table.alice.click(lobby, label="Start")
    (thread,) = table.channel.threads
    assert "Free-for-all, 3 players" in board_message(thread).content
    live = next(iter(simcord_bot.games.live_matches()))
    assert [e.name for e in live.seats] == ["alice", "bob", "Computer (medium)"]


async def test_rules_pages_have_diagrams(simcord_env: Any, simcord_bot: CrosshairsBot) -> None:
    table = Table(simcord_env)
    page = answer(await table.eve.slash(table.channel, "crosshairs rules", topic="shooting"))
    assert page.ephemeral and page.embeds[0].title == "Shooting"
    assert page.attachments and page.attachments[0].filename == "rules-shooting.png"


async def test_clouds_placed_in_turn_with_buttons(
    simcord_env: Any, simcord_bot: CrosshairsBot
) -> None:
    table = Table(simcord_env)
    thread = await table.start(clouds="manual")
    message = board_message(thread)
    assert "alice (P1) places cloud 1 of 16" in message.content
    cockpit = answer(await table.alice.click(message, label="Play"))
    await table.alice.click(cockpit.message, label="Row d")
    await table.alice.click(cockpit.message, label="d4")
    live = next(iter(simcord_bot.games.live_matches()))
    assert live.game.is_cloud(board.cell("d4"))
    assert "bob (P2) places cloud 2 of 16" in board_message(thread).content


async def test_spectators_list_games_repost_the_board_and_watch_a_replay(
    simcord_env: Any, simcord_bot: CrosshairsBot
) -> None:
    table = Table(simcord_env)
    thread = await table.start(clouds="none")
    await table.alice.slash(thread, "crosshairs move", tokens="+a3NE")
    await table.bob.slash(thread, "crosshairs move", tokens="+k7SW +k8SW")
    listing = answer(await table.eve.slash(table.channel, "crosshairs games"))
    assert (
        listing.ephemeral
        and "alice vs bob" in listing.content
        and f"<#{thread.id}>" in listing.content
    )

    before = board_message(thread).id
    await table.eve.slash(thread, "crosshairs board")
    reposted = board_message(thread)
    assert reposted.id != before and reposted.attachments
    live = next(iter(simcord_bot.games.live_matches()))
    assert live.record.board_message_id == reposted.id  # the new message is now the board

    replay = answer(await table.eve.slash(thread, "crosshairs replay"))
    (gif,) = replay.attachments
    data = await gif.read()
    assert data.startswith(b"GIF8")
    with Image.open(io.BytesIO(data)) as img:
        assert getattr(img, "n_frames", 1) >= 3  # the start, and a frame per player-turn
