"""Two processes on one database, as a sharded deployment runs them: the live board of
the process that does not own a match lists it, follows the moves its owner makes, and
plays it with a tap; the owner then judges its next press by the match as stored, not
by what it held in memory."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Coroutine
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from support.live import until

from bot.config import Config
from bot.env import Env
from bot.live.board import LiveBoard, Viewer
from bot.live.discord_api import Instance, Person
from bot.services.events import (
    Acted,
    ChallengeChanged,
    MatchAborted,
    MatchFinished,
    MatchStarted,
)
from bot.services.live import ClockSettings, LiveMatch, Occupant
from bot.services.refusal import Refusal
from bot.services.surface import Surface
from render.palette import DEFAULT_PALETTE
from rules.modes import Settings

ALICE, BOB = 101, 202
GUILD, CHANNEL = 7, 70  # 7 >> 22 is 0: the guild of shard 0 of two


class Unseen:
    """The match's surface in these processes: nothing shown but the live board."""

    at_once = False

    async def acted(self, event: Acted) -> None:
        pass

    async def finished(self, event: MatchFinished) -> None:
        pass

    async def aborted(self, event: MatchAborted) -> None:
        pass


class Surfaces:
    def of(self, live: LiveMatch) -> Surface:
        return Unseen()


class Page:
    """A page of the live board: what it was sent, and who it is (``viewer``)."""

    def __init__(self) -> None:
        self.said: list[dict[str, Any]] = []
        self.viewer: Viewer | None = None

    async def send(self, message: dict[str, Any]) -> None:
        self.said.append(message)

    def last_state(self) -> dict[str, Any]:
        return next(m for m in reversed(self.said) if m["type"] == "state")


@asynccontextmanager
async def process(path: Path, shard: int) -> AsyncIterator[tuple[Env, LiveBoard]]:
    """One process of two on the database at ``path``, running shard ``shard``."""
    config = Config(
        token=None, database_path=path, computer_pace=0.0, shard_count=2, shard_ids=(shard,)
    )
    env = await Env.open(config)
    board = LiveBoard(
        env.games,
        env.life,
        _palette,
        env.rematches,
        lambda live: True,
        env.takebacks,
        env.challenges,
        lambda guild, channel: channel,
        lambda guild: None,
    )

    def spawn(coro: Coroutine[Any, Any, None]) -> None:
        coro.close()  # no computer here: nothing runs in the background

    env.life.show_on(Surfaces(), spawn)
    env.events.subscribe(MatchStarted, board.started)
    env.events.subscribe(Acted, board.acted)
    env.events.subscribe(ChallengeChanged, board.challenge_changed)
    try:
        yield env, board
    finally:
        await env.close()


async def _palette(user_id: int, guild_id: int | None) -> str:
    return DEFAULT_PALETTE


async def _duel(env: Env, guild: int = GUILD, channel: int = CHANNEL) -> LiveMatch:
    """Alice and Bob's new duel, in ``channel`` of ``guild``."""
    return await env.games.create(
        [Occupant(ALICE, "alice"), Occupant(BOB, "bob")],
        Settings(mode="duel"),
        channel_id=channel,
        guild_id=guild,
        cloud_setup="none",
    )


async def _opened(board: LiveBoard, user_id: int, name: str) -> Page:
    page = Page()
    here = Instance("here", GUILD, CHANNEL, frozenset({ALICE, BOB}))
    page.viewer = Viewer(Person(user_id, name, None), here, page.send)
    await board.joined(page.viewer)
    return page


async def test_a_live_board_follows_and_plays_a_match_another_process_owns(
    tmp_path: Path,
) -> None:
    path = tmp_path / "bot.db"
    async with process(path, shard=0) as (owner, _), process(path, shard=1) as (other, board):
        assert owner.games.shards.owns(GUILD) and not other.games.shards.owns(GUILD)
        live = await _duel(owner)
        pages = {ALICE: await _opened(board, ALICE, "alice"), BOB: await _opened(board, BOB, "bob")}
        welcome = pages[ALICE].said[0]
        assert [t["match"] for t in welcome["tables"]] == [live.id]

        # the owner's player flies: the other process's pages follow within a look
        mover = live.user_to_move()
        assert mover is not None
        token = live.game.legal_steps()[0].token
        update = await owner.games.play(live.id, mover, [token])
        await owner.life.after(update)
        assert pages[ALICE].last_state()["ply"] == 0  # not told: another process acted
        await board.follow_once()
        assert pages[ALICE].last_state()["ply"] == pages[BOB].last_state()["ply"] == 1

        # a tap on the other process's page plays it there, stored once
        mover = live.user_to_move()
        assert mover is not None
        state = pages[mover].last_state()
        tap = state["choices"]["places"][0]["tokens"]
        viewer = pages[mover].viewer
        assert viewer is not None
        await board.handle(viewer, {"type": "play", "ply": state["ply"], "tokens": tap})
        stored = await owner.games.repo.steps(live.id)
        assert [s.token for s in stored][1:] == tap

        # the owner, still holding the match at ply 1, judges the next press by storage
        assert live.ply == 1
        now = await owner.games.current(live.id)
        assert now is live and live.ply == len(stored)
        to_move = live.user_to_move()
        assert to_move is not None
        owner.games.check_turn(live, to_move, len(stored))  # no refusal: it is theirs
        other_player = BOB if to_move == ALICE else ALICE
        try:
            owner.games.check_turn(live, other_player, len(stored))
        except Refusal as refused:
            assert "not your turn" in str(refused)
        else:
            raise AssertionError("the player not to move was not refused")


async def test_a_match_another_process_begins_is_listed_and_shown_on_an_open_page(
    tmp_path: Path,
) -> None:
    path = tmp_path / "bot.db"
    async with process(path, shard=0) as (owner, _), process(path, shard=1) as (_, board):
        page = await _opened(board, BOB, "bob")  # before the challenge is accepted
        assert page.said[0]["tables"] == []
        await board.follow_once()  # the server's first look: nothing new yet
        assert [m["type"] for m in page.said] == ["welcome", "lobby"]

        live = await _duel(owner)
        elsewhere = await _duel(
            owner, GUILD + 1, CHANNEL + 1
        )  # another server's: not for this page
        await board.follow_once()
        listed = [m for m in page.said if m["type"] == "tables"]
        assert [[t["match"] for t in m["tables"]] for m in listed] == [[live.id]]
        assert page.last_state()["match"] == live.id  # it watched nothing: now this one
        await board.follow_once()  # told once
        assert len([m for m in page.said if m["type"] == "tables"]) == 1
        assert all(m.get("match") != elsewhere.id for m in page.said)


async def test_a_draw_offered_on_one_process_stands_on_the_other_and_after_a_restart(
    tmp_path: Path,
) -> None:
    path = tmp_path / "bot.db"
    async with process(path, shard=0) as (owner, _), process(path, shard=1) as (_, board):
        live = await _duel(owner)
        pages = {ALICE: await _opened(board, ALICE, "alice"), BOB: await _opened(board, BOB, "bob")}
        alice = pages[ALICE].viewer
        assert alice is not None
        await board.handle(alice, {"type": "draw"})  # on the page the other process serves
        # shown by the action's event, in a task of its own, as a press's is
        await until(lambda: pages[BOB].last_state()["draw_offered"], "the offer on bob's page")

        # the thread's buttons, served by the owner, see the offer standing
        assert (await owner.games.current(live.id)).draw_offers == {0}
        try:
            await owner.games.offer_draw(live.id, ALICE)
        except Refusal as refused:
            assert "your own draw offer" in str(refused)
        else:
            raise AssertionError("a second offer of the same player was taken")

        # declined with the owner's buttons: the page sees it gone at its next look
        update = await owner.games.decline_draw(live.id, BOB)
        await owner.life.after(update)
        assert pages[BOB].last_state()["draw_offered"]  # another process acted: not yet
        await board.follow_once()
        assert not pages[BOB].last_state()["draw_offered"]

        await owner.games.offer_draw(live.id, BOB)
    async with process(path, shard=0) as (restarted, _):  # a restart keeps the offer
        assert (await restarted.games.get(live.id)).draw_offers == {1}


async def test_a_match_no_page_watches_is_not_read_for_its_pages(tmp_path: Path) -> None:
    """Every action of every match is shown to the live board: one nobody watches (most,
    most of the time) must cost it nothing, neither a read of storage nor the match's
    lock."""
    async with process(tmp_path / "bot.db", shard=0) as (env, board):
        live = await _duel(env)

        async def unread(_live: LiveMatch) -> None:
            raise AssertionError("read for no page")

        read = board.takebacks.standing
        board.takebacks.standing = unread  # type: ignore[method-assign,assignment]
        async with live.lock:  # held by an action in flight: showing nobody waits for nothing
            await asyncio.wait_for(board.show(live), 30)  # never, if it waited for the lock
        board.takebacks.standing = read  # type: ignore[method-assign]
        page = await _opened(board, ALICE, "alice")
        assert page.last_state()["match"] == live.id  # watched: shown (and read) again


async def test_a_challenge_asked_in_one_process_is_shown_and_accepted_in_the_other(
    tmp_path: Path,
) -> None:
    """The command's challenge is posted by the process of its server; bob's live board,
    served by the other, lists it at its next look and accepts it there: one match, which
    alice's page, served by the first, then shows."""
    path = tmp_path / "bot.db"
    async with (
        process(path, shard=0) as (owner, owner_board),
        process(path, shard=1) as (_, board),
    ):
        bob = await _opened(board, BOB, "bob")
        alice = await _opened(owner_board, ALICE, "alice")  # served by the owner
        assert bob.viewer is not None
        await owner.challenges.ask(
            Occupant(ALICE, "alice"),
            Occupant(BOB, "bob"),
            Settings(mode="duel", ruleset="classic"),
            clouds="none",
            clock=ClockSettings(),
            channel_id=CHANNEL,
            guild_id=GUILD,
            rated=True,
        )
        assert [m for m in bob.said if m["type"] == "lobby"][-1]["challenges"] == []
        await board.follow_once()
        (shown,) = [m for m in bob.said if m["type"] == "lobby"][-1]["challenges"]
        assert shown["answer"] and "alice challenges you" in shown["text"]
        lobbies = len([m for m in bob.said if m["type"] == "lobby"])
        await board.follow_once()  # nothing new: not told again
        assert len([m for m in bob.said if m["type"] == "lobby"]) == lobbies

        accept = {"type": "challenge", "op": "accept", "challenge": shown["challenge"]}
        await board.handle(bob.viewer, accept)
        await board.handle(bob.viewer, accept)  # twice: refused, one match
        refused = [m for m in bob.said if m["type"] == "refused"]
        assert len(refused) == 1 and "already been accepted" in refused[0]["text"]
        played = await owner.games.active(guild_id=GUILD, everywhere=True)
        assert [(m.seats[0].user_id, m.game.settings.ruleset) for m in played] == [
            (ALICE, "classic")
        ]
        assert bob.last_state()["match"] == played[0].id
        await owner_board.follow_once()  # alice's page, in the process that asked it
        assert [m for m in alice.said if m["type"] == "lobby"][-1]["challenges"] == []
        assert alice.last_state()["match"] == played[0].id
        assert await owner.challenges.waiting(GUILD) == []
        # alice, answering in her process meanwhile, is told what became of it
        try:
            await owner.challenges.answer(
                shown["challenge"], Occupant(ALICE, "alice"), "decline", GUILD
            )
        except Refusal as refused:
            assert "already been accepted" in str(refused)
        else:
            raise AssertionError("a withdrawal after the accept was not refused")
