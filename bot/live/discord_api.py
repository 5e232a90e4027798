"""What the live board asks of Discord's REST API (its OAuth2 and Activity endpoints),
never trusting what the page says: the person comes from their access token, the
instance (where the Activity runs, and who is in it) from the bot's own token."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

import aiohttp

from bot.services.refusal import Refusal
from i18n import _

DISCORD_API = "https://discord.com/api/v10"
TIMEOUT = aiohttp.ClientTimeout(total=15)


@dataclass(frozen=True)
class Person:
    """Whom an access token belongs to."""

    id: int
    name: str
    locale: str | None


@dataclass(frozen=True)
class Instance:
    """An Activity instance as Discord knows it: where it runs and who is in it."""

    id: str
    guild_id: int | None
    channel_id: int
    users: frozenset[int]


class Discord(Protocol):
    async def exchange(self, code: str) -> str:
        """The access token for an OAuth2 code the page was given."""
        ...

    async def person(self, access_token: str) -> Person: ...

    async def instance(self, instance_id: str) -> Instance: ...

    async def close(self) -> None: ...


class DiscordApi:
    """Discord's REST API at ``base`` (localcord's in the playground and the tests)."""

    def __init__(
        self, base: str, app_id: Callable[[], int | None], secret: str, bot_token: str
    ) -> None:
        self.base = base.rstrip("/")
        self.app_id = app_id
        self.secret = secret
        self.bot_token = bot_token
        self._session: aiohttp.ClientSession | None = None

    def _http(self) -> aiohttp.ClientSession:
        if self._session is None or self._session.closed:
            self._session = aiohttp.ClientSession(timeout=TIMEOUT)
        return self._session

    async def close(self) -> None:
        if self._session is not None:
            await self._session.close()

    async def _call(self, method: str, path: str, **kwargs: Any) -> Any:
        try:
            async with self._http().request(method, self.base + path, **kwargs) as answer:
                if answer.status >= 400:
                    return None
                return await answer.json()
        except (aiohttp.ClientError, TimeoutError, ValueError):
            raise Refusal(_("Discord did not answer; try again in a moment")) from None

    async def exchange(self, code: str) -> str:
        form = {
            "client_id": str(self.app_id()),
            "client_secret": self.secret,
            "grant_type": "authorization_code",
            "code": code,
        }
        found = await self._call("POST", "/oauth2/token", data=form)
        token = found.get("access_token") if isinstance(found, dict) else None
        if not isinstance(token, str):
            raise Refusal(_("Discord did not accept this sign-in; open the live board again"))
        return token

    async def person(self, access_token: str) -> Person:
        found = await self._call(
            "GET", "/users/@me", headers={"Authorization": f"Bearer {access_token}"}
        )
        if not isinstance(found, dict) or not str(found.get("id", "")).isdigit():
            raise Refusal(_("Discord does not know this sign-in; open the live board again"))
        name = found.get("global_name") or found.get("username") or str(found["id"])
        return Person(int(found["id"]), str(name), found.get("locale"))

    async def instance(self, instance_id: str) -> Instance:
        found = None
        if instance_id.isascii() and 0 < len(instance_id) <= 100 and "/" not in instance_id:
            found = await self._call(
                "GET",
                f"/applications/{self.app_id()}/activity-instances/{instance_id}",
                headers={"Authorization": f"Bot {self.bot_token}"},
            )
        location = found.get("location") if isinstance(found, dict) else None
        if not isinstance(found, dict) or not isinstance(location, dict):
            raise Refusal(_("Discord knows no such live board; open it again from the game"))
        guild = location.get("guild_id")
        return Instance(
            instance_id,
            int(guild) if guild else None,
            int(location["channel_id"]),
            frozenset(int(u) for u in found.get("users", [])),
        )
