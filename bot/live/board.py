"""The live board's viewers and what they ask: each socket is one person in one Activity
instance, both as Discord vouched for them (:mod:`bot.live.discord_api`).

A tap is checked as a press is, by the same services: the match must belong to the
instance's server and channel (the guild wall: any other is "not found", as for a
number never used), the tapper must be seated and to move, at the ply the page showed
(a stale or repeated tap is refused, never played twice), and the game manager checks
it all again under the match's lock before it commits. What a committed action did goes
through the match's life (:meth:`bot.services.life.MatchLife.after`), once, as a
button's does; the page is redrawn when the domain publishes it (:meth:`LiveBoard.acted`
and the ends, subscribed by :mod:`bot.app`), whichever surface acted.

At the end, Rematch and the answers to an offer go to the same service as the thread's
buttons (:mod:`bot.services.rematch`), which checks them as it checks a press; each step
it publishes is shown on every page of the match (:meth:`LiveBoard.rematched`) as the
thread shows it. Where the bot only answers (no thread to post the offer in) the page
does not ask: the final board's button does.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any

from bot.live import lobby, view
from bot.live.discord_api import Instance, Person
from bot.live.received import number
from bot.live.takeback import PageTakebacks, Standing
from bot.services.challenge_offers import Challenge
from bot.services.challenges import Challenges
from bot.services.computer_seat import computer_name
from bot.services.events import (
    Acted,
    ChallengeChanged,
    MatchAborted,
    MatchFinished,
    MatchStarted,
    RematchChanged,
    TakebackChanged,
)
from bot.services.life import MatchLife
from bot.services.live import ClockSettings, LiveMatch, Occupant
from bot.services.manager import Games
from bot.services.refusal import Refusal
from bot.services.rematch import Rematches
from bot.services.takeback import Takebacks
from i18n import N_, _, speaking
from render.palette import DEFAULT_PALETTE, palette_spec

log = logging.getLogger(__name__)

TOKEN = re.compile(r"[A-Za-z0-9<>*+~^=!-]{1,12}")  # one notation token, generously
MOST_TOKENS = 40  # a whole dive is a handful; nothing a tap sends comes near this
FOLLOW_SECONDS = 1.0  # how soon a page sees a move another process made
Send = Callable[[dict[str, Any]], Awaitable[None]]
PaletteOf = Callable[[int, int | None], Awaitable[str]]
# the channel a challenge asked in a server's channel (or a thread of it) is played in;
# None where the bot does not post on its own
Home = Callable[[int | None, int], int | None]
Language = Callable[[int | None], object]  # a server's locale (None: none), as Discord says it
REMATCH_OPS = ("ask", "accept", "decline")


@dataclass(eq=False)
class Viewer:
    """One open live board: who (from their token), where (the instance), what they
    watch (a match of that instance's channel), and how to reach their page."""

    person: Person
    instance: Instance
    send: Send
    match_id: int | None = None
    palette: str = DEFAULT_PALETTE  # theirs (/crosshairs palette), else their server's
    challenges: list[dict[str, Any]] = field(default_factory=list)  # as their lobby shows

    def here(self, live: LiveMatch) -> bool:
        """Whether ``live`` is a match of the instance's channel (its thread, or the
        channel the thread hangs off)."""
        record = live.record
        return record.guild_id == self.instance.guild_id and self.instance.channel_id in (
            record.thread_id,
            record.channel_id,
        )

    def visible(self, live: LiveMatch) -> bool:
        """The guild wall: a match of the instance's channel, or one of the viewer's own
        elsewhere in the instance's server; never one of another server, nor, in a DM,
        one of another conversation."""
        if self.here(live):
            return True
        guild = self.instance.guild_id
        return (
            guild is not None
            and live.record.guild_id == guild
            and bool(live.seats_of(self.person.id))
        )


def _not_found(number: object) -> Refusal:
    return Refusal(_("there is no {kind} #{number} here", kind=_(N_("match")), number=number))


class LiveBoard:
    def __init__(
        self,
        games: Games,
        life: MatchLife,
        palette_of: PaletteOf,
        rematches: Rematches,
        posts: Callable[[LiveMatch], bool],
        takebacks: Takebacks,
        challenges: Challenges,
        home: Home,
        language: Language,
    ) -> None:
        self.games = games
        self.life = life
        self.palette_of = palette_of  # a person's palette in a server
        self.rematches = rematches
        # whether the bot posts where the match is shown without a press to answer (its
        # thread), as a rematch offer asked here needs
        self.posts = posts
        self._viewers: dict[int, list[Viewer]] = {}  # by the match they watch
        self._open: list[Viewer] = []  # every page signed in, watching or not
        self._publishing: set[asyncio.Task[None]] = set()  # kept, or the loop may lose them
        self.takebacks = PageTakebacks(takebacks, life, posts, self._later)
        self.challenges = challenges
        self.home = home
        self.language = language
        # by server of an open page: the matches being played there its pages were told of
        self._known: dict[int, set[int]] = {}
        # the rematch each finished watched match's pages were last shown, to show them
        # a step another process stored
        self._rematch_seen: dict[int, object] = {}

    # ------------------------------------------------------------ the domain's events

    async def started(self, event: MatchStarted) -> None:
        """A match begun where pages are open: each that may see it lists it, and one
        watching nothing yet (opened before the challenge was accepted) shows it."""
        live = event.match
        if live.record.guild_id in self._known:
            self._known[live.record.guild_id].add(live.id)
        for viewer in list(self._open):
            if not viewer.visible(live):
                continue
            try:
                with speaking(viewer.person.locale):
                    await viewer.send({"type": "tables", "tables": await self._listed(viewer)})
                    if viewer.match_id is None:
                        await self._watch(viewer, live.id)
            except Exception as exc:  # that page is gone or behind: it misses only a list
                log.info(
                    "live board of %s not told of match %s: %s", viewer.person.id, live.id, exc
                )

    async def acted(self, event: Acted) -> None:
        await self.show(event.match)

    async def finished(self, event: MatchFinished) -> None:
        await self.show(event.match)

    async def aborted(self, event: MatchAborted) -> None:
        await self.show(event.match)

    async def rematched(self, event: RematchChanged) -> None:
        await self.show(event.match)

    async def takeback_changed(self, event: TakebackChanged) -> None:
        await self.show(event.match)

    async def challenge_changed(self, event: ChallengeChanged) -> None:
        """A challenge's step, shown in the lobby of its two players' pages in its
        server; once it is a match, both pages go to it."""
        challenge = event.challenge
        viewers = [
            v
            for v in self._open
            if v.instance.guild_id == challenge.guild_id and challenge.involves(v.person.id)
        ]
        if not viewers:
            return
        server = await self._waiting_in(challenge.guild_id)  # read once for every page
        for viewer in viewers:
            try:
                with speaking(viewer.person.locale):
                    await self._lobby(viewer, server)
                    if event.match is not None and viewer.visible(event.match):
                        await self._watch(viewer, event.match.id)
            except Exception as exc:  # that page is gone: it misses only this step
                log.info("live board of %s not told of a challenge: %s", viewer.person.id, exc)

    async def follow(self, every: float = FOLLOW_SECONDS) -> None:
        """For ever, in a bot of several processes: bring the watched matches up to date
        when another process acted on them (the page's process may not be the match's),
        and show them, and list the matches another process began; this process's own
        actions and matches are shown by their events at once."""
        while True:
            await asyncio.sleep(every)
            try:
                await self.follow_once()
            except Exception:  # a failed look is tried again at the next
                log.exception("live board: the watched matches were not compared with storage")

    async def follow_once(self) -> None:
        watched = [m for m in map(self.games.live.cached, list(self._viewers)) if m is not None]
        for live in await self.games.catch_up(watched):
            await self.show(live)
        await self._rematched_elsewhere(watched)
        await self._begun_elsewhere()
        await self._challenged_elsewhere()

    async def _rematched_elsewhere(self, watched: list[LiveMatch]) -> None:
        """A rematch step another process stored (asked, answered, started), shown to
        the pages of its finished match."""
        self._rematch_seen = {m: s for m, s in self._rematch_seen.items() if m in self._viewers}
        for live in watched:
            seen = self._rematch_seen.get(live.id)
            if seen is not None and await self.rematches.shown(live) != seen:
                await self.show(live)

    async def _begun_elsewhere(self) -> None:
        """The matches another process began in the servers of the open pages, told to
        each page that may see them as :meth:`started` tells this process's own. A
        server's first look only notes what is being played: its pages listed it when
        they opened."""
        guilds = {v.instance.guild_id for v in self._open} - {None}
        self._known = {g: known for g, known in self._known.items() if g in guilds}
        for guild in sorted(g for g in guilds if g is not None):
            playing = await self.games.playing_in(guild)
            known = self._known.setdefault(guild, playing)
            self._known[guild] = playing
            for match_id in sorted(playing - known):
                try:
                    live = await self.games.current(match_id)
                except Refusal:  # ended or damaged meanwhile: nothing to list
                    continue
                await self.started(MatchStarted(live))

    async def _challenged_elsewhere(self) -> None:
        """The challenges another process stored or settled, shown in the lobbies of the
        open pages of their server (read once per server); a page whose challenge was
        accepted there goes to its match, as this process's pages do."""
        guilds = {v.instance.guild_id for v in self._open}
        for guild in sorted(g for g in guilds if g is not None):
            server = await self.challenges.waiting(guild)
            for viewer in [v for v in self._open if v.instance.guild_id == guild]:
                with speaking(viewer.person.locale):
                    now = _theirs(viewer, server)
                    if now == viewer.challenges:
                        continue
                    gone = {c["challenge"] for c in viewer.challenges} - {
                        c["challenge"] for c in now
                    }
                    await self._lobby(viewer, server)
                    for number in sorted(gone):  # accepted there: its match shown here
                        match_id = await self.challenges.match_of(number)
                        if match_id is not None:
                            await self._watch(viewer, match_id)

    async def show(self, live: LiveMatch) -> None:
        """Send every page watching ``live`` the match as storage holds it now."""
        viewers = list(self._viewers.get(live.id, ()))
        if not viewers:  # most matches, most of the time: nothing to read for nobody
            return
        seen = await live.committed()
        takeback = await self.takebacks.standing(seen)  # read once for every page
        for viewer in viewers:
            await self._state(viewer, seen, takeback)

    # ------------------------------------------------------------ viewers

    def watching(self, match_id: int) -> list[str]:
        return sorted({v.person.name for v in self._viewers.get(match_id, ())})

    async def joined(self, viewer: Viewer) -> None:
        """A page signed in: it is told its words, the board's shape and the matches it
        may watch, and shown the viewer's own match there (else the first), in their
        palette."""
        viewer.palette = await self.palette_of(viewer.person.id, viewer.instance.guild_id)
        self._open.append(viewer)
        with speaking(viewer.person.locale):
            tables = await self._listed(viewer)
            await viewer.send(
                {
                    "type": "welcome",
                    "you": viewer.person.name,
                    "texts": view.texts(),
                    "board": view.geometry(),
                    "palette": palette_spec(viewer.palette),
                    "tables": tables,
                }
            )
            server = await self._waiting_in(viewer.instance.guild_id)
            await self._lobby(viewer, server)
            if tables:
                await self._watch(viewer, tables[0]["match"])
        await self._lobbies(viewer, server)  # one more person the others may challenge

    async def _listed(self, viewer: Viewer) -> list[dict[str, Any]]:
        """The viewer's tables as the page lists them, in their language."""
        return [
            {
                "match": t.id,
                "title": _(" vs ").join(t.names),
                "yours": bool(t.seats_of(viewer.person.id)),
                "here": viewer.here(t),
            }
            for t in await self.tables(viewer)
        ]

    async def tables(self, viewer: Viewer) -> list[LiveMatch]:
        """The live matches of the viewer's channel, then their own elsewhere in the
        server (the App Launcher opens the live board on both), their own first: asked
        of storage, since those held in memory are only the ones touched lately."""
        instance = viewer.instance
        games = self.games  # every process's matches: the page's process may not own them
        played = await games.active(
            guild_id=instance.guild_id, place=instance.channel_id, everywhere=True
        )
        if instance.guild_id is not None:
            played += await games.active(
                guild_id=instance.guild_id, user_id=viewer.person.id, everywhere=True
            )
        found = {m.id: m for m in played if viewer.visible(m)}.values()
        person = viewer.person.id
        return sorted(found, key=lambda m: (not m.seats_of(person), not viewer.here(m), m.id))

    async def left(self, viewer: Viewer) -> None:
        """A page closed: nothing of the match changes; the others see one watcher fewer."""
        match_id = viewer.match_id
        self._leave(viewer)
        if viewer in self._open:
            self._open.remove(viewer)
            await self._lobbies(viewer)  # one fewer to challenge
        if match_id is not None:
            await self._tell_watchers(match_id)

    def _leave(self, viewer: Viewer) -> None:
        if viewer.match_id is None:
            return
        others = [v for v in self._viewers.get(viewer.match_id, []) if v is not viewer]
        if others:
            self._viewers[viewer.match_id] = others
        else:
            self._viewers.pop(viewer.match_id, None)
        viewer.match_id = None

    async def _tell_watchers(self, match_id: int) -> None:
        names = self.watching(match_id)
        for other in list(self._viewers.get(match_id, ())):
            await other.send({"type": "watchers", "watchers": names})

    # ------------------------------------------------------------ what a page asks

    async def handle(self, viewer: Viewer, message: object) -> None:
        """One message from a page: acted on, or refused with the reason (in the
        viewer's language), changing nothing."""
        with speaking(viewer.person.locale):
            try:
                await self._handle(viewer, message)
            except Refusal as exc:
                await viewer.send({"type": "refused", "text": str(exc)})
                await self._again(viewer)

    async def _again(self, viewer: Viewer) -> None:
        """After a refusal, the page shown the match as it is: what it showed may have
        been behind (a takeback redraws only the thread's board)."""
        if viewer.match_id is None:
            return
        try:
            live = await self.games.get(viewer.match_id)
        except Refusal:
            return
        seen = await live.committed()
        await self._state(viewer, seen, await self.takebacks.standing(seen))

    async def _handle(self, viewer: Viewer, message: object) -> None:
        if not isinstance(message, dict) or not isinstance(message.get("type"), str):
            raise Refusal(_("the live board did not understand that message"))
        kind = message["type"]
        if kind == "watch":
            await self._watch(viewer, message.get("match"))
            return
        if kind == "ping":
            await viewer.send({"type": "pong"})
            return
        if kind == "challenge":
            await self._challenge(viewer, message)
            return
        if kind not in ("play", "draw", "decline", "resign", "rematch", "takeback"):
            raise Refusal(_("the live board did not understand that message"))
        if viewer.match_id is None:
            raise Refusal(_("open a match first"))
        user = viewer.person.id
        match_id = viewer.match_id
        live = await self.games.current(match_id)
        if kind == "rematch":
            await self._rematch(viewer, live, message)
            return
        if kind == "takeback":
            await self.takebacks.handle(user, live, message)
            return
        if kind == "play":
            ply, tokens = _play_of(message)
            self.games.check_turn(live, user)
            if ply != live.ply:
                raise Refusal(_("that tap is out of date: the board has moved on"))
            update = await self.games.play(match_id, user, tokens, expect_ply=ply)
        elif kind == "draw":
            update = await self.games.offer_draw(match_id, user)
        elif kind == "decline":
            update = await self.games.decline_draw(match_id, user)
        else:
            update = await self.games.resign(match_id, user)
        # Published once by the match's life: this page is redrawn by its event, as the
        # thread's board is.
        self._later(self.life.after(update))

    def _later(self, showing: Coroutine[Any, Any, None]) -> None:
        """``showing`` in a task of its own, as each button press is: the page's next
        tap is read meanwhile (its check sees this action committed), not after the
        thread's board was drawn and sent."""
        task = asyncio.get_running_loop().create_task(showing)
        self._publishing.add(task)
        task.add_done_callback(self._publishing.discard)

    async def _rematch(self, viewer: Viewer, live: LiveMatch, message: dict[str, Any]) -> None:
        """Rematch asked for, or an offer answered (``decline`` by its host withdraws
        it), through the service the thread's buttons use; its event shows the step on
        every page of the match, this one too."""
        op, offer = message.get("op"), message.get("offer")
        if op not in REMATCH_OPS or (op != "ask" and not number(offer)):
            raise Refusal(_("the live board did not understand that message"))
        user = viewer.person.id
        if op == "ask":
            await self.rematches.check(live, user)
        elif number(offer):
            await self.rematches.addressed(offer, user, op)
        if not self.posts(live):
            raise Refusal(
                _(
                    "this match is shown where the bot only answers, with no thread to ask "
                    "in: press Rematch on its final board"
                )
            )
        if op == "ask":
            await self.rematches.ask(live, user)
        elif number(offer):
            await self.rematches.answer(live, offer, Occupant(user, viewer.person.name), op)

    # ------------------------------------------------------------ the lobby

    def _people(self, viewer: Viewer) -> dict[int, str]:
        """Whom ``viewer`` may challenge: the others signed in to their instance."""
        return {
            v.person.id: v.person.name
            for v in self._open
            if v.instance.id == viewer.instance.id and v.person.id != viewer.person.id
        }

    def _home(self, viewer: Viewer) -> int | None:
        """Where a challenge asked on ``viewer``'s page is played (None: not here)."""
        instance = viewer.instance
        return (
            None if instance.guild_id is None else self.home(instance.guild_id, instance.channel_id)
        )

    async def _waiting_in(self, guild: int | None) -> list[Challenge]:
        """The open challenges of a page's server (a DM's: none are shown)."""
        if guild is None:
            return []
        try:
            return await self.challenges.waiting(guild)
        except Refusal as exc:  # storage failed: the lobby shows none until it is back
            log.warning("live board: the challenges of server %s not read (%s)", guild, exc)
            return []

    async def _lobby(self, viewer: Viewer, server: list[Challenge]) -> None:
        """The viewer's lobby: whom they may challenge and their open challenges among
        ``server``'s (their server's)."""
        viewer.challenges = _theirs(viewer, server)
        people = sorted(self._people(viewer).items(), key=lambda p: p[1].casefold())
        where = None
        if self._home(viewer) is None:  # (always, in a DM)
            where = _(
                "Challenges from the live board are made in a server's channel where the "
                "bot may post: here, use /crosshairs challenge."
            )
        await viewer.send(
            {
                "type": "lobby",
                "people": [{"id": str(p), "name": name} for p, name in people] + lobby.computers(),
                "challenges": viewer.challenges,
                "rulesets": lobby.rulesets(),
                "planes": list(lobby.PLANES),
                "default_planes": lobby.DEFAULT_PLANES,
                "closed": where,
            }
        )

    async def _lobbies(self, about: Viewer, server: list[Challenge] | None = None) -> None:
        """The other pages of ``about``'s instance shown their lobby again (its people
        changed: ``about`` came, or went); ``server``: its challenges, if read already."""
        others = [o for o in self._open if o is not about and o.instance.id == about.instance.id]
        if not others:
            return
        if server is None:
            server = await self._waiting_in(about.instance.guild_id)
        for other in others:
            try:
                with speaking(other.person.locale):
                    await self._lobby(other, server)
            except Exception as exc:  # that page is gone too
                log.info("live board of %s: lobby not updated: %s", other.person.id, exc)

    async def _challenge(self, viewer: Viewer, message: dict[str, Any]) -> None:
        """A new challenge, or an answer to one, through the service the posted
        challenge's buttons use; its event shows the step on the pages and in the channel."""
        me = Occupant(viewer.person.id, viewer.person.name)
        guild = viewer.instance.guild_id
        home = self._home(viewer)
        if guild is None:  # a DM's challenges are its own conversation's: none are asked here
            raise Refusal(_("challenges cannot be made from the live board here"))
        if message.get("op") == "ask":
            wanted = lobby.asked(message)
            if wanted.strength is not None:  # its name kept with the match: the server's
                with speaking(self.language(guild) or viewer.person.locale):
                    name = computer_name(wanted.strength)
                opponent = Occupant(None, name, wanted.strength)
            else:
                person = self._people(viewer).get(wanted.opponent or 0)
                if person is None:
                    raise Refusal(_("that person is not in this live board: ask them to open it"))
                opponent = Occupant(wanted.opponent, person)
            if home is None:
                raise Refusal(_("challenges cannot be made from the live board here"))
            await self.challenges.ask(
                me,
                opponent,
                wanted.settings,
                clouds="random",
                clock=ClockSettings(),
                channel_id=home,
                guild_id=guild,
                rated=wanted.rated,
                asked_in=viewer.instance.channel_id,
            )
            return
        challenge_id, op = lobby.answered(message)
        challenge = await self.challenges.addressed(challenge_id, viewer.person.id, op, guild)
        if op == "accept" and self.home(guild, challenge.asked_in) is None:
            raise Refusal(_("press Accept on the challenge's message instead"))
        await self.challenges.answer(challenge_id, me, op, guild)

    async def _watch(self, viewer: Viewer, match_id: object) -> None:
        if not number(match_id):
            raise Refusal(_("the live board did not understand that message"))
        try:
            live = await self.games.current(match_id)
        except Refusal:
            raise _not_found(match_id) from None
        if not viewer.visible(live):
            raise _not_found(match_id)
        before = viewer.match_id
        self._leave(viewer)
        viewer.match_id = match_id
        self._viewers.setdefault(match_id, []).append(viewer)
        if before is not None and before != match_id:
            await self._tell_watchers(before)
        seen = await live.committed()
        await self._state(viewer, seen, await self.takebacks.standing(seen))
        await self._tell_watchers(match_id)

    async def _state(self, viewer: Viewer, live: LiveMatch, takeback: Standing | None) -> None:
        deadline = live.deadline
        left = None if deadline is None else deadline - self.games.clock.now()
        with speaking(viewer.person.locale):
            said = view.state(live, viewer.person.id, self.watching(live.id), left, viewer.palette)
            said["rematch"] = await self._rematch_shown(viewer, live)
            said["takeback"] = self.takebacks.shown(viewer.person.id, live, takeback)
        try:
            await viewer.send(said)
        except Exception as exc:  # a page gone meanwhile: it misses nothing it needs
            log.info("live board of %s not updated: %s", viewer.person.id, exc)

    async def _rematch_shown(self, viewer: Viewer, live: LiveMatch) -> dict[str, Any] | None:
        """What the page shows of the finished ``live``'s rematch: Rematch to ask, an
        offer to answer or withdraw, or what became of it, with the way to the new
        match where the viewer may see it."""
        if not live.game.is_over or live.aborted:
            return None
        rematches = self.rematches
        offer, outcome = self._rematch_seen[live.id] = await rematches.shown(live)
        seated = bool(live.seats_of(viewer.person.id))
        ask = seated and offer is None and outcome is None and await rematches.offered(live)
        go = None
        if outcome is not None and outcome.rematch is not None:
            try:
                rematch = await self.games.get(outcome.rematch)
            except Refusal:  # damaged meanwhile: its number is still told
                rematch = None
            if rematch is not None and viewer.visible(rematch):
                go = rematch.id
        return view.rematch(live, viewer.person.id, offer, outcome, ask, go)


def _theirs(viewer: Viewer, server: list[Challenge]) -> list[dict[str, Any]]:
    """The challenges of ``server`` ``viewer`` asked or is asked, as their lobby lists
    them (in the language being spoken)."""
    me = viewer.person.id
    return [lobby.shown(c, me) for c in server if c.involves(me)]


def _play_of(message: dict[str, Any]) -> tuple[int, list[str]]:
    """A tap's ply and tokens, or the refusal for a malformed one."""
    ply, tokens = message.get("ply"), message.get("tokens")
    if (
        not isinstance(ply, int)
        or isinstance(ply, bool)
        or not isinstance(tokens, list)
        or not 0 < len(tokens) <= MOST_TOKENS
        or not all(isinstance(t, str) and TOKEN.fullmatch(t) for t in tokens)
    ):
        raise Refusal(_("the live board did not understand that tap"))
    return ply, tokens
