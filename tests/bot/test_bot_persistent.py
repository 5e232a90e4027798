"""Persistent buttons are rebuilt from their custom ids by one rule
(:class:`bot.ui.components.Persistent`): the template's groups, in order, are the
constructor's arguments, numbers where the constructor takes numbers."""

from __future__ import annotations

from typing import Any

from bot.ui.components import Persistent
from bot.ui.invites import LobbyButton
from bot.ui.learn import LessonMenu
from bot.ui.tournaments.registration import RegistrationButton
from bot.ui.tournaments.teams import TeamButton


async def rebuilt(kind: type[Persistent[Any]], custom_id: str) -> Any:
    match = kind.__discord_ui_compiled_template__.fullmatch(custom_id)
    assert match is not None, custom_id
    made = await kind.from_custom_id(None, None, match)  # type: ignore[arg-type]
    assert isinstance(made, kind) and made.custom_id == custom_id
    return made


async def test_groups_become_the_constructors_arguments() -> None:
    sign_up = await rebuilt(RegistrationButton, "xh:tn:12:join")
    assert (sign_up.tid, sign_up.op) == (12, "join")
    team = await rebuilt(TeamButton, "xh:tt:3:44:decline")
    assert (team.tid, team.captain, team.op) == (3, 44, "decline")
    await rebuilt(LessonMenu, "xh:tl")


async def test_a_button_that_reads_more_says_how() -> None:
    seated = await rebuilt(LobbyButton, "xh:lb:7:sit:2")
    assert (seated.table_id, seated.op, seated.seat) == (7, "sit", 2)
    unseated = await rebuilt(LobbyButton, "xh:lb:7:leave:")
    assert unseated.seat is None  # no seat in the id


def test_the_base_is_never_matched_itself() -> None:
    assert Persistent.__discord_ui_compiled_template__.match("xh:tn:12:join") is None
