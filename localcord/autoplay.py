"""Simulated players who fly a match to its end, through the bot's own interface only.

Nothing is known about the game except what the bot says: who is to move is whoever
the ``/crosshairs move`` autocomplete offers steps to, and those offers are the legal
steps. A player flies either by that command or by the cockpit's buttons (Play, then a
plane, a manoeuvre and a turn). Every step must bring a new board image, and the
tokens the bot acknowledged are returned so a test can compare them with storage.
"""

from __future__ import annotations

import random
import re
from collections.abc import Awaitable, Callable, Collection
from dataclasses import dataclass, field

from localcord.client import LocalcordError, People, reply
from localcord.state import Channel, Json, Message, User, World

FINAL_MARK = "/crosshairs replay match:"
StepHook = Callable[[int], Awaitable[None]]


@dataclass
class Flight:
    """What happened: the acknowledged tokens in order and the bot's last word."""

    tokens: list[str] = field(default_factory=list)
    interactions: int = 0
    final: Message | None = None


def board_message(people: People, thread: Channel) -> Message:
    for message in reversed(people.world.history(thread)):
        if any(a.filename == "board.png" for a in message.attachments):
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
        if board_message(people, thread).attachments[0].id == before:
            raise LocalcordError(f"the board image did not change after step {len(flight.tokens)}")
    else:
        if not finish:
            return flight
        raise LocalcordError(f"the game did not end within {max_steps} steps")
    flight.final = await people.wait_for(thread, lambda m: FINAL_MARK in m.content)
    return flight


async def fly_turn_by_buttons(
    people: People, thread: Channel, player: User, rng: random.Random, flight: Flight
) -> None:
    """Open the cockpit from the board's Play button and press until one step is
    played: a plane, its manoeuvre and turn, a placement, a shot or hold fire."""
    opened = await people.click(player, board_message(people, thread), "Play")
    flight.interactions += 1
    cockpit = opened.original
    if cockpit is None or cockpit.visible_to != player.id or not cockpit.buttons():
        raise LocalcordError(f"no cockpit for {player.name}: {reply(opened)}")
    for _ in range(8):
        button = choose_button(cockpit, rng)
        pressed = await people.click(player, cockpit, button["custom_id"])
        flight.interactions += 1
        if ":g:" in button["custom_id"]:
            text = reply(pressed)
            if text.startswith("⚠️"):
                raise LocalcordError(f"{player.name} pressed {button['label']}: {text}")
            flight.tokens.append(button["custom_id"].rsplit(":g:", 1)[1])
            return
    raise LocalcordError("the cockpit never offered a step to play")


def choose_button(cockpit: Message, rng: random.Random) -> Json:
    """A cockpit button worth pressing: forward, and a crash only when forced."""
    live = [b for b in cockpit.buttons() if not b.get("disabled")]
    enabled = [b for b in live if b.get("label") not in ("Back", "Crash")]
    enabled = enabled or [b for b in live if b.get("label") != "Back"] or live
    if not enabled:
        raise LocalcordError(f"nothing to press in the cockpit: {cockpit.content}")
    plays = [b for b in enabled if ":g:" in b["custom_id"]]
    return rng.choice(plays if plays and rng.random() < 0.5 else enabled)


def _sensible(offered: list[str]) -> list[str]:
    """Shots if there are any; never a deliberate crash while anything else is legal."""
    shots = [t for t in offered if t.startswith("*")]
    if shots:
        return shots
    return [t for t in offered if not t.endswith("X")] or offered
