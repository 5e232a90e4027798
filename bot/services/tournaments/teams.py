"""Team events: in a team mode (2 v 2, 3 v 3) teams are the entrants. A captain invites
the other members; once every one of them has accepted, the team enters under the
captain's id. From then on the event treats the team as one player (paired and ranked as
one: :mod:`competition.teams`), and each pairing of two teams plays one series at a
table of the team mode, its members in the mode's seats for their side.

A team's rating is its members' mean in the team family; it seeds the team at the start.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.services.live import AlreadyOver, MatchError, NotYours
from bot.services.tournaments.plan import team_size
from competition.teams import Team
from i18n import _
from storage.errors import StorageError
from storage.players import PlayerRepo
from storage.tournaments import Tournament, TournamentRepo, TournamentStatus


class TeamDesk:
    """Team invitations and the entered teams of a team event."""

    def __init__(self, repo: TournamentRepo, players: PlayerRepo) -> None:
        self.repo = repo
        self.players = players

    async def form_team(
        self,
        tid: int,
        guild_id: int | None,
        captain: tuple[int, str],
        others: Sequence[tuple[int, str]],
    ) -> Tournament:
        """The captain proposes a team with ``others``; they are invited to accept."""
        t = await self._team_event(tid, guild_id)
        size = team_size(t.mode)
        assert size is not None
        members = [captain, *others]
        if len({u for u, _ in members}) != len(members):
            raise MatchError(_("a team needs different players"))
        if len(members) != size:
            raise MatchError(
                _(
                    "a team of {mode} has {size} players: you and {more} more",
                    mode=t.mode,
                    size=size,
                    more=size - 1,
                )
            )
        try:
            await self.repo.form_team(tid, captain[0], members)
        except StorageError:
            raise MatchError(_("someone in that team is already in a team of this event")) from None
        return t

    async def accept_team(self, tid: int, guild_id: int | None, captain: int, user: int) -> bool:
        """Accept an invitation; True when that completed the team and entered it. Of
        two presses at once only one gets past the stored claim."""
        await self._team_event(tid, guild_id)
        invited = {m.user_id for m in await self.repo.team_members(tid) if m.captain_id == captain}
        if user not in invited or user == captain:
            raise NotYours(_("this invitation is not for you"))
        if not await self.repo.accept_team(tid, captain, user):
            raise AlreadyOver(_("you have already accepted"))
        members = [m for m in await self.repo.team_members(tid) if m.captain_id == captain]
        if not all(m.accepted for m in members):
            return False
        try:
            await self.repo.enter(tid, captain)
        except StorageError:
            return False  # entered already: the last two members accepted at once
        return True

    async def decline_team(self, tid: int, guild_id: int | None, captain: int, user: int) -> None:
        """A member (or the captain) calls the team off before it has entered."""
        await self._team_event(tid, guild_id)
        invited = {m.user_id for m in await self.repo.team_members(tid) if m.captain_id == captain}
        if user not in invited:
            raise NotYours(_("this invitation is not for you"))
        if any(e.user_id == captain for e in await self.repo.entries(tid)):
            raise MatchError(_("that team has entered already: the captain can leave the event"))
        await self.repo.disband_team(tid, captain)

    async def teams(self, tid: int) -> dict[int, Team]:
        """The entered teams by captain, members in seat order (the captain first)."""
        entered = {e.user_id for e in await self.repo.entries(tid)}
        found: dict[int, list[int]] = {}
        for m in await self.repo.team_members(tid):
            if m.captain_id in entered:
                found.setdefault(m.captain_id, []).append(m.user_id)
        return {c: Team(str(c), tuple(str(u) for u in users)) for c, users in found.items()}

    async def entrant_names(self, tid: int, user_ids: list[int]) -> dict[int, str]:
        """How the standings name entrants: a player, or a team as "ann & bo"."""
        teams = await self.teams(tid)
        members = [int(u) for c in user_ids if c in teams for u in teams[c].members]
        names = await self.players.names([*user_ids, *members])
        for captain in set(user_ids) & set(teams):
            names[captain] = " & ".join(names.get(int(u), "?") for u in teams[captain].members)
        return names

    async def _team_event(self, tid: int, guild_id: int | None) -> Tournament:
        t = await self.repo.get(tid)
        if t.guild_id != guild_id:
            raise MatchError(
                _("there is no {kind} #{number} here", kind=_("tournament"), number=tid)
            )
        if team_size(t.mode) is None:
            raise MatchError(_("{name} is for single players: press **Join**", name=t.name))
        if t.status is not TournamentStatus.OPEN:
            raise MatchError(_("{name} is no longer taking entries", name=t.name))
        return t
