"""A series is an invitation: nothing is stored, rated or clocked until every invited
player accepts; a decline or the timeout ends it. An aborted series game is played again."""

from __future__ import annotations

from typing import Any

from support.replies import answer

from bot.discord_app import CrosshairsBot
from bot.services.clock import FakeClock
from bot.ui.series_invites import INVITATION_TIMEOUT
from storage.series import SeriesRepo, SeriesStatus

from .support import Club, current_match


def message(channel: Any, message_id: int) -> Any:
    return next(m for m in channel.history() if m.id == message_id)


async def stored_series(bot: CrosshairsBot, club: Club) -> list[Any]:
    return await SeriesRepo(bot.db).list_active(club.guild.id)


async def test_a_series_starts_only_once_the_invited_opponent_accepts(
    club: Club, simcord_bot: CrosshairsBot
) -> None:
    alice, bob, carol = club.alice, club.bob, club.carol
    asked = await alice.slash(
        club.channel, "crosshairs-series start", opponent=bob, games=3, clock=120
    )
    invitation = answer(asked)
    assert bob.mention in invitation.content and "Nothing is rated" in invitation.content
    assert "Every game: 2026 rules · auto fire · 5 planes each · random clouds." in (
        invitation.content
    )
    assert club.channel.threads == [] and await stored_series(simcord_bot, club) == []
    assert simcord_bot.games.live_matches() == []  # no game, so no clock runs

    stranger = await carol.click(invitation, label="Accept")
    assert "not addressed to you" in answer(stranger).content
    assert await stored_series(simcord_bot, club) == []

    await bob.click(invitation, label="Accept")
    (thread,) = club.channel.threads
    live = await current_match(simcord_bot, thread)
    assert [e.user_id for e in live.seats] == [alice.id, bob.id]
    assert [s.id for s in await stored_series(simcord_bot, club)] == [1]
    assert message(club.channel, invitation.id).components == []  # answered: no buttons


async def test_a_declined_or_expired_invitation_starts_nothing(
    club: Club, simcord_bot: CrosshairsBot, clock: FakeClock
) -> None:
    alice, bob, carol = club.alice, club.bob, club.carol
    declined = answer(await alice.slash(club.channel, "crosshairs-series start", opponent=bob))
    await bob.click(declined, label="Decline")
    assert "declined by bob" in message(club.channel, declined.id).content

    waited = answer(
        await alice.slash(club.channel, "crosshairs-series start", opponent=carol, games=1)
    )
    clock.advance(INVITATION_TIMEOUT + 1)
    late = await carol.click(waited, label="Accept")
    assert "expired" in answer(late).content
    assert club.channel.threads == [] and await stored_series(simcord_bot, club) == []


async def test_an_aborted_series_game_is_played_again_and_its_board_loses_its_buttons(
    club: Club, simcord_bot: CrosshairsBot
) -> None:
    alice, bob = club.alice, club.bob
    await club.start_series(alice, bob, games=2)
    (thread,) = club.channel.threads
    first = await current_match(simcord_bot, thread)
    first_board = first.record.board_message_id

    await bob.slash(thread, "crosshairs abort")

    replay = await current_match(simcord_bot, thread)
    assert replay.id != first.id and not replay.over
    stored = (await stored_series(simcord_bot, club))[0]
    assert stored.status is SeriesStatus.ACTIVE and stored.games_played == 0
    assert [g.match_id for g in stored.games] == [replay.id]  # still game 1
    assert any("Game 1 of series #1 was aborted" in m.content for m in thread.history())
    assert first_board is not None
    assert message(thread, first_board).components == []


async def test_a_series_of_three_waits_for_every_invited_player(
    club: Club, simcord_bot: CrosshairsBot
) -> None:
    alice, bob, carol = club.alice, club.bob, club.carol
    asked = await alice.slash(
        club.channel, "crosshairs-series start", opponent=bob, player3=carol, games=1
    )
    invitation = answer(asked)
    await bob.click(invitation, label="Accept")
    assert "Accepted: bob" in message(club.channel, invitation.id).content
    assert club.channel.threads == [] and await stored_series(simcord_bot, club) == []
    twice = await bob.click(message(club.channel, invitation.id), label="Accept")
    assert "already accepted" in answer(twice).content

    await carol.click(message(club.channel, invitation.id), label="Accept")
    (thread,) = club.channel.threads
    live = await current_match(simcord_bot, thread)
    assert [e.user_id for e in live.seats] == [alice.id, bob.id, carol.id]
