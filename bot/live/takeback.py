"""Takebacks on the live board: asked for, accepted or declined on the page, through the
service the thread's command and buttons use (:mod:`bot.services.takeback`), checked as
they check a press (only a player who has flown a turn, only in an unrated game, an
answer only from those asked, only at the ply the request was asked at, once). The
service publishes each step; the live board shows it on every page of the match, the
thread posts or settles the request (:class:`bot.ui.takeback.TakebackThread`).

Where the bot only answers (no thread to post the request in) the page does not ask:
``/crosshairs takeback`` says why there.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import Any

from bot.live.received import number
from bot.services.life import MatchLife
from bot.services.live import LiveMatch, Update
from bot.services.refusal import Refusal
from bot.services.takeback import Answer, Takeback, Takebacks
from i18n import _, n_

OPS = ("ask", "accept", "decline")
Later = Callable[[Coroutine[Any, Any, None]], None]  # runs a showing in a task of its own


class PageTakebacks:
    def __init__(
        self,
        takebacks: Takebacks,
        life: MatchLife,
        posts: Callable[[LiveMatch], bool],
        later: Later,
    ) -> None:
        self.takebacks = takebacks
        self.life = life
        self.posts = posts  # whether the match has a thread to post a request in
        self.later = later

    async def handle(self, user: int, live: LiveMatch, message: dict[str, Any]) -> None:
        """``{"type": "takeback", "op": "ask"}``, or ``"accept"`` / ``"decline"`` with
        the request's ``"takeback"`` number: acted on, or refused changing nothing."""
        op, request = message.get("op"), message.get("takeback")
        if op not in OPS or (op != "ask" and not number(request)):
            raise Refusal(_("the live board did not understand that message"))
        service = self.takebacks
        if not self.posts(live):
            raise Refusal(_("a takeback needs a thread to be asked in, and this match has none"))
        update: Update | None
        if op == "ask":
            _asked, update = await service.request(live, user)
        elif number(request):
            asked = await service.find(request)
            if asked.match_id != live.id:  # another match's request: as if none
                raise Refusal(_("this takeback request is out of date: the game has moved on"))
            service.check(live, asked, user)
            said = await service.answer(asked, user, yes=op == "accept")
            update = await service.update(asked) if said is Answer.DONE else None
        if update is not None:  # the match went back: shown as any action is
            self.later(self.life.after(update))

    async def standing(self, live: LiveMatch) -> Standing | None:
        """``live``'s takeback as its pages show it, read once for all of them: the
        request standing, else whether the game lets a player ask. None: nothing."""
        if live.over:
            return None
        asked = await self.takebacks.standing(live)
        if asked is not None:
            return Standing(asked, askable=False)
        askable = self.posts(live) and not await self.takebacks.rated_reason(live)
        return Standing(None, askable)

    def shown(
        self, viewer: int, live: LiveMatch, standing: Standing | None
    ) -> dict[str, Any] | None:
        """What ``viewer``'s page shows of ``standing``: the request (to answer, or to
        wait for), else *Take back my last turn* if they have a turn to take back."""
        if standing is None:
            return None
        if standing.request is not None:
            return _request(live, viewer, standing.request)
        if not standing.askable:
            return None
        try:
            self.takebacks.has_a_turn_to_take_back(live, viewer)
        except Refusal:
            return None
        return {"text": "", "ask": True, "takeback": None, "answer": False}


@dataclass(frozen=True)
class Standing:
    """A match's takeback as every page of it shows it."""

    request: Takeback | None  # the request standing at its ply
    askable: bool  # with none, whether the game lets its players ask (unrated, a thread)


def _request(live: LiveMatch, viewer: int, asked: Takeback) -> dict[str, Any]:
    who = live.who(live.seats_of(asked.asker_id)[0])
    steps = asked.at_ply - asked.to_ply
    said: dict[str, Any] = {"ask": False, "takeback": asked.id, "answer": False}
    if viewer == asked.asker_id:
        waiting = [e.name for e in live.seats if e.user_id in asked.asked - asked.agreed]
        said["text"] = "↩️ " + _("Takeback asked: waiting for {names}.", names=", ".join(waiting))
    elif viewer in asked.agreed:
        said["text"] = "✅ " + _("Accepted: waiting for the others.")
    else:
        said["text"] = "↩️ " + n_(
            "{who} asks to take back their latest turn ({n} step).",
            "{who} asks to take back their latest turn ({n} steps).",
            steps,
            who=who,
        )
        said["answer"] = viewer in asked.asked
    return said
