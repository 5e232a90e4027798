"""The playground's Activities: the App Launcher, Join and Leave, and what the page shows.

The page shows the Activity a person has open beside the channel (over it on a phone),
in the frame ``ActivityHost`` serves, and offers **Join** on a channel where one runs.
The App Launcher opens the app's Activity as Discord does: through the app's entry point
command when the app registered one with handler 1 (the app is asked, and answers with
callback 12), else Discord launches it itself (the default entry point, handler 2).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from aiohttp import web

from i18n import in_language
from localcord.activities import CLIENT_SECRET, DISCORD_LAUNCH_ACTIVITY, Activities
from localcord.activity_host import ActivityHost
from localcord.client import LocalcordError, People
from localcord.documented import PRIMARY_ENTRY_POINT
from localcord.page_words import WORDS
from localcord.records import Channel, Json, User, as_json

APP_HANDLER = 1


def own_live_board(host: ActivityHost) -> dict[str, Any]:
    """The bot's settings to serve its own live board (docs/activity.md) as the
    playground's Activity, unless ``ACTIVITY_URL`` named another: on any free loopback
    port, with the client secret this Discord accepts. Once it listens,
    :func:`hosted_at` points the Activity's origin at it."""
    return {} if host.activity_url else {"live_port": 0, "client_secret": CLIENT_SECRET}


def hosted_at(host: ActivityHost, port: int | None) -> None:
    """The Activity served by the bot's live board on ``port`` (None: not served)."""
    if port is not None and not host.activity_url:
        host.activity_url = f"http://127.0.0.1:{port}"


class PlaygroundActivities:
    def __init__(
        self,
        people: People,
        activities: Activities,
        host: ActivityHost,
        who: Callable[[Json], tuple[User, Channel]],
    ) -> None:
        """``who``: the person and channel a page's call is from, read from its body as
        the rest of the playground reads them."""
        self.people = people
        self.world = people.world
        self.activities = activities
        self.host = host
        self._who = who

    def routes(self) -> list[web.RouteDef]:
        return [
            web.post("/play/activity/launch", self.launch),
            web.post("/play/activity/join", self.join),
            web.post("/play/activity/leave", self.leave),
        ]

    def shown(self, viewer: User, channel: Channel, platform: str) -> Json:
        """What the page shows of Activities: the one ``viewer`` has open (its frame's
        address), and who is in the one running in ``channel``."""
        mine = next((i for i in self.activities.instances.values() if viewer in i.users), None)
        here = self.activities.running_in(channel)
        return {
            # as Discord's App Launcher lists only apps with an Activity
            "launcher": bool(self.host.activity_url),
            "open": None
            if mine is None
            else {
                "instance": mine.id,
                "channel": mine.channel.name,
                "frame": self.host.frame_url(mine, viewer, platform),
            },
            "here": None
            if here is None or here is mine
            else {"instance": here.id, "people": [u.name for u in here.users]},
        }

    async def launch(self, request: web.Request) -> web.Response:
        viewer, channel = self._who(await request.json())
        refused = self.activities.refusal(viewer, channel)
        if refused is not None:
            key = "activity_thread" if refused.status == 400 else "activity_denied"
            return as_json({"error": in_language(viewer.locale, WORDS[key])}, 400)
        entry = next((c for c in self.world.commands if c.get("type") == PRIMARY_ENTRY_POINT), {})
        if entry.get("handler", DISCORD_LAUNCH_ACTIVITY) == APP_HANDLER:
            try:
                await self.people.entry_point(viewer, channel)
            except LocalcordError as exc:
                return as_json({"error": str(exc)}, 400)
        else:
            self.activities.launch(viewer, channel)
        return as_json({"ok": True})

    async def join(self, request: web.Request) -> web.Response:
        viewer, channel = self._who(await request.json())
        running = self.activities.running_in(channel)
        if running is None:
            return as_json({"error": "no Activity runs here"}, 404)
        self.activities.join(running, viewer)
        return as_json({"ok": True})

    async def leave(self, request: web.Request) -> web.Response:
        viewer, _ = self._who(await request.json())
        for instance in list(self.activities.instances.values()):
            self.activities.leave(instance, viewer)
        return as_json({"ok": True})
