"""Round times: when each round opens, when players are reminded, who forfeits as a no-show.

Everything here is a function of the time it is given, so the service can ask again after
a restart and get the same answers. Round ``r`` (from 1) opens at ``start + (r - 1) *
length``, but never before the round before it has finished: a round opens at its set
time once every result of the previous round is in, or as soon as they are if that is
later. Players are reminded ``remind_before`` ahead of the opening. A player who has not
made their first move ``grace`` after their pairing opened is a no-show: their opponent
wins by forfeit, and when both are absent both lose (0-0, a forfeit); at a table every
player present scores a win.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from competition.model import Pairing, PairingResult


@dataclass(frozen=True)
class RoundTimes:
    start: datetime
    length: timedelta
    remind_before: timedelta = timedelta(minutes=5)
    grace: timedelta = timedelta(minutes=5)

    def __post_init__(self) -> None:
        if self.length <= timedelta(0) or self.grace < timedelta(0):
            raise ValueError("a round needs a positive length and a grace of zero or more")
        if not timedelta(0) <= self.remind_before <= self.length:
            raise ValueError("the reminder must come within one round length of the opening")

    def set_time(self, round_no: int) -> datetime:
        """When round ``round_no`` is set to open."""
        if round_no < 1:
            raise ValueError("rounds count from 1")
        return self.start + (round_no - 1) * self.length

    def opens(self, round_no: int, previous_done: datetime | None) -> datetime:
        """When the round really opens, given when the previous round's last result came in."""
        planned = self.set_time(round_no)
        return planned if previous_done is None else max(planned, previous_done)

    def remind_at(self, round_no: int) -> datetime:
        return self.set_time(round_no) - self.remind_before

    def should_remind(self, round_no: int, now: datetime) -> bool:
        return self.remind_at(round_no) <= now < self.set_time(round_no)

    def no_show_deadline(self, opened: datetime) -> datetime:
        return opened + self.grace


def no_show_results(
    pairings: Sequence[Pairing],
    opened: datetime,
    now: datetime,
    arrived: Collection[str],
    times: RoundTimes,
) -> list[PairingResult]:
    """Forfeit results for the pairings with a player absent past the grace period.

    ``arrived`` holds everyone who has moved in this round; byes never forfeit. Before the
    deadline nothing forfeits, so asking early is harmless.
    """
    if now < times.no_show_deadline(opened):
        return []
    forfeits: list[PairingResult] = []
    for pairing in pairings:
        if pairing.is_bye:
            continue
        present = [p in arrived for p in pairing.seats]
        if all(present):
            continue
        points = tuple(1.0 if here else 0.0 for here in present)
        forfeits.append(PairingResult(pairing.seats, points, forfeit=True))
    return forfeits
