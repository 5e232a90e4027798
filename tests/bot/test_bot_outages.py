"""Discord failing, call by call (bot/outages.py): a call Discord could not take is tried
again with backoff, and one still failing after the window is noted for the recovery;
a refusal is not tried again, nor a post that may have landed, nor an interaction's
answer; a post made only while something holds is dropped once it does not."""

from __future__ import annotations

from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot.outages import Outages, Stale, only_while, retried


@dataclass
class Route:
    method: str
    path: str


MESSAGES = Route("POST", "/channels/{channel_id}/messages")
EDIT = Route("PATCH", "/channels/{channel_id}/messages/{message_id}")
CALLBACK = Route("POST", "/interactions/{interaction_id}/{interaction_token}/callback")


def answer(status: int) -> Any:
    return SimpleNamespace(status=status, reason="localcord")


@dataclass
class Discord:
    """Answers each call with the next of ``answers`` (an error to raise, or a value)."""

    answers: list[object]
    made: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    slept: list[float] = field(default_factory=list)

    async def request(self, route: Route, **kwargs: Any) -> object:
        self.made.append((route.method, kwargs))
        found = self.answers.pop(0) if len(self.answers) > 1 else self.answers[0]
        if isinstance(found, BaseException):
            raise found
        return found

    async def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)


def down(status: int = 503) -> discord.DiscordServerError:
    return discord.DiscordServerError(answer(status), "Service Unavailable")


async def test_a_call_discord_could_not_take_is_tried_again_with_backoff() -> None:
    discord_ = Discord([down(), discord.HTTPException(answer(429), "storm"), "posted"])
    outages = Outages(window=20)
    send = retried(discord_.request, outages, discord_.sleep)
    assert await send(MESSAGES, json={}) == "posted"
    assert discord_.slept == [0.5, 1.0] and not outages.failed


async def test_a_call_still_failing_after_the_window_is_left_to_the_recovery() -> None:
    discord_ = Discord([down()])
    outages = Outages(window=2)
    with pytest.raises(discord.DiscordServerError):
        await retried(discord_.request, outages, discord_.sleep)(EDIT, json={})
    assert discord_.slept == [0.5, 1.0]  # the next wait, 2 s, would end past the window
    assert len(discord_.made) == 3 and outages.failed


async def test_a_refusal_and_an_interaction_answer_are_not_tried_again() -> None:
    for route, error in [
        (MESSAGES, discord.Forbidden(answer(403), "Missing Access")),
        (CALLBACK, down()),  # three seconds allow no second try
    ]:
        discord_ = Discord([error])
        outages = Outages()
        with pytest.raises(type(error)):
            await retried(discord_.request, outages, discord_.sleep)(route, json={})
        assert len(discord_.made) == 1 and not outages.failed


async def test_a_post_that_timed_out_is_not_made_twice_unless_it_has_a_nonce() -> None:
    discord_ = Discord([TimeoutError()])
    outages = Outages()
    with pytest.raises(TimeoutError):
        await retried(discord_.request, outages, discord_.sleep)(MESSAGES, json={"content": "x"})
    assert len(discord_.made) == 1 and outages.failed  # the recovery reads the thread
    for route, body in [(MESSAGES, {"content": "x", "nonce": "n"}), (EDIT, {"content": "x"})]:
        discord_ = Discord([TimeoutError(), "done"])
        assert (
            await retried(discord_.request, Outages(), discord_.sleep)(route, json=body) == "done"
        )
        assert len(discord_.made) == 2


async def test_an_upload_tried_again_is_sent_from_its_start() -> None:
    rewound: list[str] = []
    board = SimpleNamespace(reset=lambda: rewound.append("board.png"))
    discord_ = Discord([down(), "posted"])
    send = retried(discord_.request, Outages(), discord_.sleep)
    assert await send(MESSAGES, files=[board]) == "posted"
    assert rewound == ["board.png"]


async def test_a_post_made_only_while_its_turn_runs_is_dropped_once_it_ran_out() -> None:
    turn_running = [True]

    async def request(route: Route, **kwargs: Any) -> object:
        turn_running[0] = False  # the clock runs out while Discord fails the reminder
        raise down()

    outages = Outages()
    send = retried(request, outages, Discord([None]).sleep)
    with only_while(lambda: turn_running[0]), pytest.raises(Stale):
        await send(MESSAGES, json={"content": "⏰"})
    assert not outages.failed  # nothing is left behind: it is not shown later
    with only_while(lambda: False), pytest.raises(Stale):
        await send(MESSAGES, json={"content": "⏰"})  # not even sent
    discord_ = Discord(["edited"])
    with only_while(lambda: False):  # an edit or a removal goes on: only a post is stale
        assert await retried(discord_.request, outages, discord_.sleep)(EDIT) == "edited"
