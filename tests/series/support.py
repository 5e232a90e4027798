"""What the series tests share: the club that plays, and playing through commands."""

from __future__ import annotations

from typing import Any

from support.replies import answer

from bot.discord_app import CrosshairsBot
from bot.services.live import LiveMatch
from rules.ai.player import ComputerPlayer


class Club:
    """A guild with a channel and four members who play: alice, bob, carol, dave."""

    def __init__(self, env: Any) -> None:
        self.env = env
        self.guild = env.create_guild()
        self.channel = self.guild.create_text_channel("dogfights")
        self.alice = self.guild.add_member(env.create_user("alice"))
        self.bob = self.guild.add_member(env.create_user("bob"))
        self.carol = self.guild.add_member(env.create_user("carol"))
        self.dave = self.guild.add_member(env.create_user("dave"))
        self.people = [self.alice, self.bob, self.carol, self.dave]

    def member(self, user_id: int | None) -> Any:
        return next(p for p in self.people if p.id == user_id)

    async def start_series(self, organiser: Any, *invited: Any, **options: Any) -> Any:
        """``/crosshairs-series start`` by ``organiser``, then every invited person
        presses Accept; returns what answered the last acceptance."""
        named = dict(
            zip(("opponent", "player3", "player4", "player5", "player6"), invited, strict=False)
        )
        result = await organiser.slash(self.channel, "crosshairs-series start", **named, **options)
        invitation = said(result)
        for person in invited:
            result = await person.click(invitation, label="Accept")
        return result


def said(result: Any) -> Any:
    """The bot's visible answer to a command: its first follow-up, or its response. A
    follow-up showing the board is the match's new board (posted through the
    interaction), not the answer."""
    answers = [
        m for m in result.followups if not any(a.filename == "board.png" for a in m.attachments)
    ]
    return (answers or [result.response])[0]


async def current_match(bot: CrosshairsBot, thread: Any) -> LiveMatch:
    live = await bot.games.by_thread(thread.id)
    assert live is not None, "no match in this thread"
    return live


def _stopped() -> float:
    return 0.0


async def fly(club: Club, bot: CrosshairsBot, thread: Any, live: LiveMatch, steps: int) -> None:
    """Fly ``steps`` steps of ``live`` by ``/crosshairs move``, each the step the medium
    computer would choose for whoever is to move (the test reads the game to pick a
    legal step; it acts only as the players do). Medium, because it fights: its games
    reach a kill, and so a card claimed mid-game, within a few dozen steps."""
    for _ in range(steps):
        if live.game.is_over:
            return
        seat = live.game.to_move
        assert seat is not None
        # A clock that never moves: the search runs to its end, so the same steps are
        # flown however busy the machine is (its deadline only cuts the search short).
        computer = ComputerPlayer("medium", seed=seat, clock=_stopped)
        step = computer.choose(live.game.copy(with_history=False))
        mover = club.member(live.seats[seat].user_id)
        result = await mover.slash(thread, "crosshairs move", tokens=step.token)
        # the answer to the mover, not the board a turn's end posts as a follow-up
        assert answer(result).content.startswith("✅"), answer(result).content
