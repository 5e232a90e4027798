"""Learning in German and Spanish, against the real bot process and the local Discord:
a lesson passed and one failed (its explanation, its hint, its retry), a puzzle solved
and one missed (the verdict, the themes, the puzzle rating), every rules page with its
diagram, and — in a German server — the analysis of a finished match posted in its
thread. Nothing the learner is shown (messages, embeds, buttons, menus, alt text) has
an English word in it (i18n, docs/localisation.md; what counts as one:
:mod:`e2e.english`)."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from e2e.conftest import Local, running
from e2e.english import english_in, shown
from localcord.autoplay import board_message, to_move
from localcord.client import People, answer, reply
from localcord.state import Channel, Message, User
from rules.training import shipped

SOLVED = "2-0051"  # one plane can only crash, and its crash wins on trophies: d2X
MISSED = "4-0033"  # the same idea (f1X); flying the other plane first misses it


class Reader:
    """What ``person`` has been shown so far in the server (their own answers, and with
    ``public`` what everyone sees), read after every step: an exercise is edited in
    place, so its every state must be read while it is shown."""

    def __init__(self, local: Local, person: User, lang: str, public: bool) -> None:
        self.local, self.person, self.lang = local, person, lang
        self.seen = (person.id, None) if public else (person.id,)
        self.read: set[str] = set()

    def look(self) -> None:
        world = self.local.server.world
        for channel in list(world.channels.values()):
            for message in world.channel_log.get(channel.id, []):
                if message.visible_to in self.seen and message.author.id == world.bot.id:
                    self.read.update(t for t in shown(message) if t)

    def english(self) -> dict[str, set[str]]:
        return {text: found for text in self.read if (found := english_in(text, self.lang))}


@pytest.fixture
async def spanish(tmp_path: Path) -> AsyncIterator[Local]:
    async for local in running(tmp_path, language="es-ES"):
        yield local


def menu_with(message: Message, value: str) -> str:
    for menu in message.selects():
        if any(o.get("value") == value for o in menu.get("options") or []):
            return str(menu["custom_id"])
    raise AssertionError(f"no menu offers {value!r}: {message.selects()}")


def plane(message: Message, cell: str) -> str:
    """The cockpit's button for the plane at ``cell``."""
    for button in message.buttons():
        if str(button.get("label") or "").startswith(f"✈ {cell} "):
            return str(button["custom_id"])
    raise AssertionError(f"no plane at {cell} on the cockpit: {message.buttons()}")


def finished(message: Message) -> bool:
    return message.content.startswith(("✅", "❌"))


async def fly(people: People, person: User, message: Message, cell: str, action: str) -> None:
    """Pick the plane at ``cell`` on the exercise's cockpit, then its whole ``action``."""
    await people.click(person, message, plane(message, cell))
    await people.choose(person, message, menu_with(message, action), action)


async def fly_on(people: People, person: User, message: Message, reader: Reader) -> None:
    """Fly the rest of the turn with the first plane and entry offered, until judged."""
    for _step in range(8):
        reader.look()
        if finished(message):
            return
        plays = [
            (str(m["custom_id"]), str(o["value"]))
            for m in message.selects()
            for o in m.get("options") or []
            if not str(o["value"]).startswith(">")
        ]
        if plays:
            await people.choose(person, message, *plays[0])
            continue
        buttons = [b for b in message.buttons() if str(b.get("label") or "").startswith("✈")]
        await people.click(person, message, str(buttons[0]["custom_id"]))
    raise AssertionError(f"the try was never judged: {message.content}")


async def learn(people: People, person: User, channel: Channel, reader: Reader) -> None:
    """The course, lesson 1 passed, lesson 3 failed, hinted at, retried and passed."""
    course = answer(await people.slash(person, channel, "crosshairs learn"))
    assert course is not None and course.visible_to == person.id
    reader.look()
    first = shipped.course()[0]
    lesson_button = next(b for b in course.buttons() if b["custom_id"].endswith(first.id))
    await people.click(person, course, str(lesson_button["custom_id"]))
    reader.look()
    await people.choose(person, course, menu_with(course, first.answer), first.answer)
    assert course.content.startswith("✅")
    reader.look()

    climb = shipped.lesson("climb")
    opened = answer(await people.slash(person, channel, "crosshairs learn", lesson="climb"))
    assert opened is not None
    reader.look()
    await fly(people, person, opened, climb.mistake[:2], climb.mistake)
    assert opened.content.startswith("❌") and climb.mistake in opened.content
    reader.look()
    again, hint = (b["custom_id"] for b in opened.buttons())
    assert again == "xh:tr:again:climb" and hint == "xh:tr:hint:climb"
    hinted = await people.click(person, opened, hint)
    assert reply(hinted).startswith("💡")
    await people.click(person, opened, again)
    reader.look()
    await fly(people, person, opened, climb.answer[:2], climb.answer)
    assert opened.content.startswith("✅")
    reader.look()


async def solve(people: People, person: User, channel: Channel, reader: Reader) -> None:
    """A puzzle solved, then one missed and its solution shown; each first try is rated."""
    solved = answer(await people.slash(person, channel, "crosshairs puzzle", number=SOLVED))
    assert solved is not None and "1500" in solved.content  # the first puzzle's rating
    reader.look()
    await fly(people, person, solved, "d2", "d2X")
    assert solved.content.startswith("✅") and "→" in solved.content
    reader.look()
    missed = answer(await people.slash(person, channel, "crosshairs puzzle", number=MISSED))
    assert missed is not None
    reader.look()
    await people.click(person, missed, plane(missed, "g2"))
    await fly_on(people, person, missed, reader)
    assert missed.content.startswith("❌") and "f1X" not in missed.content  # a retry first
    reader.look()
    solution = next(b for b in missed.buttons() if b["custom_id"].startswith("xh:tr:solution:"))
    await people.click(person, missed, str(solution["custom_id"]))
    assert missed.content.startswith("💡") and "f1X" in missed.content
    reader.look()


async def read_the_rules(people: People, person: User, channel: Channel, reader: Reader) -> int:
    """Every rules page, paged through with its Next button; how many were read."""
    page = answer(await people.slash(person, channel, "crosshairs rules"))
    assert page is not None and page.embeds and page.attachments
    titles = []
    while True:
        reader.look()
        titles.append(page.embeds[0]["title"])
        forward = page.buttons()[-1]
        if forward.get("disabled"):
            return len(set(titles))
        await people.click(person, page, str(forward["custom_id"]))


async def test_a_german_learner_sees_no_english_word(german: Local) -> None:
    people, channel = german.people, german.channel
    anna, bernd = people.join("anna", "de"), people.join("bernd", "de")
    reader = Reader(german, anna, "de", public=True)

    # a lesson is found by its German title as it is typed
    found = await people.autocomplete(anna, channel, "crosshairs learn", "lesson", lesson="steig")
    assert found == ["climb"]
    await learn(people, anna, channel, reader)
    assert any("Lektion 2: Der langsame Anfang" in t for t in reader.read)
    await solve(people, anna, channel, reader)
    assert any("Gelöst!" in t for t in reader.read)
    assert any("Nicht der beste Zug" in t for t in reader.read)
    assert await read_the_rules(people, anna, channel, reader) == 8

    # a short duel, resigned once both sides have flown, then analysed in its thread
    challenge = await people.slash(anna, channel, "crosshairs challenge", opponent=bernd, planes=3)
    assert challenge.original is not None
    await people.click(bernd, challenge.original, "Annehmen")
    thread = await people.wait_thread(channel)
    rng = random.Random(3)
    for _turn in range(4):
        player, offered = await to_move(people, thread, [anna, bernd])
        token = rng.choice([t for t in offered if not t.endswith("X")] or offered)
        assert reply(await people.slash(player, thread, "crosshairs move", tokens=token))
    board = board_message(people, thread)
    resign = next(b for b in board.buttons() if b["custom_id"].startswith("xh:resign:"))
    asked = await people.click(anna, board, str(resign["custom_id"]))
    assert asked.original is not None
    sure = next(b for b in asked.original.buttons() if b["custom_id"].startswith("xh:sure:"))
    await people.click(anna, asked.original, str(sure["custom_id"]))
    await people.wait_for(thread, lambda m: m.content.startswith("📊"))  # the game is over
    analysed = await people.slash(anna, thread, "crosshairs analyse")
    post = await people.wait_for(
        thread, lambda m: m.content.startswith("🔎 Analyse der Partie"), timeout=120
    )
    assert post.attachments and "Bewertung" in (post.attachments[0].description or "")
    await people.wait_for(thread, lambda m: m is analysed.original and "<#" in m.content)
    reader.look()

    assert len(reader.read) > 40  # it did read the lessons, puzzles, pages and analysis
    assert reader.english() == {}


async def test_a_spanish_learner_sees_no_english_word(spanish: Local) -> None:
    people, channel = spanish.people, spanish.channel
    lucia = people.join("lucia", "es-ES")
    reader = Reader(spanish, lucia, "es", public=False)

    await learn(people, lucia, channel, reader)
    assert any("Lección 2: El arranque gradual" in t for t in reader.read)
    await solve(people, lucia, channel, reader)
    assert any("¡Resuelto!" in t for t in reader.read)
    assert await read_the_rules(people, lucia, channel, reader) == 8

    assert len(reader.read) > 30
    assert reader.english() == {}
