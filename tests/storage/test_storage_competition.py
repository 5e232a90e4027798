"""Series, tournaments, ratings, players and guild settings."""

from __future__ import annotations

import pytest
from storage_testkit import duel

from storage.db import Database
from storage.errors import NotFound, StorageError
from storage.guilds import GuildSettingsRepo
from storage.matches import MatchRepo
from storage.players import PlayerRepo, remember
from storage.ratings import RatingChange, RatingRepo
from storage.series import NewSeries, SeriesPlayerSpec, SeriesRepo, SeriesStatus
from storage.tournaments import NewTournament, TournamentRepo, TournamentStatus


def _series() -> NewSeries:
    return NewSeries(
        mode="duel",
        channel_id=500,
        guild_id=1,
        thread_id=70,
        games_planned=3,
        players=[
            SeriesPlayerSpec(0, side=0, user_id=11, display_name="Ann"),
            SeriesPlayerSpec(1, side=1, user_id=22, display_name="Bob", handicap=1),
        ],
        pool=["first-blood", "double-kill", "untouchable"],
        settings_json='{"fire": "auto"}',
    )


async def test_a_series_records_games_cards_and_scores(db: Database) -> None:
    repo = SeriesRepo(db)
    series_id = await repo.create(_series())
    s = await repo.get(series_id)
    assert (s.games_planned, s.alternate_first, s.status, s.thread_id) == (3, True, "active", 70)
    assert [(p.position, p.user_id, p.side, p.handicap) for p in s.players] == [
        (0, 11, 0, 0),
        (1, 22, 1, 1),
    ]
    assert s.current_pool == ("first-blood", "double-kill", "untouchable")

    match_id = await MatchRepo(db).create(duel())
    await repo.start_game(series_id, 1, match_id)
    assert (await repo.get(series_id)).games[0].winners is None
    await repo.record_game(series_id, 1, match_id, [1], [("first-blood", 1, 1)])
    await repo.record_game(series_id, 2, None, [], [])  # drawn
    await repo.set_handicap(series_id, 1, 0)
    s = await repo.get(series_id)
    assert [(g.game_no, g.match_id, g.winners) for g in s.games] == [
        (1, match_id, (1,)),
        (2, None, ()),
    ]
    assert s.games_played == 2
    assert s.current_pool == ("double-kill", "untouchable")
    assert [(k.card, k.side, k.points, k.game_no) for k in s.kept] == [("first-blood", 1, 1, 1)]
    assert [(x.side, x.wins, x.points) for x in s.scores()] == [(0, 0, 0), (1, 1, 1)]
    assert s.players[1].handicap == 0

    with pytest.raises(StorageError, match="already kept"):
        await repo.record_game(series_id, 3, None, [0], [("first-blood", 0, 1)])
    assert len((await repo.get(series_id)).games) == 2  # the refused game left no trace

    assert [x.id for x in await repo.list_active(1)] == [series_id]
    await repo.set_status(series_id, SeriesStatus.FINISHED)
    assert await repo.list_active(1) == []
    with pytest.raises(NotFound):
        await repo.get(999)
    with pytest.raises(NotFound):
        await repo.record_game(999, 1, None, [0])


async def test_a_tournament_keeps_entries_rounds_and_results(db: Database) -> None:
    repo = TournamentRepo(db)
    tid = await repo.create(NewTournament(1, 600, "Spring Cup", "swiss", "duel"))
    t = await repo.get(tid)
    assert (t.name, t.format, t.status, t.games_per_pairing) == ("Spring Cup", "swiss", "open", 1)
    for user, seed in ((11, 2), (22, 1), (33, None)):
        await repo.enter(tid, user, f"u{user}", seed)
    with pytest.raises(StorageError, match="cannot enter"):
        await repo.enter(tid, 11)
    await repo.check_in(tid, 11)
    await repo.check_in(tid, 22)
    await repo.drop(tid, 33)
    await repo.set_seed(tid, 11, 3)
    entries = await repo.entries(tid)
    assert [(e.user_id, e.seed, e.checked_in, e.dropped) for e in entries] == [
        (22, 1, True, False),
        (11, 3, True, False),
        (33, None, False, True),
    ]
    with pytest.raises(NotFound):
        await repo.check_in(tid, 44)

    await repo.set_status(tid, TournamentStatus.RUNNING)
    table, bye = await repo.start_round(tid, 1, [[11, 22], [33]])
    with pytest.raises(StorageError):
        await repo.start_round(tid, 1, [[11, 22]])
    match_id = await MatchRepo(db).create(duel(users=(11, 22)))
    await repo.link_pairing(table, match_id=match_id)
    await repo.record_result(table, {11: 1.0, 22: 0.0}, '{"winner": 11}')
    await repo.record_result(bye, {33: 1.0})
    with pytest.raises(NotFound):
        await repo.record_result(table, {99: 1.0})
    await repo.finish_round(tid, 1)
    assert [(r.round_no, r.finished) for r in await repo.rounds(tid)] == [(1, True)]
    await repo.start_round(tid, 2, [[22, 11]])

    pairings = await repo.pairings(tid)
    assert [(p.round_no, p.table_no) for p in pairings] == [(1, 1), (1, 2), (2, 1)]
    first = pairings[0]
    assert (first.match_id, first.result_json, first.decided) == (match_id, '{"winner": 11}', True)
    assert [(p.user_id, p.points) for p in first.players] == [(11, 1.0), (22, 0.0)]
    assert not pairings[2].decided
    assert [p.id for p in await repo.pairings(tid, round_no=2)] == [pairings[2].id]
    assert await repo.pairing(tid, first.id) == first  # one table's own, as read with all
    other = await repo.create(NewTournament(2, 700, "Autumn Cup", "swiss", "duel"))
    with pytest.raises(NotFound):  # another tournament's pairing is not this one's
        await repo.pairing(other, first.id)
    assert [x.id for x in await repo.in_guild(1, [TournamentStatus.RUNNING])] == [tid]
    assert await repo.in_guild(1, [TournamentStatus.OPEN]) == []

    await repo.delete_round(tid, 2)
    assert [p.round_no for p in await repo.pairings(tid)] == [1, 1]
    assert [r.round_no for r in await repo.rounds(tid)] == [1]
    with pytest.raises(NotFound):
        await repo.delete_round(tid, 2)
    await repo.start_round(tid, 2, [[11, 22]])  # the round can be paired again

    await repo.set_settings(tid, '{"paused": true}')
    assert (await repo.get(tid)).settings_json == '{"paused": true}'
    with pytest.raises(NotFound):
        await repo.set_settings(tid + 99, "{}")


async def test_ratings_keep_their_history(db: Database) -> None:
    async with db.transaction() as conn:
        await remember(conn, 11, "Ann")
        await remember(conn, 22, "Bob")
    repo = RatingRepo(db)
    match_id = await MatchRepo(db).create(duel())
    assert await repo.get(11, "duel") is None
    await repo.apply("duel", match_id, [RatingChange(11, 27.0, 8.0), RatingChange(22, 23.0, 8.0)])
    await repo.apply("duel", None, [RatingChange(11, 28.0, 7.5)])
    await repo.apply("ffa", None, [RatingChange(22, 30.0, 8.0)])
    ann = await repo.get(11, "duel")
    assert ann is not None and (ann.mu, ann.sigma, ann.games) == (28.0, 7.5, 2)
    history = await repo.history(11, "duel")
    assert [(h.match_id, h.mu_before, h.mu_after) for h in history] == [
        (match_id, None, 27.0),
        (None, 27.0, 28.0),
    ]
    assert [r.user_id for r in await repo.leaderboard("duel")] == [11, 22]
    await repo.reset("duel")
    assert await repo.leaderboard("duel") == []
    assert await repo.history(11, "duel") == []
    assert [r.user_id for r in await repo.leaderboard("ffa")] == [22]


async def test_players_keep_their_latest_name(db: Database) -> None:
    repo = PlayerRepo(db)
    for name in ("Ann", "Annie"):
        async with db.transaction() as conn:
            await remember(conn, 11, name)
    ann = await repo.get(11)
    assert ann is not None and ann.display_name == "Annie"
    assert await repo.get(12) is None
    assert await repo.names([]) == {}


async def test_guild_settings_are_kept_per_guild(db: Database) -> None:
    repo = GuildSettingsRepo(db)
    await repo.set(1, "channel", "500")
    await repo.set(1, "channel", "501")
    await repo.set(1, "ruleset", "classic")
    await repo.set(2, "ruleset", "2026")
    assert (await repo.get(1, "channel"), await repo.get(1, "ruleset")) == ("501", "classic")
    assert await repo.get(2, "ruleset") == "2026"
    assert await repo.delete(1, "channel")
    assert not await repo.delete(1, "channel")
    assert await repo.get(1, "channel") is None


async def test_a_team_forms_once_its_members_accept_and_a_player_joins_one_team(
    db: Database,
) -> None:
    repo = TournamentRepo(db)
    tid = await repo.create(
        NewTournament(guild_id=1, channel_id=2, name="T", format="swiss", mode="2v2")
    )
    await repo.form_team(tid, 11, [(11, "Ann"), (22, "Bob")])
    with pytest.raises(StorageError):  # Bob is already invited to Ann's team
        await repo.form_team(tid, 33, [(33, "Cat"), (22, "Bob")])
    assert [(m.captain_id, m.user_id, m.accepted) for m in await repo.team_members(tid)] == [
        (11, 11, True),
        (11, 22, False),
    ]
    assert await repo.accept_team(tid, 11, 22)
    assert not await repo.accept_team(tid, 11, 22)  # a second press changes nothing
    assert not await repo.accept_team(tid, 33, 22)  # nor an invitation that does not exist
    assert all(m.accepted for m in await repo.team_members(tid))
    assert await repo.disband_team(tid, 11) == 2
    assert await repo.team_members(tid) == []
