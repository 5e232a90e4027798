"""A whole duel in a German server between two people whose Discord is set to German,
against the real bot process: everything they are shown — the challenge, the thread, its
name, every board and turn told in words, the alt text of every picture, the cockpit's
buttons and menus, the errors, the record, the words-only board, the ratings line and
the rematch — has no English word in it (i18n, docs/localisation.md).

What counts as an English word: :mod:`e2e.english`."""

from __future__ import annotations

import random
import re
from typing import Any

from e2e.conftest import Local
from e2e.english import english_in, shown
from localcord.autoplay import (
    FINAL_MARK,
    GameOver,
    board_message,
    new_board,
    only_board,
    to_move,
)
from localcord.client import People, answer, reply
from localcord.state import Channel, Message, User


class Reader:
    """What the two players have been shown so far, read after every step (a board is
    edited in place, so its every state must be read while it is shown)."""

    def __init__(self, local: Local, players: list[User]) -> None:
        self.local = local
        self.players = players
        self.read: set[str] = set()

    def look(self) -> None:
        world = self.local.server.world
        for channel in list(world.channels.values()):
            if channel.guild_id != self.local.channel.guild_id:
                continue
            self.read.add(channel.name)
            for message in world.channel_log.get(channel.id, []):
                if message.visible_to in (None, *(p.id for p in self.players)):
                    self.read.update(shown(message))

    def english(self) -> dict[str, set[str]]:
        return {text: found for text in self.read if (found := english_in(text))}


def test_the_english_words_are_found_and_notation_is_not() -> None:
    assert english_in("alice (P1) to fly, 2 still to fly") == {"to", "fly", "still"}
    assert english_in("Zug 3: anna (P1) fliegt (c3C< e6SS>P *d4), ↗ NE") == set()
    assert english_in("<@12>, du bist am Zug ⏰ <t:1700000000:R>") == set()


async def test_a_whole_duel_in_german_shows_no_english_word(german: Local) -> None:
    local, people, channel = german, german.people, german.channel
    anna, bernd = people.join("anna", "de"), people.join("bernd", "de")
    reader = Reader(local, [anna, bernd])

    # typed as a German Discord shows the command: its German names, resolved by the
    # local Discord to the bot's own as Discord does
    german_names: dict[str, Any] = {"gegner": bernd, "flieger": 3}
    challenge = await people.slash(anna, channel, "crosshairs fordern", **german_names)
    assert challenge.original is not None
    assert "fordert dich heraus" in challenge.original.content
    assert [b["label"] for b in challenge.original.buttons()] == ["Annehmen", "Ablehnen"]
    await people.click(bernd, challenge.original, "Annehmen")
    assert "Die Partie läuft" in challenge.original.content
    thread = await people.wait_thread(channel)
    assert " gegen " in thread.name
    board = board_message(people, thread)
    assert "du bist am Zug" in board.content
    labels = [b["label"] for b in board.buttons()]
    assert labels[:3] == ["Fliegen", "Schusslinien", "Remis anbieten"]

    # a press out of turn, the lines of fire, the record and the words-only board
    refused = await people.click(bernd, board, play_id(board))
    assert "nicht am Zug" in reply(refused)
    await people.click(anna, board, "Schusslinien")
    await people.click(bernd, board, "Protokoll")
    words = await people.slash(anna, thread, "crosshairs brett", worte=True)
    assert "in Worten" in reply(words)

    rng = random.Random(11)
    steps = 0
    while steps < 400:
        reader.look()
        try:
            player, offered = await to_move(people, thread, [anna, bernd])
        except GameOver:
            break
        before = board_message(people, thread).attachments[0].id
        await fly_one(people, thread, player, offered, rng)
        await new_board(people, thread, before)
        steps += 1
    final = await people.wait_for(thread, lambda m: "`/crosshairs ansehen partie:" in m.content)
    await only_board(people, thread)
    await people.wait_for(thread, lambda m: m.content.startswith("📊"))  # the ratings
    record = await people.slash(bernd, thread, "crosshairs record")
    assert reply(record).startswith("📜")
    replay = await people.slash(anna, thread, "crosshairs replay")
    assert "Wiederholung" in (answer(replay) or final).attachments[0].description
    # the rematch, asked and accepted
    await people.click(anna, board_message(people, thread), "Revanche")
    offer = await people.wait_for(thread, lambda m: m.content.startswith("🔁 **Revanche?**"))
    await people.click(bernd, offer, "Annehmen")
    await people.wait_for(thread, lambda m: "Die Revanche läuft" in m.content)
    reader.look()

    assert FINAL_MARK not in final.content  # the English hint is not shown
    assert any(w in final.content for w in ("gewinnt", "remis"))
    labels = [b["label"] for b in board_message(people, thread).buttons()]
    assert labels == ["Revanche", "Protokoll", "Analysieren"]
    assert len(reader.read) > 50  # it did read the game
    assert reader.english() == {}


def play_id(board: Message) -> str:
    return next(
        str(b["custom_id"]) for b in board.buttons() if b["custom_id"].startswith("xh:play:")
    )


async def fly_one(
    people: People, thread: Channel, player: User, offered: list[str], rng: random.Random
) -> None:
    """One plane action: through the cockpit's menu when it offers a whole action (the
    cockpit is read either way), else by ``/crosshairs move``."""
    board = board_message(people, thread)
    opened = await people.click(player, board, play_id(board))
    cockpit = opened.original
    assert cockpit is not None and cockpit.visible_to == player.id
    plays = [
        (menu["custom_id"], option["value"])
        for menu in cockpit.selects()
        for option in menu.get("options") or []
        if not str(option["value"]).startswith(">")
        # as a person flies: not nose to the edge, not into a crash
        and not re.search(
            r"Rand|abstürz|verloren", f"{option['label']} {option.get('description')}"
        )
    ]
    if plays and rng.random() < 0.9:
        menu, value = rng.choice(plays)
        done = await people.choose(player, cockpit, menu, value)
        assert not reply(done).startswith("⚠️"), reply(done)
        return
    shots = [t for t in offered if t.startswith("*")]
    token = rng.choice(shots or [t for t in offered if not t.endswith("X")] or offered)
    done = await people.slash(player, thread, "crosshairs move", tokens=token)
    assert reply(done).startswith("✅"), reply(done)
