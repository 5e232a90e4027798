"""The bot's pace under Discord's global limit: calls outside the interaction routes are
spaced 1/45 s apart in the order they came, and no more than 45 are in flight or answered
within the last second; interaction callbacks and webhooks never wait."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

from bot.pacing import PER_SECOND, Pace, SharedBudget, paced
from storage.db import Database
from storage.gateway import RestLeaseRepo


@dataclass
class Route:
    path: str


class FakeTime:
    def __init__(self) -> None:
        self.now = 100.0
        self.slept: list[float] = []

    def clock(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.slept.append(round(seconds, 6))


async def test_a_burst_is_spaced_and_interaction_calls_are_not() -> None:
    time = FakeTime()
    made: list[str] = []

    async def request(route: Any, **kwargs: Any) -> str:
        made.append(route.path)
        return "ok"

    send = paced(request, Pace(per_second=50.0, clock=time.clock, sleep=time.sleep))
    for _ in range(3):
        assert await send(Route("/channels/{channel_id}/messages"), json={}) == "ok"
    await send(Route("/interactions/{interaction_id}/{interaction_token}/callback"))
    await send(Route("/webhooks/{webhook_id}/{webhook_token}"))
    assert time.slept == [0.02, 0.04]  # the second and third wait their turn
    assert len(made) == 5
    time.now += 1.0  # after a quiet second nobody waits
    await send(Route("/channels/{channel_id}/messages"))
    assert time.slept == [0.02, 0.04]


async def test_the_pace_holds_under_real_concurrency() -> None:
    pace = Pace(per_second=200.0)
    loop = asyncio.get_running_loop()
    started: list[float] = []

    async def one() -> None:
        await pace.wait()
        started.append(loop.time())

    await asyncio.gather(*(one() for _ in range(10)))
    # ten calls at 200/s cannot all start within less than 9 intervals (45 ms)
    assert started[-1] - started[0] >= 0.04


class MovingTime(FakeTime):
    async def sleep(self, seconds: float) -> None:
        await super().sleep(seconds)
        self.now += seconds


async def test_calls_in_flight_or_answered_within_a_second_hold_the_next_back() -> None:
    # Discord counts a call when it arrives, which may be as late as its answer: two
    # calls a second means no third while two are in flight or answered within 1 s.
    time = MovingTime()
    pace = Pace(per_second=2.0, clock=time.clock, sleep=time.sleep)
    first, second = pace.call(), pace.call()
    await first.__aenter__()
    await second.__aenter__()
    assert time.slept == [0.5]  # spaced, as before
    third = asyncio.create_task(pace.call().__aenter__())
    for _ in range(5):
        await asyncio.sleep(0)
    assert not third.done()  # both still in flight, however long ago they were sent
    time.now = 103.0
    await first.__aexit__(None, None, None)
    await asyncio.wait_for(third, 5)
    # its own spacing (0.5 s), then held until the first answer's second had passed
    assert time.slept == [0.5, 0.5, 1.0] and time.now == 104.0
    await second.__aexit__(None, None, None)


def test_a_process_keeps_to_its_share_of_the_tokens_budget() -> None:
    pace = Pace()
    alone = pace.limit
    pace.share(4)
    assert pace.limit == int(PER_SECOND / 4)
    assert pace.interval == 4 / PER_SECOND
    pace.share(1)
    assert pace.limit == alone


async def test_processes_on_one_database_split_the_budget_and_take_it_back(db: Database) -> None:
    first = SharedBudget(Pace(), RestLeaseRepo(db))
    second = SharedBudget(Pace(), RestLeaseRepo(db))
    half = int(PER_SECOND / 2)

    async def until(check: Any) -> None:
        async with asyncio.timeout(10):
            while not check():
                await asyncio.sleep(0.05)

    await first.start()
    assert first.pace.limit == int(PER_SECOND)
    await second.start()  # it waits one renewal, so the first has seen it by then
    assert second.pace.limit == half
    await until(lambda: first.pace.limit == half)
    await second.close()
    await until(lambda: first.pace.limit == int(PER_SECOND))
    await first.close()
