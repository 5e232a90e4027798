"""The Discord bot: a thin discord.py layer over the game manager.

:class:`CrosshairsBot` builds the services every feature uses once, as it starts
(:class:`bot.env.Env`), and keeps the slash commands in sync; the features themselves are
set up by :mod:`bot.app`, which builds and runs it.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

import discord
import yarl
from discord import app_commands
from discord.ext import commands
from discord.gateway import DiscordWebSocket

import i18n
from bot import invite
from bot.config import Config
from bot.env import Env
from bot.live.board import LiveBoard
from bot.live.server import LiveServer
from bot.ops import Operations
from bot.outages import Outages, retried
from bot.pacing import Pace, SharedBudget, paced
from bot.services.clock import Clock
from bot.services.manager import Games
from bot.services.workers import Workers
from bot.ui.errors import report
from bot.ui.language import SpeakingTree
from storage.db import Database
from storage.errors import StorageError

log = logging.getLogger(__name__)

SYNC_KEY = "commands_hash"
GLOBAL_SCOPE = 0  # guild id under which the hash of the global commands is kept
# Identifies are spaced wider than Discord's rule: one that waited its turn may still
# arrive early if the one before it was delayed on the way (the socket's connection and
# Discord's HELLO come between the time handed out and the IDENTIFY). A fifth of the
# spacing, and at least half a second: that way takes tenths of a second on a busy
# machine whatever the spacing (the tests' is a tenth of Discord's five seconds, and a
# fifth of it once let an identify arrive early).
IDENTIFY_MARGIN = 0.2
IDENTIFY_LEEWAY_SECONDS = 0.5


class CrosshairsBot(commands.Bot):
    """Holds the services the features need (:class:`Env`, built once as it starts);
    the features live in ``bot.ui`` and are set up by :mod:`bot.app`."""

    env: Env
    # the desks the features share (bot.ui.desks.Desks), set by bot.app; read through
    # desks_of, which knows their type: the bot may not import the features that import it
    desks: object = None
    # what waits for an answer (bot.ui.offers.Offers), set by bot.app; read through offers_of
    offers: object = None
    # how each match is shown (bot.ui.surfaces.Surfaces), set by bot.app; read through
    # surfaces_of, for the same reason
    surfaces: object = None
    # what the bot keeps in memory of its boards (bot.ui.thread.Drawings), set by bot.app
    drawings: object = None
    # the live board's pages (an Activity, bot/live), set by bot.app; its server, set
    # by bot.app when the live board is configured
    live_board: LiveBoard
    live_server: LiveServer | None = None
    # the application's emojis in use (bot.ui.glyphs.Glyphs), set where it starts
    glyphs: object = None

    def __init__(
        self,
        config: Config,
        install: Callable[[CrosshairsBot], Awaitable[None]],
        clock: Clock | None = None,
        **options: Any,
    ) -> None:
        intents = discord.Intents.default()
        self.ops = Operations(self)
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            http_trace=self.ops.trace,
            # every command answers in its asker's language (bot/ui/language.py)
            tree_cls=SpeakingTree,
            # Never @everyone, @here or a role, whatever a message says; a message that
            # pings a person names them itself (``<@id>``), and people's own text is
            # stored with its mentions escaped (bot/ui/text.py).
            allowed_mentions=discord.AllowedMentions(
                everyone=False, roles=False, users=True, replied_user=False
            ),
            **options,
        )
        # Wrapping the instance's method is the one hook discord.py leaves before its
        # request loop; every REST call of the bot goes through it (bot/pacing.py).
        self.pace = Pace(config.rest_per_second)
        # A call Discord could not take is tried again, and one that still fails is
        # noted for the recovery to pick up (bot/outages.py, bot/ui/recovery.py).
        self.outages = Outages(config.discord_retry_seconds)
        self.http.request = retried(  # type: ignore[method-assign,assignment]
            paced(self.http.request, self.pace), self.outages
        )
        self.budget: SharedBudget | None = None
        # Discord's identify buckets (``shard_id % max_concurrency``), read at the first
        # identify of a shard
        self.max_concurrency: int | None = None
        self.config = config
        self._clock = clock
        self._install = install  # the features: commands, buttons, cogs
        self.tree.error(self._on_tree_error)
        self.background: set[asyncio.Task[Any]] = set()
        # the recovery's loop while the bot runs (bot/ui/recovery.py, keep_up): never done,
        # so not background work that others wait for
        self.catching_up: asyncio.Task[None] | None = None
        # set once the start-up recovery (bot/ui/recovery.py) has told what a crash left
        # untold: a turn clock that fires before then would announce its result twice
        self.recovered = asyncio.Event()

    async def login(self, token: str) -> None:
        api = self.config.api_base
        if api is not None:
            # Another Discord-compatible server (localcord, for the end-to-end tests and
            # the playground): discord.py takes its REST base from Route.BASE, and its
            # gateway from DEFAULT_GATEWAY, which we ask that server for as Discord's
            # clients do. Both are process-wide, like the token's one connection.
            discord.http.Route.BASE = api
        await super().login(token)
        if api is not None:
            _, url, _ = await self.http.get_bot_gateway()
            DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(url)

    async def setup_hook(self) -> None:
        self.env = await Env.open(self.config, self._clock)
        if self.env.db.dialect == "postgresql":  # a SQLite file serves one process
            self.budget = SharedBudget(self.pace, self.env.rest_leases)
            await self.budget.start()
        await self.ops.start(self.config.metrics_port, lambda: len(self.games.live_matches()))
        # Nothing is loaded before connecting: each match is, when something touches it.
        unfinished = await self.games.resume()
        log.info("%d unfinished matches in this process's shards", unfinished)
        await self._install(self)
        await self.sync_if_changed()
        if self.application_id is not None:
            log.info(
                "add the bot to a server: %s ; install it for yourself (DMs, group DMs, "
                "servers without the bot): %s",
                invite.server_link(self.application_id),
                invite.user_link(self.application_id),
            )

    async def close(self) -> None:
        for task in [*self.background, self.catching_up]:
            if task is not None:
                task.cancel()
        if hasattr(self, "env"):
            self.env.events.stop()
        await super().close()
        await self.ops.close()
        if self.live_server is not None:
            await self.live_server.close()
        if self.budget is not None:
            await self.budget.close()
        if hasattr(self, "env"):
            await self.env.close()

    # The Env's own, under the short names the features (and their tests) read them by.
    @property
    def db(self) -> Database:
        return self.env.db

    @property
    def games(self) -> Games:
        return self.env.games

    @property
    def workers(self) -> Workers:
        return self.env.workers

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        self.ops.received(interaction)
        # the person's own language, for the DMs they are sent unasked; written in the
        # background, and only when it changed (bot/services/locales.py)
        who, locale = interaction.user.id, interaction.locale.value
        if self.env.locales.heard(who, locale):
            self.spawn(self.env.locales.store(who, locale))

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        # Discord allows one IDENTIFY per five seconds per bucket, for the token, however
        # many processes share it: discord.py only spaces the shards of one process, so
        # the times are handed out by the database the processes share.
        spacing = self.config.identify_spacing
        bucket = (shard_id or 0) % await self._identify_buckets(shard_id)
        # a time handed out is kept to within the margin; a process woken later than
        # that (a starved machine) would identify too close to the next process's time,
        # handed out meanwhile: it takes a new time after it instead
        slack = spacing * IDENTIFY_MARGIN
        apart = spacing + max(slack, IDENTIFY_LEEWAY_SECONDS)
        while True:
            now = time.time()
            try:
                at = await self.env.identify_slots.reserve(bucket, apart, now)
            except StorageError as exc:  # the database is failing: discord.py's own spacing
                log.warning("identify not coordinated (%s); waiting %.1f s", exc, spacing)
                if not initial:
                    await asyncio.sleep(spacing)
                return
            if at > now:
                log.info("shard %s identifies in %.2f s (bucket %d)", shard_id, at - now, bucket)
                await asyncio.sleep(at - now)
            late = time.time() - at
            if late <= slack:
                return
            log.warning(
                "shard %s woke %.2f s after its identify time: taking another", shard_id, late
            )

    async def _identify_buckets(self, shard_id: int | None) -> int:
        """Discord's ``max_concurrency``: 1 (one bucket) unless the bot was granted more,
        which ``GET /gateway/bot`` tells; an unsharded bot has one bucket anyway."""
        if shard_id is None:
            return 1
        if self.max_concurrency is None:
            try:
                _, _, limits = await self.http.get_bot_gateway()
            except discord.GatewayNotFound as exc:
                log.warning("no identify limits from Discord (%s): one bucket", exc)
                return 1
            self.max_concurrency = max(1, int(limits.get("max_concurrency", 1)))
        return self.max_concurrency

    def spawn(self, coro: Any) -> asyncio.Task[Any]:
        """Run background work (the computer's turns) and keep a reference to it."""
        task: asyncio.Task[Any] = asyncio.get_running_loop().create_task(coro)
        self.background.add(task)
        task.add_done_callback(self.background.discard)
        return task

    async def _on_tree_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        await report(interaction, error)

    # ------------------------------------------------------------ syncing

    def _scope(self) -> discord.Object | None:
        guild = self.config.dev_guild_id
        return discord.Object(guild) if guild else None

    def commands_hash(self) -> str:
        scope = self._scope()
        if scope is not None:
            self.tree.copy_global_to(guild=scope)
        payload = [c.to_dict(self.tree) for c in self.tree.get_commands(guild=scope)]
        # the commands' translations are synced with them
        said = json.dumps(payload, sort_keys=True) + i18n.digest()
        return hashlib.sha256(said.encode()).hexdigest()

    async def sync_if_changed(self, force: bool = False) -> bool:
        """Sync the slash commands with Discord only when they changed since the last
        sync (or when forced by the owner), instead of at every start."""
        scope = self._scope()
        settings = self.env.stores.guilds
        key_guild = scope.id if scope is not None else GLOBAL_SCOPE
        digest = self.commands_hash()
        if not force and await settings.get(key_guild, SYNC_KEY) == digest:
            return False
        await self.tree.sync(guild=scope)
        await settings.set(key_guild, SYNC_KEY, digest)
        log.info("slash commands synced (%s)", "guild" if scope else "global")
        return True


class ShardedCrosshairsBot(CrosshairsBot, commands.AutoShardedBot):
    """The same bot running some of the bot's shards (``SHARD_COUNT``, ``SHARD_IDS``):
    one of several processes, each owning the guilds of its shards."""
