"""Simulated players who fly a match to its end, through the bot's own interface only.

Nothing is known about the game except what the bot says: who is to move is whoever
the ``/crosshairs move`` autocomplete offers steps to, and those offers are the legal
steps. A player flies either by that command or by the cockpit (Play, then a plane and
where it ends up from a menu, or step by step by buttons). Every plane action must bring
a new board image, and the tokens the bot acknowledged are returned so a test can
compare them with storage.
"""

from __future__ import annotations

import functools
import random
import re
from collections import Counter
from collections.abc import Awaitable, Callable, Collection, Iterable
from dataclasses import dataclass, field

from localcord.client import LocalcordError, People, reply
from localcord.records import Channel, Interaction, Message, Request, User
from localcord.state import World

FINAL_MARK = "/crosshairs replay match:"
GLYPH = re.compile(r"^<a?:\w+:\d+> ")
# The rate-limited message routes of a channel: posting, editing, deleting a message.
MESSAGE_ROUTE = re.compile(r"/channels/\d+/messages(/\d+)?$")
StepHook = Callable[[int], Awaitable[None]]


@dataclass
class Flight:
    """What happened: the acknowledged tokens in order, the bot's last word, and the
    cockpit presses each plane action took after Play."""

    tokens: list[str] = field(default_factory=list)
    interactions: int = 0
    final: Message | None = None
    presses: list[int] = field(default_factory=list)  # per plane action, after Play
    turn_presses: list[int] = field(default_factory=list)  # per player-turn, Play included
    fire_presses: int = 0  # shots and holding fire, in manual fire


@dataclass(frozen=True)
class Press:
    """One thing to press in a cockpit: a button, or an entry of a select menu."""

    custom_id: str
    label: str
    value: str | None = None  # the menu entry's value; None for a button
    description: str = ""

    @property
    def plays(self) -> list[str]:
        """The tokens this press plays (none when it only leads to another stage)."""
        if self.value is not None:
            return [] if self.value.startswith(">") else self.value.split()
        return [self.custom_id.rsplit(":g:", 1)[1]] if ":g:" in self.custom_id else []


def message_calls(requests: Iterable[Request]) -> Counter[str]:
    """How many messages the bot posted, edited and deleted in channels (interaction
    answers are not counted: they have routes of their own)."""
    names = {"POST": "posts", "PATCH": "edits", "DELETE": "deletes"}
    return Counter(
        names[r.method]
        for r in requests
        if r.method in names and MESSAGE_ROUTE.search(r.path) and r.status < 300
    )


async def new_board(people: People, thread: Channel, was: int) -> Message:
    """The board once its image is no longer attachment ``was``: the bot answers the
    player before it brings the board up to date, and every plane action must bring a
    new image."""
    return await people.wait_for(thread, functools.partial(_replaces, was=was))


async def only_board(people: People, thread: Channel) -> Message:
    """The board once no other message shows one: the bot turns the old board into the
    turn told in words just after it posts the new one."""

    def alone(message: Message) -> bool:
        shown = [m for m in people.world.history(thread) if _shows_board(m)]
        return shown == [message]

    return await people.wait_for(thread, alone)


def _replaces(message: Message, was: int) -> bool:
    return _shows_board(message) and message.attachments[0].id != was


def _shows_board(message: Message) -> bool:
    return any(a.filename == "board.png" for a in message.attachments)


def words(message: Message) -> str:
    """A message's text without the glyph it may start with (a custom emoji, such as
    a turn told in words led by its seat's insignia)."""
    return GLYPH.sub("", message.content, count=1)


def board_message(people: People, thread: Channel) -> Message:
    for message in reversed(people.world.history(thread)):
        if _shows_board(message):
            return message
    raise LocalcordError(f"no board in #{thread.name}")


def match_id(board: Message) -> int:
    """The match number from the board's heading, ``**Crosshairs #12** · …``."""
    head = board.content.split("**Crosshairs #", 1)[1]
    return int(head.split("**", 1)[0])


def match_thread(world: World, invite: Message) -> Channel:
    """The thread an accepted challenge or started lobby points to ("… is on: <#id>")."""
    found = re.search(r"<#(\d+)>", invite.content)
    if found is None or int(found[1]) not in world.channels:
        raise LocalcordError(f"the invitation names no thread: {invite.content}")
    return world.channels[int(found[1])]


async def to_move(people: People, thread: Channel, players: list[User]) -> tuple[User, list[str]]:
    """Who may fly now and the steps offered to them; raises at the end of the game."""
    for player in players:
        offered = await people.autocomplete(player, thread, "crosshairs move", "tokens", tokens="")
        if offered:
            return player, offered
    raise GameOver


class GameOver(Exception):
    pass


async def fly_match(
    people: People,
    thread: Channel,
    players: list[User],
    rng: random.Random,
    *,
    by_buttons: Collection[User] = (),
    max_steps: int = 800,
    before_step: StepHook | None = None,
    finish: bool = True,
) -> Flight:
    """Play until the game ends; players in ``by_buttons`` use the cockpit. With
    ``finish`` False, stop quietly after ``max_steps`` instead."""
    flight = Flight()
    while len(flight.tokens) < max_steps:
        if before_step is not None:
            await before_step(len(flight.tokens))
        try:
            player, offered = await to_move(people, thread, players)
        except GameOver:
            break
        flight.interactions += len(players)
        before = board_message(people, thread).attachments[0].id
        if player in by_buttons:
            await fly_turn_by_buttons(people, thread, player, rng, flight)
        else:
            token = rng.choice(_sensible(offered))
            done = await people.slash(player, thread, "crosshairs move", tokens=token)
            flight.interactions += 1
            if not reply(done).startswith("✅"):
                raise LocalcordError(f"{player.name} played {token}: {reply(done)}")
            flight.tokens.append(token)
        await new_board(people, thread, before)
    else:
        if not finish:
            return flight
        raise LocalcordError(f"the game did not end within {max_steps} steps")
    flight.final = await people.wait_for(thread, lambda m: FINAL_MARK in m.content)
    await only_board(people, thread)
    return flight


async def fly_turn_by_buttons(
    people: People, thread: Channel, player: User, rng: random.Random, flight: Flight
) -> None:
    """Open the cockpit from the board's Play button and press until one plane action
    (or a shot, or holding fire) is played."""
    opened = await people.click(player, board_message(people, thread), "Play")
    flight.interactions += 1
    cockpit = opened.original
    if cockpit is None or cockpit.visible_to != player.id or not cockpit.components:
        raise LocalcordError(f"no cockpit for {player.name}: {reply(opened)}")
    for presses in range(1, 9):
        chosen = choose_press(cockpit, rng)
        before = board_message(people, thread).attachments[0].id
        pressed = await press(people, player, cockpit, chosen)
        flight.interactions += 1
        if chosen.plays:
            text = reply(pressed)
            if text.startswith("⚠️"):
                raise LocalcordError(f"{player.name} pressed {chosen.label}: {text}")
            await new_board(people, thread, before)
            flight.tokens.extend(chosen.plays)
            flight.presses.append(presses)
            return
    raise LocalcordError("the cockpit never offered a step to play")


async def fly_turns_in_cockpit(
    people: People, thread: Channel, players: list[User], rng: random.Random, turns: int = 1000
) -> Flight:
    """Fly up to ``turns`` player-turns (or to the game's end), every one through the
    cockpit; ``flight.final`` is set when the game ended."""
    flight = Flight()
    for _ in range(turns):
        try:
            player, _ = await to_move(people, thread, players)
        except GameOver:
            flight.final = await people.wait_for(thread, lambda m: FINAL_MARK in m.content)
            break
        await fly_turn_in_cockpit(people, thread, player, rng, flight)
    await only_board(people, thread)
    return flight


async def fly_turn_in_cockpit(
    people: People, thread: Channel, player: User, rng: random.Random, flight: Flight
) -> None:
    """Fly a whole player-turn as a person does: Play once, then press in the same
    cockpit (it comes back after each plane action) until the turn is done."""
    opened = await people.click(player, board_message(people, thread), "Play")
    cockpit = opened.original
    if cockpit is None or not cockpit.components:
        raise LocalcordError(f"no cockpit for {player.name}: {reply(opened)}")
    total, since = 1, 0
    while cockpit.components:
        if total > 60:
            raise LocalcordError(f"a turn of {player.name} took over 60 presses")
        chosen = choose_press(cockpit, rng)
        before = board_message(people, thread).attachments[0].id
        pressed = await press(people, player, cockpit, chosen)
        total += 1
        since += 1
        if not chosen.plays:
            continue
        if reply(pressed).startswith("⚠️"):
            raise LocalcordError(f"{player.name} pressed {chosen.label}: {reply(pressed)}")
        await new_board(people, thread, before)
        flight.tokens.extend(chosen.plays)
        if chosen.plays[0][0] in "*-":
            flight.fire_presses += since
        else:
            flight.presses.append(since)
        since = 0
    flight.turn_presses.append(total)


async def press(people: People, player: User, cockpit: Message, chosen: Press) -> Interaction:
    if chosen.value is None:
        return await people.click(player, cockpit, chosen.custom_id)
    return await people.choose(player, cockpit, chosen.custom_id, chosen.value)


def offers(cockpit: Message) -> list[Press]:
    """Everything that flies in a cockpit: menu entries first, then enabled buttons
    (not sharing the preview with one's team, which leaves the cockpit as it was)."""
    found = [
        Press(m["custom_id"], o["label"], o["value"], o.get("description") or "")
        for m in cockpit.selects()
        if not m.get("disabled")
        for o in m.get("options") or []
    ]
    found += [
        Press(b["custom_id"], b.get("label", ""))
        for b in cockpit.buttons()
        if not b.get("disabled") and not b["custom_id"].startswith("xh:share:")
    ]
    return found


def choose_press(cockpit: Message, rng: random.Random) -> Press:
    """A press worth making, as a person flies: a whole plane action from a menu (a
    crash only when forced), else a shot or the button that leads on."""
    found = offers(cockpit)
    if not found:
        raise LocalcordError(f"nothing to press in the cockpit: {cockpit.content}")
    shots = [p for p in found if p.label.startswith("🎯")]
    if shots:
        return rng.choice(shots)
    menu = [p for p in found if p.value is not None]
    hunting = [p for p in menu if "shoot" in p.label or "fire at" in p.label]
    if hunting:
        return rng.choice(hunting)
    if menu:
        sensible = [
            p
            for p in menu
            if "lost" not in p.label.split(" · ", 1)[0] and "edge" not in p.description
        ]
        # keeping height keeps a plane flying: people dive only now and then
        level = [p for p in sensible if not p.description.startswith("−")]
        return rng.choice(level if level and rng.random() < 0.7 else sensible or menu)
    forward = [p for p in found if p.label not in ("Back", "Step by step")]
    plays = [p for p in forward if p.plays and not p.label.startswith("Crash")]
    return rng.choice(plays or forward or found)


def _sensible(offered: list[str]) -> list[str]:
    """Shots if there are any; never a deliberate crash while anything else is legal."""
    shots = [t for t in offered if t.startswith("*")]
    if shots:
        return shots
    return [t for t in offered if not t.endswith("X")] or offered
