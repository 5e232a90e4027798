"""Every picture the bot sends carries alt text, and a board's alt text is the position.

One session drives every command and button that sends a picture — a duel's board,
cockpit preview and lines of fire, a move, ``/crosshairs board``, ``replay``, ``cards``,
the rules pages, a series (its cards in play, a claimed card, the scoreboard) and a
tournament (standings, bracket) — and every upload simcord's Discord received must have
a description. A six-player free-for-all checks that the board's description names every
plane with its cell and height, and ``/crosshairs board words:true`` that the words-only
board does too.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any

import discord
from support.flying import fly_first_turns, match_in, resign
from support.replies import answer
from support.uploads import Upload

from bot.discord_app import CrosshairsBot
from bot.services.live import LiveMatch
from rules import board, notation
from rules.game import Game

BOT = Path(__file__).parents[2] / "bot"


def test_no_upload_goes_around_the_file_helpers() -> None:
    """``discord.File`` is made in one module only, whose helpers demand a description."""
    makers = []
    for path in BOT.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call):
                f = node.func
                name = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", "")
                if name == "File":
                    makers.append(path.relative_to(BOT).as_posix())
    assert set(makers) == {"ui/files.py"}


def kinds(uploads: list[Upload]) -> set[str]:
    """The uploads' file names with match, series and card ids blurred: what was sent."""
    return {re.sub(r"\d+", "N", u.filename) for u in uploads}


async def test_every_picture_of_a_whole_session_has_a_description(
    simcord_env: Any, simcord_bot: CrosshairsBot, uploads: list[Upload]
) -> None:
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("dogfights")
    alice = guild.add_member(simcord_env.create_user("alice"))
    bob = guild.add_member(simcord_env.create_user("bob"))
    admins = guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    ada = guild.add_member(simcord_env.create_user("ada"), roles=[admins])

    # a duel: the board, the cockpit's preview, the lines of fire, a move, the board again
    invite = await alice.slash(channel, "crosshairs challenge", opponent=bob)
    await bob.click(invite.response.message, label="Accept")
    (thread,) = channel.threads
    board_msg = [m for m in thread.history() if m.content.startswith("**Crosshairs #")][-1]
    await alice.click(board_msg, label="Play")
    await alice.click(board_msg, label="Lines of fire")
    await alice.slash(thread, "crosshairs move", tokens="+a3NE")
    await alice.slash(thread, "crosshairs board")
    await alice.slash(thread, "crosshairs replay")
    await alice.slash(channel, "crosshairs cards")
    rules = answer(await alice.slash(channel, "crosshairs rules"))
    await alice.click(rules.message, label="Next ▶")

    # a one-game series: cards in play, the claim of Untouchable, the final scoreboard
    invited = await alice.slash(channel, "crosshairs-series start", opponent=bob, games=1)
    await bob.click((invited.followups or [invited.response])[0], label="Accept")
    series_thread = channel.threads[-1]
    await fly_first_turns(
        lambda u: alice if u == alice.id else bob,
        series_thread,
        await match_in(simcord_bot, series_thread),
    )
    await resign(bob, series_thread)
    await alice.slash(series_thread, "crosshairs-series status")

    # a two-player knock-out: standings and bracket
    created = answer(
        await ada.slash(channel, "crosshairs-tournament create", name="Cup", format="single")
    )
    for pilot in (alice, bob):
        await pilot.click(created, label="Join")
    await ada.click(created, label="Start")
    await alice.slash(channel, "crosshairs-tournament standings", tournament_id=1)
    await alice.slash(channel, "crosshairs-tournament bracket", tournament_id=1)

    assert kinds(uploads) >= {
        "board.png",
        "cockpit.png",
        "match-N.gif",
        "cards.png",
        "rules-overview.png",
        "untouchable.png",
        "series-N.png",
        "standings.png",
        "bracket.png",
    }, kinds(uploads)
    assert len({u.filename for u in uploads if u.filename.startswith("rules-")}) == 2
    bare = [u.filename for u in uploads if not (u.description or "").strip()]
    assert bare == []
    assert all(len(u.description or "") <= 1024 for u in uploads)


def peaceful_step(game: Game) -> str:
    """A legal step after which every plane is still flying."""
    planes = len(game.planes())
    for step in game.legal_steps():
        trial = game.copy(with_history=False)
        notation.play_tokens(trial, [step.token])
        if len(trial.planes()) >= planes:
            return step.token
    raise AssertionError("every step downs a plane")


def named_with_cell_and_height(text: str, live: LiveMatch) -> list[str]:
    """The planes on the board that ``text`` does not name with their cell and height."""
    return [
        f"{board.name(p.cell)} at height {p.height}"
        for p in live.game.planes()
        if not re.search(rf"\b{board.name(p.cell)},? (height |h){p.height}\b", text)
    ]


async def test_a_six_player_board_is_described_plane_by_plane(
    simcord_env: Any, simcord_bot: CrosshairsBot, uploads: list[Upload]
) -> None:
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("dogfights")
    pilots = [guild.add_member(simcord_env.create_user(n)) for n in "abcdef"]
    alice = pilots[0]
    lobby = (await alice.slash(channel, "crosshairs lobby", mode="ffa6", clouds="none")).response
    for seat, pilot in enumerate(pilots[1:], start=2):
        await pilot.click(lobby.message, label=f"Sit P{seat}")
    await alice.click(lobby.message, label="Start")
    (thread,) = channel.threads
    live = next(iter(simcord_bot.games.live_matches()))
    # the pilots fly peacefully (no step that downs a plane) until every seat has planes up
    while not all(live.game.planes(s) for s in range(6)):
        assert live.game.turn < 20, "six seats never had planes up together"
        mover = next(p for p in pilots if p.id == live.user_to_move())
        await mover.slash(thread, "crosshairs move", tokens=peaceful_step(live.game))
    mover = next(p for p in pilots if p.id == live.user_to_move())

    await mover.slash(thread, "crosshairs board")
    (described,) = [m for m in thread.history() if m.attachments][-1].attachments
    alt = described.description or ""
    assert alt and len(alt) <= 1024
    assert named_with_cell_and_height(alt, live) == []
    assert uploads[-1].description == alt

    words = await mover.slash(thread, "crosshairs board", words=True)
    # after the deferral the first piece becomes the original response
    said = [m for m in (words.response, *words.followups) if m is not None]
    pieces = [m.content for m in said]
    assert pieces and all(len(p) < 2000 for p in pieces)
    text = "\n".join(pieces)
    assert named_with_cell_and_height(text, live) == []
    assert all(m.ephemeral for m in said)
    assert f"Turn {live.game.turn}: {mover.name} (P{live.game.active + 1}) to fly" in text
