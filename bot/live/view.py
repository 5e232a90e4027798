"""What the live board's page is sent: a match as one viewer sees it, in their language.

Everything the page shows is worked out here and sent whole, so the page only draws it:
the board (planes, clouds), the seats, the turn so far and the position in words, the
clock, the draw offer, the rematch at the end; and, for the player to move only, every
choice they have, each one whole action (a plane's end pose, a placement, a shot, ending
the turn or the dive) played by one tap. The board's geometry comes from
:mod:`render.geometry`, the words from :mod:`rules.words`, the end poses from
:mod:`bot.services.poses` (the cockpit's).
"""

from __future__ import annotations

from typing import Any

from bot.services.live import LiveMatch
from bot.services.poses import EndPose, placements, plane_actions
from bot.services.rematch import why
from bot.services.rematch_offers import Outcome, RematchOffer
from i18n import N_, _
from render.geometry import Layout
from render.palette import DEFAULT_PALETTE, PALETTES, SHAPES, seat_colours
from rules import board, steps
from rules.achievements import CARDS, claims
from rules.words.common import seat_name
from rules.words.scene import position_text
from rules.words.telling import told_text

WIDTH = 1000  # the board's drawing units (the page scales the SVG)
TEXTS = {  # the page's own words, sent in the viewer's language
    "place": N_("Place a plane instead"),
    "list": N_("Every choice as a list"),
    "choose": N_("Where does it end up? Tap a highlighted cell."),
    "watching": N_("Watching"),
    "waiting": N_("Waiting for your turn"),
    "draw": N_("Offer draw"),
    "accept": N_("Accept draw"),
    "decline": N_("Decline draw"),
    "resign": N_("Resign"),
    "sure": N_("Really resign? This cannot be undone."),
    "yes": N_("Yes, resign"),
    "no": N_("No, play on"),
    "rematch": N_("Rematch"),
    "rematch_accept": N_("Accept"),
    "rematch_decline": N_("Decline"),
    "withdraw": N_("Withdraw"),
    "go": N_("Go to the rematch"),
    "takeback": N_("Take back my last turn"),
    "takeback_accept": N_("Agree to the takeback"),
    "takeback_decline": N_("Refuse the takeback"),
    "elsewhere": N_("in another channel"),
    "none": N_("No match is being played here yet."),
    "challenges": N_("Challenges"),
    "new_challenge": N_("New challenge"),
    "opponent": N_("Opponent"),
    "rules": N_("Rules"),
    "planes": N_("Planes each"),
    "rated": N_("Rated"),
    "send_challenge": N_("Challenge"),
    "nobody": N_(
        "Nobody else has this live board open: play the computer, or ask a friend to join "
        "and challenge them."
    ),
    "challenge_accept": N_("Accept"),
    "challenge_decline": N_("Decline"),
    "position": N_("The position in words"),
    "clock": N_("Time left in this turn"),
    "lost": N_("The connection was lost; reconnecting…"),
    "cards": N_("Cards in play"),
    "claimed": N_("claimed by {who}"),
}


def texts() -> dict[str, str]:
    return {key: _(text) for key, text in TEXTS.items()}


def geometry() -> dict[str, Any]:
    """Where each cell is drawn (the board picture's own layout), and its name."""
    layout = Layout.for_size(WIDTH, 2)
    top = layout.board_top
    cells = []
    for c in board.CELLS:
        x, y = layout.centre(c)
        cells.append({"name": board.name(c), "x": round(x, 1), "y": round(y - top, 1)})
    height = layout.board_bottom - top
    return {"width": WIDTH, "height": round(height), "r": round(layout.r, 2), "cells": cells}


def _hex(colour: tuple[int, int, int]) -> str:
    return "#{:02x}{:02x}{:02x}".format(*colour)


def state(
    live: LiveMatch,
    viewer: int | None,
    watchers: list[str],
    left: float | None,
    palette: str = DEFAULT_PALETTE,
) -> dict[str, Any]:
    """The match as ``viewer`` sees it now (``left``: seconds on the turn's clock), its
    seats in ``palette``'s colours."""
    game = live.game
    colours = seat_colours(game.mode, PALETTES[palette])
    to_move = None if live.over else game.to_move
    seats = []
    for s in range(game.seats):
        seat = game.seat(s)
        seats.append(
            {
                "name": seat_name(game, live.names, s),
                "colour": _hex(colours[s]),
                "shape": SHAPES[s],
                "reserve": seat.reserve,
                "out": seat.out,
                "you": viewer is not None and live.seats[s].user_id == viewer,
                "to_move": s == to_move,
                "offers_draw": s in live.draw_offers,
            }
        )
    planes = [
        {
            "cell": p.cell,
            "facing": p.facing,
            "height": p.height,
            "seat": p.seat,
            "diving": p.id == game.diving,
        }
        for p in game.planes()
    ]
    now = [t for t in live.telling().turns if t.turn == game.turn]
    so_far = told_text(game, now[0], live.names) if now and not game.is_over else ""
    mine = viewer is not None and not live.over and live.user_to_move() == viewer
    return {
        "type": "state",
        "match": live.id,
        "ply": live.ply,
        "title": f"Crosshairs #{live.id} · {_(game.mode.title)}",
        "seats": seats,
        "planes": planes,
        "clouds": sorted(game.clouds),
        "fire": lines_of_fire(live),
        "cards": cards_in_play(live),
        "status": live.status_line(),
        "so_far": so_far,
        "words": position_text(game, live.names),
        "left": None if left is None or live.over else max(0.0, round(left, 1)),
        "over": live.over,
        "seated": viewer is not None and bool(live.seats_of(viewer)),
        "draw_offered": bool(live.draw_offers),
        "watchers": watchers,
        "choices": choices(live) if mine else None,
    }


def cards_in_play(live: LiveMatch) -> list[dict[str, Any]]:
    """In an achievement series' game, its pool of cards (docs/series.md): each with its
    rule, its points and who claimed it in this game so far (None: still to be won)."""
    game = live.game
    claimed = {c.card: c.seat for c in claims(game)}
    return [
        {
            "card": key,
            "name": _(CARDS[key].name),
            "rule": _(CARDS[key].rule),
            "points": CARDS[key].points,
            "by": seat_name(game, live.names, claimed[key]) if key in claimed else None,
        }
        for key in game.settings.cards
    ]


def lines_of_fire(live: LiveMatch) -> list[dict[str, int]]:
    """The lines of fire the thread's board draws: those of the side to move's planes,
    in play, each from the plane to the last cell it reaches (a plane there is in it)."""
    if live.over:
        return []
    return [
        {"seat": p.seat, "from": p.cell, "to": cells[-1]} for p, cells in live.game.lines_of_fire()
    ]


def rematch(
    live: LiveMatch,
    viewer: int,
    offer: RematchOffer | None,
    outcome: Outcome | None,
    ask: bool,
    go: int | None,
) -> dict[str, Any] | None:
    """The finished match's rematch as ``viewer`` sees it: ``ask``, Rematch may be asked
    for; an open ``offer`` to answer (those asked), to withdraw (its host) or to wait
    for; else what became of it (``outcome``), with ``go``, the new match the viewer may
    open. None: nothing to show."""
    said: dict[str, Any] = {
        "text": "",
        "ask": False,
        "offer": None,
        "answer": False,
        "withdraw": False,
        "go": go,
    }
    if outcome is not None:
        if outcome.rematch is not None:
            where = _("match #{id}", id=outcome.rematch)
            said["text"] = "🔁 " + _("The rematch is on: {where}.", where=where)
        elif outcome.how == "withdrawn":
            said["text"] = "❌ " + _("Rematch withdrawn.")
        elif outcome.how == "declined":
            said["text"] = "❌ " + _("Rematch declined by {name}.", name=outcome.by)
        else:
            said["text"] = why(outcome)
        return said
    if offer is not None:
        said["offer"] = offer.id
        if viewer == offer.host.user_id:
            waiting = [e.name for e in live.seats if e.user_id in offer.waiting]
            said["text"] = _("Rematch asked: waiting for {names}.", names=", ".join(waiting))
            said["withdraw"] = True
        elif viewer in offer.waiting or viewer not in offer.asked:
            said["text"] = "🔁 " + _("{host} asks for a rematch.", host=offer.host.name)
            said["answer"] = viewer in offer.waiting
        else:
            said["text"] = "✅ " + _("Accepted: waiting for the others.")
        return said
    if ask:
        said["ask"] = True
        return said
    return None


def _pose(p: EndPose) -> dict[str, Any]:
    label = " · ".join(part for part in (p.short, p.effect, p.sentence) if part)
    return {
        "tokens": list(p.tokens),
        "cell": p.cell,
        "facing": p.facing,
        "height": p.height,
        "shots": list(p.shots),
        "label": label,
    }


def choices(live: LiveMatch) -> dict[str, Any]:
    """Every choice of the player to move, each one tap: the planes that may act with
    their end poses, the placements, the shots and clouds, ending the turn or dive."""
    game = live.game
    legal = game.legal_steps()
    acting = sorted({s.cell for s in legal if s.is_manoeuvre})
    if game.diving >= 0:
        diver = game.plane(game.diving)
        acting = [diver.cell] if diver is not None else acting
    planes = [{"cell": c, "poses": [_pose(p) for p in plane_actions(game, c)]} for c in acting]
    can_place = any(s.kind == steps.PLACE for s in legal)
    diving = game.diving >= 0
    end = None
    if steps.END_STEP in legal:
        end = {"token": steps.END, "label": _("End dive") if diving else _("Hold fire")}
    return {
        "planes": planes,
        "places": [_pose(p) for p in placements(game)] if can_place else [],
        "shots": [
            {
                "token": s.token,
                "cell": s.cell,
                "label": _("Fire at {cell}", cell=board.name(s.cell)),
            }
            for s in legal
            if s.kind == steps.SHOOT
        ],
        "clouds": [
            {"token": s.token, "cell": s.cell, "label": board.name(s.cell)}
            for s in legal
            if s.kind == steps.CLOUD
        ],
        "end": end,
    }
