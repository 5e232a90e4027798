"""The rating's story as storage tells it (bot/services/rating_story.py), on both
backends: the rating after each rated game per kind of game, the best win counting
only opponents (never a team-mate), the win streaks, and a head-to-head record."""

from __future__ import annotations

import dataclasses
import json

from storage_testkit import duel

from bot.services.rating_story import HeadToHead, Story, head_to_head, story, streaks
from competition.ratings import display_of
from storage.db import Database
from storage.match_records import SeatSpec
from storage.matches import MatchRepo, MatchStatus
from storage.ratings import RatingChange, RatingRepo


def test_streaks_count_wins_in_a_row() -> None:
    assert streaks([]) == (0, 0)
    assert streaks([True, True, False, True]) == (1, 2)
    assert streaks([False, True, True, True]) == (3, 3)
    assert streaks([True, False]) == (0, 1)


async def finished(
    db: Database, users: tuple[int, ...], teams: tuple[int, ...], winners: list[int]
) -> int:
    mode = "duel" if len(users) == 2 else "2v2"
    seats = [
        SeatSpec(seat=s, team=t, user_id=u, display_name=f"p{u}")
        for s, (u, t) in enumerate(zip(users, teams, strict=True))
    ]
    repo = MatchRepo(db)
    match = await repo.create(dataclasses.replace(duel(), mode=mode, seats=seats))
    await repo.finish(match, MatchStatus.FINISHED, json.dumps({"winners": winners}))
    return match


async def test_the_story_of_rated_games_in_two_kinds(db: Database) -> None:
    ratings = RatingRepo(db)
    # a 2v2: 11 and 12 (team 0) beat 21 and 22; 12 is rated higher than either opponent
    team = await finished(db, (11, 21, 12, 22), (0, 1, 0, 1), [0, 2])
    await ratings.apply("team", None, [RatingChange(u, 25.0, 8.0) for u in (11, 12, 21, 22)])
    await ratings.apply(
        "team",
        team,
        [
            RatingChange(11, 27.0, 7.0),
            RatingChange(12, 35.0, 7.0),
            RatingChange(21, 23.0, 7.0),
            RatingChange(22, 24.0, 7.0),
        ],
    )
    # two duels against 21: 11 loses the first, wins the second
    first = await finished(db, (11, 21), (0, 1), [1])
    await ratings.apply("duel", first, [RatingChange(11, 23.0, 8.0), RatingChange(21, 27.0, 8.0)])
    second = await finished(db, (11, 21), (0, 1), [0])
    await ratings.apply("duel", second, [RatingChange(11, 26.0, 7.5), RatingChange(21, 24.0, 7.5)])

    told = await story(db, 11)
    assert told.history == {
        "duel": (1500, display_of(23.0), display_of(26.0)),
        "team": (1500, display_of(25.0), display_of(27.0)),
    }
    # 21 at 27 before the second duel: the best opponent beaten; 12 (35) is a team-mate
    assert told.best_win is not None
    assert (told.best_win.opponent_id, told.best_win.rating, told.best_win.match_id) == (
        21,
        display_of(27.0),
        second,
    )
    assert (told.streak, told.longest) == (1, 1)  # won, lost, won

    assert await head_to_head(db, 11, 21) == HeadToHead(
        won=2, lost=1, other=0
    )  # the 2v2 counts too
    assert (await head_to_head(db, 21, 11)).won == 1
    assert await story(db, 99) == Story({}, None, 0, 0)
