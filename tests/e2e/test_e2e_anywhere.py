"""Playing anywhere with the user-installed app, through localcord: a DM between two
people, or a server, that the bot is not in, where localcord refuses every post and edit
the bot might try through its own channel routes (403 50001). The whole duel lives in the one
message that answered the challenge, brought up to date by every press on it; what
needs the bot to post on its own is refused with its reason (docs/anywhere.md)."""

from __future__ import annotations

import asyncio
import random
import re
import time
from collections.abc import Callable

import pytest

from bot.invite import PERMISSIONS
from e2e.conftest import Local, stored_steps
from e2e.english import english_in, shown
from localcord.autoplay import Press, offers, press
from localcord.client import People, answer, reply
from localcord.state import Channel, Message, User
from storage.db import Database
from storage.matches import MatchStatus

TURN = re.compile(r"<@(\d+)>, (?:your turn|du bist am Zug)")
MATCH_BUTTON = re.compile(r"xh:(draw|accept|decline|resign|record):")
# the final board's hint where /crosshairs replay and record are refused
FINAL_MARK = "**Record** below reads the whole game again."


def pick(board: Message, rng: random.Random) -> Press:
    """What a pilot presses on the board: a shot, a whole plane action from a menu (a
    crash only when forced), else the button that leads on — never the draw buttons,
    Resign or Record."""
    found = [p for p in offers(board) if not MATCH_BUTTON.match(p.custom_id)]
    shots = [p for p in found if p.label.startswith("🎯")]
    menu = [p for p in found if p.value is not None]
    safe = [p for p in menu if "lost" not in p.label.split(" · ", 1)[0]]
    safe = [p for p in safe if "edge" not in p.description]
    plays = [p for p in found if p.plays and not p.label.startswith("Crash")]
    onward = [p for p in found if p.label not in ("Back", "Step by step")]
    return rng.choice(shots or safe or menu or plays or onward or found)


async def play_out(
    people: People,
    board: Message,
    pilots: dict[int, User],
    rng: random.Random,
    end: str = FINAL_MARK,
    look: Callable[[], None] = lambda: None,
) -> tuple[int, list[str]]:
    """Fly the match on ``board`` until ``end`` shows on it, checking each press edits
    the board and calling ``look`` after each; returns the presses and their steps."""
    tokens, presses = list[str](), 0
    while end not in board.content:
        assert presses < 600, "the duel did not end"
        pilot = to_fly(board, pilots)
        chosen = pick(board, rng)
        image = board.attachments[0].id
        pressed = await press(people, pilot, board, chosen)
        presses += 1
        assert pressed.original is board, reply(pressed)  # answered by editing the board
        assert not reply(pressed).startswith("⚠️"), reply(pressed)
        assert board.attachments[0].id != image  # the board follows every press
        tokens += chosen.plays
        look()
    return presses, tokens


def labels(message: Message) -> list[str]:
    return [b.get("label", "") for b in message.buttons()]


def to_fly(board: Message, people: dict[int, User]) -> User:
    found = TURN.search(board.content)
    assert found is not None, board.content
    return people[int(found[1])]


@pytest.mark.parametrize("place", ["dm", "server without the bot"])
async def test_a_whole_duel_with_the_user_installed_app(local: Local, place: str) -> None:
    people, world = local.people, local.server.world
    alice, bob = people.join("alice"), people.join("bob")
    if place == "dm":
        dm = world.private_channel(alice, bob)
    else:
        dm = world.add_channel("general", world.add_guild("Elsewhere", with_bot=False))
    challenge = await people.slash(alice, dm, "crosshairs challenge", opponent=bob, planes=3)
    board = challenge.original
    assert board is not None and "challenges you" in board.content
    accepted = await people.click(bob, board, "Accept")
    assert accepted.original is board  # the challenge itself became the board
    assert "✈️ **Match #" in board.content and "Seats: alice (P1)" in board.content
    assert board.attachments and "your turn" in board.content and board.selects()

    pilots = {alice.id: alice, bob.id: bob}
    watcher = to_fly(board, pilots)
    other = bob if watcher is alice else alice
    stranger_press = pick(board, random.Random(0))
    version = board.version
    said = await press(people, other, board, stranger_press)
    assert "not your turn" in reply(said) and said.original is not board
    assert board.version == version  # the board is untouched by a press out of turn

    presses, tokens = await play_out(people, board, pilots, random.Random(29))
    edits = sum(r.method == "PATCH" and "/webhooks/" in r.path for r in world.requests)
    print(f"{presses} presses on the board, {len(tokens)} steps, {edits} edits of it")
    # the final board: no Analyse, whose analysis would need a thread (docs/anywhere.md)
    assert labels(board) == ["Rematch", "Record"]
    assert len(board.components) == 1  # on one row
    # the ratings line comes under the final board, there being nowhere else to post it:
    # the result first, then the ratings it moved, as in a thread
    lines = board.content.split("\n")
    (rated,) = [n for n, line in enumerate(lines) if line.startswith("📊 Ratings (Duels): alice")]
    assert re.search(r"\bwins\b|\bdraw\b", lines[rated - 1], re.I), lines
    assert lines[rated + 1] == "**Record** below reads the whole game again.", lines

    assert world.history(dm) == [board]  # one message, the whole match
    offer = answer(await people.click(alice, board, "Rematch"))
    assert offer is not None and "**Rematch?** alice asks" in offer.content
    if place == "dm":
        # bob presses Rematch too: a yes, and the new board follows his press
        new = answer(await people.click(bob, board, "Rematch"))
        assert new is not None and new is not offer and new.attachments
        assert TURN.search(new.content) and number(new) == number(board) + 1
        on = "✅ Accepted: the rematch is on, match #"  # through alice's press's token
        await people.wait_for(dm, lambda m: m is offer and on in m.content)
        assert not offer.components and world.history(dm) == [board, offer, new]
    else:
        await people.click(bob, offer, "Decline")
        await people.wait_for(
            dm, lambda m: m is offer and "❌ Rematch declined by bob." in m.content
        )
        assert not offer.components
        refused = await people.click(alice, board, "Rematch")
        assert "declined by bob" in reply(refused)
        assert world.history(dm) == [board, offer]
    in_dm = [r for r in world.requests if f"/channels/{dm.id}" in r.path]
    assert in_dm == [], in_dm  # no bot-only route was used there, not even refused
    assert not [r for r in world.requests if r.status == 403]
    await local.bot.stop()
    steps, status = await stored_steps(local, number(board))
    assert steps == tokens
    assert status is MatchStatus.FINISHED


@pytest.mark.parametrize("place", ["group DM", "the bot's own DM"])
async def test_the_computer_flies_within_the_press_and_a_resignation_shows(
    local: Local, place: str
) -> None:
    people, world = local.people, local.server.world
    alice, bob, cleo = people.join("alice"), people.join("bob"), people.join("cleo")
    if place == "group DM":
        group = world.private_channel(alice, bob, cleo)  # a group DM the bot is not in
    else:
        group = world.dm_channel(alice)  # the bot may post here, but nobody else sees it
    started = await people.slash(
        alice, group, "crosshairs challenge", opponent=world.bot, planes=3, strength="easy"
    )
    # the answer (the table) becomes the board once the match is made
    board = await people.wait_for(group, lambda m: bool(m.attachments))
    assert board is started.original

    rng, tokens = random.Random(5), list[str]()
    while not tokens or "so far" in board.content:  # until the computer has flown a turn
        assert len(tokens) < 40, "the computer never flew"
        assert to_fly(board, {alice.id: alice}) is alice  # never left waiting for it
        chosen = pick(board, rng)
        await press(people, alice, board, chosen)
        tokens += chosen.plays

    asked = await people.click(alice, board, "Resign")
    confirm = asked.original
    assert confirm is not None and confirm.ephemeral and board.components
    await people.click(alice, confirm, "Yes, resign")
    # shown on the board through the latest press on it, whose token still lives
    shown = await people.wait_for(group, lambda m: FINAL_MARK in m.content)
    assert shown is board and labels(board) == ["Rematch", "Record"]
    await people.wait_for(group, lambda m: "📊 Unrated game: the computer played" in m.content)
    assert world.history(group) == [board]

    # Rematch with the computer alone starts at once, in a follow-up of the press: the
    # final board stays, and the new board flies within the presses on it
    asked = await people.click(alice, board, "Rematch", twice=True)  # delivered twice: once
    rematch = answer(asked)
    assert rematch is not None and rematch is not board and rematch.attachments
    assert labels(board) == ["Rematch", "Record"]
    assert to_fly(rematch, {alice.id: alice}) is alice  # the computer flew first, if first
    # a resignation before any press on it is shown through the press that posted it
    asked = await people.click(alice, rematch, "Resign")
    assert asked.original is not None
    await people.click(alice, asked.original, "Yes, resign")
    await people.wait_for(group, lambda m: m is rematch and "your turn" not in m.content)
    assert "aborted" in rematch.content or FINAL_MARK in rematch.content, rematch.content
    assert world.history(group) == [board, rematch]
    assert not [r for r in world.requests if f"/channels/{group.id}" in r.path]
    match = int(re.search(r"Crosshairs #(\d+)", board.content)[1])  # type: ignore[index]
    await local.bot.stop()
    steps, status = await stored_steps(local, match)
    assert steps[: len(tokens)] == tokens and len(steps) > len(tokens)  # the computer's too
    assert status is MatchStatus.FINISHED


async def test_what_needs_the_bot_to_post_is_refused_with_its_reason(local: Local) -> None:
    people, world = local.people, local.server.world
    alice, bob = people.join("alice"), people.join("bob")
    dm = world.private_channel(alice, bob)
    clocked = await people.slash(alice, dm, "crosshairs challenge", opponent=bob, clock=300)
    assert "a turn clock must post on its own" in reply(clocked)
    assert await people.autocomplete(alice, dm, "crosshairs move", "tokens", tokens="c") == []
    moved = await people.slash(alice, dm, "crosshairs move", tokens="c3C")
    assert "board message's own menus and buttons" in reply(moved)
    took = await people.slash(alice, dm, "crosshairs takeback")
    assert "a takeback needs a message of its own" in reply(took)
    for asked in (clocked, moved, took):
        assert asked.original is not None and asked.original.ephemeral
    assert world.history(dm) == []  # nothing anyone else sees, no match started
    # a match elsewhere, between others, is none of this DM's business
    cleo, dev = people.join("cleo"), people.join("dev")
    elsewhere = await people.slash(cleo, local.channel, "crosshairs challenge", opponent=dev)
    assert elsewhere.original is not None
    await people.click(dev, elsewhere.original, "Accept")
    await people.wait_thread(local.channel)
    listed = await people.slash(alice, dm, "crosshairs games")
    assert reply(listed) == "You are in no live match."
    # the same command in a server that added the bot still takes a clock
    here = await people.slash(alice, local.channel, "crosshairs challenge", opponent=bob, clock=300)
    assert here.original is not None and "5 min a turn" in here.original.content


async def test_the_bot_prints_both_install_links(local: Local) -> None:
    app = local.server.world.bot.id
    said = local.bot.log()
    assert f"client_id={app}&integration_type=1&scope=applications.commands" in said
    server = f"integration_type=0&scope=bot+applications.commands&permissions={PERMISSIONS}"
    assert f"client_id={app}&{server}" in said


async def test_a_lobby_in_a_group_dm_starts_in_its_own_message(local: Local) -> None:
    people, world = local.people, local.server.world
    alice, bob, cleo = people.join("alice"), people.join("bob"), people.join("cleo")
    group = world.private_channel(alice, bob, cleo)
    opened = await people.slash(alice, group, "crosshairs lobby", mode="ffa3")
    lobby = opened.original
    assert lobby is not None
    for person in (bob, cleo):
        free = next(
            b for b in lobby.buttons() if b["label"].startswith("Sit") and not b.get("disabled")
        )
        await people.click(person, lobby, free["label"])
    await people.click(alice, lobby, "Start")
    assert lobby.attachments and TURN.search(lobby.content), lobby.content

    pilot = to_fly(lobby, {p.id: p for p in (alice, bob, cleo)})
    image = lobby.attachments[0].id
    await press(people, pilot, lobby, pick(lobby, random.Random(3)))
    assert lobby.attachments[0].id != image
    assert world.history(group) == [lobby]
    assert not [r for r in world.requests if f"/channels/{group.id}" in r.path]


async def duel_in_a_dm(local: Local) -> tuple[User, User, Channel, Message]:
    """alice and bob, their DM, and the board of the duel alice challenged bob to there,
    accepted."""
    people = local.people
    alice, bob = people.join("alice"), people.join("bob")
    dm = local.server.world.private_channel(alice, bob)
    challenge = await people.slash(alice, dm, "crosshairs challenge", opponent=bob, planes=3)
    board = challenge.original
    assert board is not None
    await people.click(bob, board, "Accept")
    return alice, bob, dm, board


async def test_a_draw_offered_and_answered_on_the_board(local: Local) -> None:
    people, world = local.people, local.server.world
    alice, bob, dm, board = await duel_in_a_dm(local)
    await people.click(alice, board, "Offer draw")
    assert f"alice (P1) offers a draw to <@{bob.id}>" in board.content
    refused = await people.click(alice, board, "Accept draw")  # not hers to accept
    assert reply(refused).startswith("⚠️") and "offers a draw" in board.content
    await people.click(bob, board, "Decline draw")
    assert "offers a draw" not in board.content and find(board, "Offer draw")
    await people.click(alice, board, "Offer draw")
    await people.click(bob, board, "Accept draw")
    # before every side has flown a turn, a draw calls the game off (the abort rule)
    assert not board.components and "your turn" not in board.content, board.content
    assert "abort" in board.content
    assert world.history(dm) == [board]
    assert not [r for r in world.requests if f"/channels/{dm.id}" in r.path]


def find(board: Message, label: str) -> bool:
    return any(b.get("label") == label for b in board.buttons())


async def test_after_a_restart_the_board_still_flies_and_shows_its_end(
    local: Local,
) -> None:
    people, world = local.people, local.server.world
    alice, bob, dm, board = await duel_in_a_dm(local)
    pilots, rng = {alice.id: alice, bob.id: bob}, random.Random(11)
    await press(people, to_fly(board, pilots), board, pick(board, rng))

    local.bot.kill()
    await local.bot.wait_killed()
    await local.bot.start()
    # the board's own menus still fly after the restart
    image = board.attachments[0].id
    pressed = await press(people, to_fly(board, pilots), board, pick(board, rng))
    assert pressed.original is board and board.attachments[0].id != image
    # a resignation shows through that press on the board, the new process's (with no
    # press since the restart, at the next press: test_an_end_shown_at_a_later_press…)
    asked = await people.click(alice, board, "Resign")
    assert asked.original is not None
    await people.click(alice, asked.original, "Yes, resign")
    await people.wait_for(dm, lambda m: m is board and "your turn" not in m.content)
    # the end is a result, or the game called off if not every side had flown a turn
    if "aborted" in board.content or "called off" in board.content:
        assert not board.components
    else:
        assert FINAL_MARK in board.content and labels(board) == ["Rematch", "Record"]
    assert not [r for r in world.requests if f"/channels/{dm.id}" in r.path]


async def matches_stored(local: Local) -> int:
    async with await Database.open(local.bot.database) as db, db.read() as conn:
        rows = list(await conn.fetchall("SELECT COUNT(*) FROM matches"))
    return int(rows[0][0])


def number(board: Message) -> int:
    found = re.search(r"Crosshairs #(\d+)", board.content)
    assert found is not None, board.content
    return int(found[1])


async def test_a_whole_duel_in_a_dm_then_its_rematch_in_the_offer(local: Local) -> None:
    people, world = local.people, local.server.world
    alice, bob, dm, board = await duel_in_a_dm(local)
    pilots = {alice.id: alice, bob.id: bob}
    await play_out(people, board, pilots, random.Random(7))
    # the end: the ratings line, and the final board's own Record instead of commands
    # that are refused here
    assert "📊 Ratings (Duels): alice" in board.content
    assert "/crosshairs" not in board.content
    record = await people.click(bob, board, "Record")
    assert record.original is not None and record.original.ephemeral
    assert f"📜 Match #{number(board)}: alice vs bob" in reply(record)

    asked = await people.click(bob, board, "Rematch")
    offer = answer(asked)
    assert offer is not None and offer is not board and not offer.ephemeral
    assert f"**Rematch?** bob asks <@{alice.id}>" in offer.content
    assert offer.allowed_mentions is not None
    assert offer.allowed_mentions.get("users") == [alice.id]  # pings only her
    again = await people.click(bob, board, "Rematch")
    assert "already asked" in reply(again)
    # Accept, delivered twice, turns the offer itself into the new match's board, once
    accepted = await people.click(alice, offer, "Accept", twice=True)
    assert accepted.original is offer
    assert offer.attachments and TURN.search(offer.content), offer.content
    # headed, as a thread is, by what it is and who sits where
    assert f"🔁 **Match #{number(offer)}**, a rematch of #{number(board)}" in offer.content
    assert "Seats: bob (P1) from the south edge" in offer.content
    assert number(offer) != number(board) and "📊" in board.content  # the old end stays
    image = offer.attachments[0].id
    pressed = await press(people, to_fly(offer, pilots), offer, pick(offer, random.Random(1)))
    assert pressed.original is offer and offer.attachments[0].id != image
    late = await people.click(alice, board, "Rematch")
    assert f"already on: match #{number(offer)}" in reply(late)
    assert world.history(dm) == [board, offer]
    assert not [r for r in world.requests if f"/channels/{dm.id}" in r.path]
    await local.bot.stop()
    assert await matches_stored(local) == 2


async def logged(local: Local, text: str, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while text not in local.bot.log(100_000):
        assert time.monotonic() < deadline, f"the bot never logged {text!r}"
        await asyncio.sleep(0.05)


async def test_an_end_shown_at_a_later_press_carries_the_ratings_line(local: Local) -> None:
    people, world = local.people, local.server.world
    alice, bob = people.join("alice"), people.join("bob")
    dm = world.private_channel(alice, bob)
    for person in (alice, bob):  # "your turn" DMs, sent by the bot to each of them
        await people.slash(person, dm, "crosshairs notify", when="turn")
    challenge = await people.slash(alice, dm, "crosshairs challenge", opponent=bob, planes=3)
    board = challenge.original
    assert board is not None
    await people.click(bob, board, "Accept")
    pilots, rng = {alice.id: alice, bob.id: bob}, random.Random(13)
    first = to_fly(board, pilots)
    for turn in (0, 1):  # each side flies a whole turn: a resignation then has a result
        while (to_fly(board, pilots) is first) == (turn == 0):
            await press(people, to_fly(board, pilots), board, pick(board, rng))
    # the one told it is their turn is sent a link to the board message itself
    second = bob if first is alice else alice
    told = await people.wait_for(world.dm_channel(second), lambda m: "Your turn" in m.content)
    assert f"https://discord.com/channels/@me/{dm.id}/{board.id}" in told.content

    local.bot.kill()  # no press on the board whose token the new process could use
    await local.bot.wait_killed()
    await local.bot.start()
    asked = await people.click(alice, board, "Resign")
    assert asked.original is not None
    await people.click(alice, asked.original, "Yes, resign")
    await logged(local, "no press to show the board through; the next one will")
    assert "your turn" in board.content  # nothing could show the end yet
    caught_up = await press(people, bob, board, pick(board, rng))
    assert caught_up.original is board and FINAL_MARK in board.content, board.content
    assert "📊 Ratings (Duels): alice" in board.content
    assert labels(board) == ["Rematch", "Record"]


async def test_a_duel_and_its_rematch_in_a_german_dm_show_no_english_word(local: Local) -> None:
    """A DM has no server's language: what is shown there speaks the language of whoever
    acted, here German for both (docs/localisation.md)."""
    people, world = local.people, local.server.world
    anna, bernd = people.join("anna", "de"), people.join("bernd", "de")
    dm = world.private_channel(anna, bernd)
    read: set[str] = set()

    def look() -> None:
        for message in world.channel_log.get(dm.id, []):
            if message.visible_to in (None, anna.id, bernd.id):
                read.update(shown(message))

    challenge = await people.slash(anna, dm, "crosshairs challenge", opponent=bernd, planes=3)
    board = challenge.original
    assert board is not None and "fordert dich heraus" in board.content
    look()
    await people.click(bernd, board, "Annehmen")
    pilots = {anna.id: anna, bernd.id: bernd}
    await play_out(people, board, pilots, random.Random(3), "**Protokoll**", look)
    assert "📊" in board.content and labels(board) == ["Revanche", "Protokoll"]
    await people.click(anna, board, "Protokoll")
    offer = answer(await people.click(bernd, board, "Revanche"))
    assert offer is not None and offer.content.startswith("🔁 **Revanche?**")
    look()
    await people.click(anna, offer, "Annehmen")
    assert TURN.search(offer.content) and "du bist am Zug" in offer.content
    look()
    assert len(read) > 30  # it did read the game
    assert {text: found for text in read if (found := english_in(text))} == {}
