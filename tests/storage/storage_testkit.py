"""Shared by the storage tests: game JSON documents, new matches to store, and raw SQL
on either backend."""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path

import asyncpg
from pg_server import run_sync

from storage.boards import BoardMarkRepo
from storage.challenges import ChallengeRepo, NewChallenge
from storage.config import Target, parse_target
from storage.db import Database
from storage.errors import StepConflict
from storage.guilds import GuildSettingsRepo
from storage.locales import LocaleRepo
from storage.matches import MatchRepo, MatchStatus, NewMatch, SeatSpec
from storage.notify import NotifyRepo
from storage.palettes import PaletteRepo
from storage.ratings import RatingChange, RatingRepo
from storage.rematches import RematchRepo
from storage.series import NewSeries, SeriesPlayerSpec, SeriesRepo
from storage.takebacks import Answer, Position, TakebackRepo
from storage.tournament_calendar import TournamentCalendarRepo
from storage.tournaments import NewTournament, TournamentRepo, TournamentStatus
from storage.training import PuzzleRating, TrainingRepo
from storage.unrated import UnratedRepo
from storage.vacations import VacationRepo

TOKENS = ("+a3NE", "k7C<", "c3F", "e6S", "*d4", "-")


def game_json(steps: int = 0, to_move: int | None = 0) -> str:
    """A document shaped like the rules engine's game JSON; storage only reads its
    "format"."""
    return json.dumps(
        {
            "format": "crosshairs/game",
            "version": 1,
            "settings": {"mode": "duel", "ruleset": "2026", "fire": "auto"},
            "start": {"clouds": None},
            "steps": [TOKENS[i % len(TOKENS)] for i in range(steps)],
            "status": {"phase": "play", "turn": steps, "to_move": to_move},
        }
    )


def duel(
    channel_id: int = 500,
    guild_id: int | None = 1,
    thread_id: int | None = None,
    users: tuple[int | None, int | None] = (11, 22),
) -> NewMatch:
    return NewMatch(
        mode="duel",
        ruleset="2026",
        fire_mode="auto",
        channel_id=channel_id,
        guild_id=guild_id,
        thread_id=thread_id,
        variants=frozenset({"aces", "turbulence"}),
        clock_json='{"turn_seconds": 600}',
        seats=[
            SeatSpec(seat=0, team=0, user_id=users[0], display_name=f"p{users[0]}"),
            SeatSpec(seat=1, team=1, user_id=users[1], handicap=2),
        ],
        snapshot=game_json(),
        to_move_seat=0,
        turn_deadline=1_900_000_000.0,
    )


def raw(
    where: Path | str | Target, sql: str, params: tuple[object, ...] = ()
) -> list[tuple[object, ...]]:
    """Run SQL straight on the database, the way damage or an older bot would: a
    SQLite file through sqlite3, PostgreSQL through its own connection."""
    target = where if isinstance(where, Target) else parse_target(where)
    if target.path is not None:
        conn = sqlite3.connect(target.path, isolation_level=None)
        try:
            return list(conn.execute(sql, params))
        finally:
            conn.close()
    count = iter(range(1, len(params) + 1))
    numbered = re.sub(r"\?", lambda _: f"${next(count)}", sql)

    async def run() -> list[tuple[object, ...]]:
        conn = await asyncpg.connect(target.url)
        try:
            return [tuple(r) for r in await conn.fetch(numbered, *params)]
        finally:
            await conn.close()

    return run_sync(run())


async def fill(target: str, matches_count: int = 4) -> list[int]:
    """A database with a row in every table."""
    async with await Database.open(target) as db:
        matches = MatchRepo(db)
        ids = [
            await matches.create(duel(channel_id=500 + i, thread_id=70 + i))
            for i in range(matches_count)
        ]
        for ply in range(1, 6):
            await matches.append_step(
                ids[0], ply, "c3F", 11, game_json(ply, ply % 2), to_move_seat=ply % 2,
                turn_deadline=1_900_000_000.5 + ply, passes_turn=True,
            )  # fmt: skip
        await matches.finish(ids[3], MatchStatus.FINISHED, '{"winners": [0]}')
        await BoardMarkRepo(db).placed(ids[1], 1_234_567_890_123_456_789, 0)
        series = SeriesRepo(db)
        sid = await series.create(
            NewSeries(
                mode="duel", channel_id=600, games_planned=3, pool=["first-blood", "ace"],
                players=[SeriesPlayerSpec(0, 0, 11, "Ann"), SeriesPlayerSpec(1, 1, None)],
            )
        )  # fmt: skip
        await series.record_game(sid, 1, ids[3], [0], [("first-blood", 0, 2)])
        await series.start_game(sid, 2, ids[2])
        tournaments = TournamentRepo(db)
        tid = await tournaments.create(NewTournament(1, 700, "Cup", "swiss", "duel"))
        for user in (11, 22, 33):
            await tournaments.enter(tid, user, f"u{user}")
        pairing, _bye = await tournaments.start_round(tid, 1, [[11, 22], [33]])
        await tournaments.link_pairing(pairing, series_id=sid, match_id=ids[3])
        await tournaments.record_result(pairing, {11: 1.0, 22: 0.5})
        await tournaments.set_status(tid, TournamentStatus.FINISHED)  # its end, to announce
        await RatingRepo(db).apply("duel", ids[3], [RatingChange(11, 27.25, 7.5)])
        await GuildSettingsRepo(db).set(1, "channel", "general")
        await BoardMarkRepo(db).mark(ids[0], 5)
        await NotifyRepo(db).set(11, "turn")
        await LocaleRepo(db).set(11, "de")
        await PaletteRepo(db).set(11, "contrast")
        await UnratedRepo(db).mark(ids[0])
        await VacationRepo(db).add(11, 1_800_000_000.0, 1_800_086_400.0)
        await TakebackRepo(db).ask(ids[0], 11, 5, 3, [22])
        await matches.offer_draw(ids[1], 0, [0])
        await RematchRepo(db).open(ids[3], 11, "alice", True, [22])
        await ChallengeRepo(db).open(
            NewChallenge(
                1,
                700,
                700,
                11,
                "alice",
                22,
                "bob",
                "2026",
                None,
                "auto",
                "",
                "random",
                '{"per_turn": null, "on_expiry": "lose"}',
                True,
                1_800_000_000.0,
            )
        )
        await TournamentCalendarRepo(db).remember(tid, 1_576_000_000_000_000_000)
        teams = await tournaments.create(NewTournament(1, 701, "Pairs", "swiss", "2v2"))
        await tournaments.form_team(teams, 44, [(44, "Cap"), (55, "Mate")])
        training = TrainingRepo(db)
        await training.pass_lesson(await training.start(11, "lesson", "enter"))
        tried = await training.start(22, "puzzle", "1-0001")
        await training.record_puzzle(tried, True, PuzzleRating(22, 1620.5, 240.0, 0.06, 1, 0, 1, 1))
        await training.start(33, "lesson", "climb")
        return ids


async def take_back(
    db: Database,
    match_id: int,
    from_ply: int,
    to_ply: int,
    snapshot: str,
    *,
    to_move_seat: int | None,
    turn_deadline: float | None,
) -> None:
    """A takeback asked for by 11 at ``from_ply`` and agreed to by 22; StepConflict if
    the match is not active there."""
    repo = TakebackRepo(db)
    asked = await repo.ask(match_id, 11, from_ply, to_ply, [22])
    there = Position(snapshot, to_move_seat, turn_deadline)
    if await repo.answer(asked.id, 22, True, there) is not Answer.DONE:
        raise StepConflict(match_id, from_ply, "the match moved on or is over")
