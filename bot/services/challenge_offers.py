"""A challenge as the domain sees it (:mod:`bot.services.challenges`) and its steps, on
their own so that the events can name them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from bot.services.live import ClockSettings, Occupant
from rules.modes import Settings
from storage.challenges import NewChallenge, StoredChallenge

ChallengeStep = Literal["asked", "declined", "withdrawn", "started"]


@dataclass
class Challenge:
    """A duel offered by ``host`` to ``invited``: played in ``channel_id`` (the match's
    thread hangs off it), asked in ``asked_in`` (that channel, or a thread of it where
    the live board was opened)."""

    id: int
    host: Occupant
    invited: Occupant
    settings: Settings
    clouds: str
    clock: ClockSettings
    channel_id: int
    guild_id: int | None
    rated: bool
    asked_in: int
    created: float

    @property
    def seats(self) -> tuple[Occupant, Occupant]:
        return (self.host, self.invited)

    def involves(self, user_id: int) -> bool:
        return user_id in (self.host.user_id, self.invited.user_id)

    def stored(self) -> NewChallenge:
        """The challenge as storage keeps it (a person challenged: the computer's is
        played at once, never stored)."""
        assert self.host.user_id is not None and self.invited.user_id is not None
        s = self.settings
        return NewChallenge(
            guild_id=self.guild_id,
            channel_id=self.channel_id,
            asked_in=self.asked_in,
            host_id=self.host.user_id,
            host_name=self.host.name,
            invited_id=self.invited.user_id,
            invited_name=self.invited.name,
            ruleset=s.ruleset,
            planes=s.planes,
            fire_mode=s.fire,
            variants=",".join(sorted(s.variants)),
            clouds=self.clouds,
            clock=self.clock.to_json(),
            rated=self.rated,
            created=self.created,
        )

    @classmethod
    def of(cls, stored: StoredChallenge) -> Challenge:
        settings = Settings(
            mode="duel",
            ruleset=stored.ruleset,
            planes=stored.planes,
            fire=stored.fire_mode,
            variants=frozenset(v for v in stored.variants.split(",") if v),
        )
        return cls(
            id=stored.id,
            host=Occupant(stored.host_id, stored.host_name),
            invited=Occupant(stored.invited_id, stored.invited_name),
            settings=settings,
            clouds=stored.clouds,
            clock=ClockSettings.from_json(stored.clock),
            channel_id=stored.channel_id,
            guild_id=stored.guild_id,
            rated=stored.rated,
            asked_in=stored.asked_in,
            created=stored.created,
        )
