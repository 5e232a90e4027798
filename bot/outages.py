"""Discord failing is a fault like a crash.

Every REST call of the bot (interaction callbacks aside: their three seconds allow no
second try) is given its own timeout and, when Discord answers 5xx, a 429 that
discord.py gave up on (a storm), or the network fails, is tried again with backoff for
up to :attr:`Outages.window` seconds (``DISCORD_RETRY_SECONDS``). A call that still
fails is noted (:meth:`Outages.note`): the same recovery a restart runs then picks up
what it left behind, without a restart (:func:`bot.ui.recovery.keep_up`), from what
storage says is unshown.

A post that timed out or whose connection dropped may have reached Discord, so it is not
sent again here (a board would be posted twice): the recovery reads the thread and keeps
such a board (:func:`bot.ui.surfaces.catch_up`). A post with a nonce is safe to send
again: Discord returns the first one.

A post that is only worth making while something holds (a clock's reminder, while its
turn runs) is made within :func:`only_while`: it is neither sent nor tried again once
that stopped holding, so that it never goes up below what made it stale (the final
board of the game whose clock ran out).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

import aiohttp
import discord

from bot.services.metrics import DISCORD_FAILED, DISCORD_RETRIES

log = logging.getLogger(__name__)

RETRY_SECONDS = 20.0  # how long a failing call is tried again, by default
REQUEST_SECONDS = 10.0  # one call's own timeout: a hanging Discord must not hold it for ever
FIRST_WAIT = 0.5  # seconds before the first retry; doubled after each
CALLBACKS = "/interactions/"

_WANTED: ContextVar[Callable[[], bool] | None] = ContextVar("wanted", default=None)


class Stale(Exception):
    """A post dropped unsent: what it was to say no longer holds (:func:`only_while`)."""


class Outages:
    """How long a failing call is tried again, and whether one still failed because
    Discord was unreachable since the recovery last looked (:attr:`failed`)."""

    def __init__(self, window: float = RETRY_SECONDS) -> None:
        self.window = window
        self.failed = False

    @property
    def look_every(self) -> float:
        """Seconds between the recovery's looks while Discord fails: half the window,
        so that a board is shown soon after Discord is back."""
        return max(1.0, self.window / 2)

    def note(self, route: Any, error: BaseException) -> None:
        DISCORD_FAILED.inc()
        self.failed = True
        log.warning("Discord unreachable: %s %s failed (%r)", route.method, route.path, error)


@contextmanager
def only_while(wanted: Callable[[], bool]) -> Iterator[None]:
    """Posts made within are sent, and tried again, only while ``wanted()`` holds;
    otherwise they raise :class:`Stale`."""
    token = _WANTED.set(wanted)
    try:
        yield
    finally:
        _WANTED.reset(token)


def unreachable(error: BaseException) -> bool:
    """Whether ``error`` says Discord could not be reached or could not cope (rather
    than that it refused the call)."""
    if isinstance(error, discord.DiscordServerError):
        return True
    if isinstance(error, discord.HTTPException):
        return error.status == 429
    return isinstance(error, aiohttp.ClientError | TimeoutError | OSError)


def _may_have_landed(route: Any, kwargs: dict[str, Any], error: BaseException) -> bool:
    """A post without a nonce that timed out or lost its connection on the way may have
    been applied (one that never connected was not; one with a nonce is returned
    instead of made again)."""
    if isinstance(error, aiohttp.ClientConnectorError):
        return False
    sent = isinstance(error, TimeoutError | aiohttp.ServerDisconnectedError | aiohttp.ClientOSError)
    return sent and route.method == "POST" and not _has_nonce(kwargs)


def _has_nonce(kwargs: dict[str, Any]) -> bool:
    body = kwargs.get("json")
    if isinstance(body, dict):
        return body.get("nonce") is not None
    fields = [f for f in kwargs.get("form") or () if f.get("name") == "payload_json"]
    return any('"nonce"' in str(f.get("value")) for f in fields)


def retried(
    request: Callable[..., Awaitable[Any]],
    outages: Outages,
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
) -> Callable[..., Awaitable[Any]]:
    """discord.py's ``HTTPClient.request``, tried again while Discord is unreachable."""

    async def request_again(route: Any, **kwargs: Any) -> Any:
        kwargs.setdefault("timeout", aiohttp.ClientTimeout(total=REQUEST_SECONDS))
        if str(route.path).startswith(CALLBACKS):
            return await request(route, **kwargs)
        wanted = _WANTED.get() if route.method == "POST" else None
        start, wait = time.monotonic(), FIRST_WAIT
        while True:
            if wanted is not None and not wanted():
                raise Stale(f"{route.method} {route.path}")
            try:
                return await request(route, **kwargs)
            except Exception as exc:
                if not unreachable(exc):
                    raise
                late = time.monotonic() - start + wait > outages.window
                if late or _may_have_landed(route, kwargs, exc):
                    outages.note(route, exc)
                    raise
                log.info("%s %s failed (%r); again in %.1f s", route.method, route.path, exc, wait)
            DISCORD_RETRIES.inc()
            await sleep(wait)
            wait *= 2
            for file in kwargs.get("files") or ():
                file.reset()  # discord.py rewinds a file only for its own second tries

    return request_again
