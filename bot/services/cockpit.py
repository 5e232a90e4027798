"""The cockpit: the choices a player is offered, one stage at a time.

A turn is flown by pressing buttons: pick a plane (or *Place*), then the manoeuvre
(Climb, Level, Swoop, Power dive, Immelmann …), then the turn (left, straight, right).
Shots and *Hold fire* / *End dive* appear when they are legal. Only legal choices are
enabled. This module is the Discord-free logic: a stage is a *path* of the choices made
so far, and :func:`panel` lists what may be chosen next; the Discord view only draws it.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules import board, steps
from rules.game import Game
from rules.steps import Step

KIND_LABELS = {
    steps.CLIMB: "Climb",
    steps.LEVEL: "Level",
    steps.LEVEL1: "Level 1",
    steps.SWOOP: "Swoop",
    steps.POWER: "Power dive",
    steps.IMMELMANN: "Immelmann",
    steps.CRASH: "Crash",
}
TURN_LABELS = (
    (steps.LEFT, "↺ Left", "<"),
    (steps.STRAIGHT, "↑ Straight", ""),
    (steps.RIGHT, "Right ↻", ">"),
)
PLACE_KEY = "+"
CLOUD_KEY = "~"


@dataclass(frozen=True)
class Choice:
    """One button: ``path`` is where it leads, or ``token`` is the step it plays."""

    label: str
    path: tuple[str, ...] = ()
    token: str | None = None
    enabled: bool = True
    style: str = "secondary"  # primary, secondary, success or danger


@dataclass(frozen=True)
class Panel:
    title: str
    choices: tuple[Choice, ...]
    highlight_cells: frozenset[int] = frozenset()
    highlight_plane: int | None = None


def panel(game: Game, path: tuple[str, ...] = ()) -> Panel:
    """The choices at ``path``; an unknown or outdated path falls back to the start."""
    legal = game.legal_steps()
    if game.phase == "setup":
        row = path[1] if len(path) == 2 and path[0] == CLOUD_KEY else None
        return _cloud_cells(legal, row) if row and row in board.ROWS else _cloud_rows(legal)
    if path[:1] == (PLACE_KEY,):
        if len(path) == 1:
            return _place_cells(legal)
        if len(path) == 2 and board.is_cell_name(path[1]):
            return _place_facings(legal, board.cell(path[1]))
    elif path and board.is_cell_name(path[0]):
        plane = game.plane_at(board.cell(path[0]))
        if plane is not None:
            if len(path) == 1:
                return _manoeuvres(game, legal, plane.cell)
            if len(path) == 2:
                return _turns(game, legal, plane.cell, path[1])
    return _start(game, legal)


def _start(game: Game, legal: list[Step]) -> Panel:
    choices: list[Choice] = []
    for s in legal:
        if s.kind == steps.SHOOT:
            choices.append(
                Choice(f"🎯 Fire at {board.name(s.cell)}", token=s.token, style="danger")
            )
    diver = game.plane(game.diving) if game.diving >= 0 else None
    if diver is not None:
        here = board.name(diver.cell)
        for kind in (steps.SWOOP, steps.POWER, steps.IMMELMANN):
            if any(s.kind == kind and s.cell == diver.cell for s in legal):
                choices.append(_kind_choice(here, kind, "primary"))
        choices.append(Choice("End dive", token=steps.END, style="success"))
    acting = sorted(
        {s.cell for s in legal if s.is_manoeuvre and (diver is None or s.cell != diver.cell)}
    )
    for c in acting:
        p = game.plane_at(c)
        height = f" · h{p.height}" if p is not None else ""
        choices.append(Choice(f"✈ {board.name(c)}{height}", path=(board.name(c),), style="primary"))
    if any(s.kind == steps.PLACE for s in legal):
        choices.append(
            Choice(
                f"➕ Place ({game.seat(game.active).reserve} left)",
                path=(PLACE_KEY,),
                style="primary",
            )
        )
    if diver is None and steps.END_STEP in legal:
        choices.append(Choice("Hold fire", token=steps.END, style="success"))
    if diver is not None:
        title = (
            f"Diving at {board.name(diver.cell)}, height {diver.height}: go on, or end the dive."
        )
    elif acting or any(s.kind == steps.PLACE for s in legal):
        title = "Pick a plane to fly, or place one."
    else:
        title = "Fire, or hold fire to end your turn."
    return Panel(title, tuple(choices), frozenset(acting), diver.id if diver else None)


def _kind_choice(here: str, kind: str, style: str) -> Choice:
    if kind in (steps.IMMELMANN, steps.CRASH):
        return Choice(
            KIND_LABELS[kind],
            token=f"{here}{kind}",
            style="danger" if kind == steps.CRASH else style,
        )
    return Choice(KIND_LABELS[kind], path=(here, kind), style=style)


def _manoeuvres(game: Game, legal: list[Step], cell: int) -> Panel:
    here = board.name(cell)
    mine = [s for s in legal if s.is_manoeuvre and s.cell == cell]
    choices = []
    for kind in KIND_LABELS:
        enabled = any(s.kind == kind for s in mine)
        if kind in (steps.LEVEL1, steps.IMMELMANN, steps.CRASH) and not enabled:
            continue  # shown only where the rules offer them, to keep the panel short
        c = _kind_choice(here, kind, "primary")
        choices.append(Choice(c.label, c.path, c.token, enabled, c.style))
    choices.append(Choice("Back", path=(), style="secondary"))
    plane = game.plane_at(cell)
    return Panel(
        f"The plane at {here} (height {plane.height if plane else '?'}): choose its manoeuvre.",
        tuple(choices),
        _destinations(game, mine),
        plane.id if plane else None,
    )


def _turns(game: Game, legal: list[Step], cell: int, kind: str) -> Panel:
    here = board.name(cell)
    mine = {s.token: s for s in legal if s.cell == cell and s.kind == kind and s.is_manoeuvre}
    choices = [
        Choice(
            label,
            token=f"{here}{kind}{suffix}",
            enabled=f"{here}{kind}{suffix}" in mine,
            style="success",
        )
        for _, label, suffix in TURN_LABELS
    ]
    choices.append(Choice("Back", path=(here,)))
    plane = game.plane_at(cell)
    return Panel(
        f"{KIND_LABELS.get(kind, kind)} from {here}: then turn?",
        tuple(choices),
        _destinations(game, list(mine.values())),
        plane.id if plane else None,
    )


def _place_cells(legal: list[Step]) -> Panel:
    cells = sorted({s.cell for s in legal if s.kind == steps.PLACE})
    choices = [
        Choice(board.name(c), path=(PLACE_KEY, board.name(c)), style="primary") for c in cells
    ]
    choices.append(Choice("Back", path=()))
    return Panel("Place a plane: which cell of your home side?", tuple(choices), frozenset(cells))


def _place_facings(legal: list[Step], cell: int) -> Panel:
    here = board.name(cell)
    ok = {s.facing for s in legal if s.kind == steps.PLACE and s.cell == cell}
    choices = [
        Choice(d, token=f"+{here}{d}", enabled=i in ok, style="success")
        for i, d in enumerate(board.DIRECTIONS)
    ]
    choices.append(Choice("Back", path=(PLACE_KEY,)))
    return Panel(f"Place at {here}: facing which way?", tuple(choices), frozenset({cell}))


def _cloud_rows(legal: list[Step]) -> Panel:
    """Setup: first the row of the next cloud (a board has too many cells for one panel)."""
    open_rows = sorted({board.name(s.cell)[0] for s in legal if s.kind == steps.CLOUD})
    choices = [Choice(f"Row {r}", path=(CLOUD_KEY, r), style="primary") for r in open_rows]
    cells = frozenset(s.cell for s in legal if s.kind == steps.CLOUD)
    return Panel("Place a cloud: which row?", tuple(choices), cells)


def _cloud_cells(legal: list[Step], row: str) -> Panel:
    cells = [s for s in legal if s.kind == steps.CLOUD and board.name(s.cell)[0] == row]
    choices = [Choice(board.name(s.cell), token=s.token, style="success") for s in cells]
    choices.append(Choice("Back", path=()))
    return Panel(f"Place a cloud in row {row}:", tuple(choices), frozenset(s.cell for s in cells))


def _destinations(game: Game, options: list[Step]) -> frozenset[int]:
    """Where the plane can end up with these steps (for the preview's highlight)."""
    found = set()
    for s in options:
        trial = game.copy(with_history=False)
        mover = trial.plane_at(s.cell)
        trial.play(s)
        if mover is not None:
            moved = trial.plane(mover.id)
            if moved is not None:
                found.add(moved.cell)
    return frozenset(found)
