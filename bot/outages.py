"""Discord failing is a fault like a crash.

Every REST call of the bot (interaction callbacks aside: their three seconds allow no
second try) is given its own timeout and, when Discord answers 5xx, a 429 that
discord.py gave up on (a storm), or the network fails, is tried again with backoff for
up to :data:`RETRY_SECONDS`. A call that still fails is noted (:class:`Outages`): the
same recovery a restart runs then picks up what it left behind, without a restart
(:func:`bot.ui.recovery.keep_up`).

A post that timed out or whose connection dropped may have reached Discord, so it is not
sent again here (a board would be posted twice): the recovery reads the thread and keeps
such a board (``recovery.catch_up``). A post with a nonce is safe to send again.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

import aiohttp
import discord

log = logging.getLogger(__name__)

REQUEST_SECONDS = 10.0  # one call's own timeout: a hanging Discord must not hold it for ever
RETRY_SECONDS = 20.0  # how long a failing call is tried again
FIRST_WAIT = 0.5  # seconds before the first retry; doubled after each
CALLBACKS = "/interactions/"


class Outages:
    """Calls that failed for good because Discord was unreachable: :attr:`failed` is set
    at each, for the recovery to wake up and look."""

    def __init__(self) -> None:
        self.failed = asyncio.Event()
        self.count = 0

    def note(self, route: Any, error: BaseException) -> None:
        self.count += 1
        self.failed.set()
        log.warning("Discord unreachable: %s %s failed (%s)", route.method, route.path, error)


def unreachable(error: BaseException) -> bool:
    """Whether ``error`` says Discord could not be reached or could not cope (rather
    than that it refused the call)."""
    if isinstance(error, discord.DiscordServerError):
        return True
    if isinstance(error, discord.HTTPException):
        return error.status == 429
    return isinstance(error, aiohttp.ClientError | TimeoutError | OSError)


def _may_have_landed(route: Any, kwargs: dict[str, Any], error: BaseException) -> bool:
    """A post without a nonce that timed out or lost its connection may have been
    applied (one with a nonce is returned instead of made again)."""
    sent = isinstance(error, TimeoutError | aiohttp.ServerDisconnectedError)
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
        start, wait = time.monotonic(), FIRST_WAIT
        while True:
            try:
                return await request(route, **kwargs)
            except Exception as exc:
                if not unreachable(exc):
                    raise
                late = time.monotonic() - start + wait > RETRY_SECONDS
                if late or _may_have_landed(route, kwargs, exc):
                    outages.note(route, exc)
                    raise
                log.info("%s %s failed (%s); again in %.1f s", route.method, route.path, exc, wait)
            await sleep(wait)
            wait *= 2
            for file in kwargs.get("files") or ():
                file.reset()  # discord.py rewinds only on its own tries

    return request_again
