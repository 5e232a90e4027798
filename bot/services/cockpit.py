"""The cockpit: the choices a player is offered, one stage at a time.

A plane action takes two presses: pick a plane, then where it ends up (a menu of every
end pose, :mod:`bot.services.poses`; the preview marks each cell reached with a letter
that the menu's options start with). Placements
are one menu of cell and facing pairs, on the first stage when there is room. Those who
prefer it fly *step by step*: the manoeuvre (each saying its cost and reach), then the
turn. Shots and *Hold fire* / *End dive* appear when they are legal; only legal choices
are enabled. This module is the Discord-free logic: a stage is a *path* of the choices
made so far, and :func:`panel` lists what may be chosen next; the Discord view draws it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from bot.services.poses import (
    EndPose,
    arrow_facing,
    cost_and_reach,
    placement_risk,
    placements,
    plane_actions,
)
from i18n import N_, _
from rules import board, steps
from rules.game import Game
from rules.steps import Step

# English, marked for translation (i18n); translated where a panel is built
KIND_LABELS = {
    steps.CLIMB: N_("Climb"),
    steps.LEVEL: N_("Level"),
    steps.LEVEL1: N_("Level 1"),
    steps.SWOOP: N_("Swoop"),
    steps.POWER: N_("Power dive"),
    steps.IMMELMANN: N_("Immelmann"),
    steps.CRASH: N_("Crash"),
}
TURN_LABELS = (
    (steps.LEFT, N_("↺ Left"), "<"),
    (steps.STRAIGHT, N_("↑ Straight"), ""),
    (steps.RIGHT, N_("Right ↻"), ">"),
)
PLACE_KEY = "+"
CLOUD_KEY = "~"
STEPS_KEY = "steps"
TO_KEY = "to"  # (plane, "to", cell): the end poses in one cell, when there are too many
GO = ">"  # a menu value starting with this navigates to the path after it
MENU_SIZE = 25  # Discord's most options in one select menu
MAX_ROWS = 5  # Discord's most component rows in one message


@dataclass(frozen=True)
class Choice:
    """One button: ``path`` is where it leads, or ``token`` is the step it plays."""

    label: str
    path: tuple[str, ...] = ()
    token: str | None = None
    enabled: bool = True
    style: str = "secondary"  # primary, secondary, success or danger


@dataclass(frozen=True)
class Option:
    """One entry of a menu: ``value`` is the notation it plays (tokens, space separated)."""

    value: str
    label: str
    description: str = ""


@dataclass(frozen=True)
class Menu:
    placeholder: str
    options: tuple[Option, ...]


@dataclass(frozen=True)
class Panel:
    title: str
    choices: tuple[Choice, ...]
    highlight_cells: frozenset[int] = frozenset()
    highlight_plane: int | None = None
    menus: tuple[Menu, ...] = ()
    # short labels of the highlighted cells (letters), which the menus' options start with
    labels: tuple[tuple[int, str], ...] = ()

    @property
    def rows(self) -> int:
        return len(self.menus) + -(-len(self.choices) // 5)


def panel(game: Game, path: tuple[str, ...] = ()) -> Panel:
    """The choices at ``path``; an unknown or outdated path falls back to the start."""
    legal = game.legal_steps()
    if game.phase == "setup":
        row = path[1] if len(path) == 2 and path[0] == CLOUD_KEY else None
        return _cloud_cells(legal, row) if row and row in board.ROWS else _cloud_rows(legal)
    if path[:1] == (PLACE_KEY,):
        if len(path) == 1:
            return _place_cells(game, legal)
    elif path and board.is_cell_name(path[0]):
        plane = game.plane_at(board.cell(path[0]))
        if plane is not None and any(s.cell == plane.cell for s in legal if s.is_manoeuvre):
            if len(path) == 1:
                return _end_poses(game, plane.cell)
            if path[1:] == (STEPS_KEY,):
                return _manoeuvres(game, legal, plane.cell)
            if len(path) == 3 and path[1] == TO_KEY and board.is_cell_name(path[2]):
                return _end_poses(game, plane.cell, board.cell(path[2]))
            if len(path) == 2:
                return _turns(game, legal, plane.cell, path[1])
    return _start(game, legal)


def _menus(
    poses: list[EndPose], what: str, labels: Mapping[int, str] | None = None
) -> tuple[Menu, ...]:
    """Menus of at most 25 options each, and at most four (the fifth row is buttons);
    each placeholder says which cells its options reach, and each option starts with
    its cell's label on the preview (``labels``)."""
    marks = labels or {}
    chunks = [poses[i : i + MENU_SIZE] for i in range(0, len(poses), MENU_SIZE)][: MAX_ROWS - 1]
    menus = []
    for chunk in chunks:
        more = f" ({_span([p.cell for p in chunk])})" if len(chunks) > 1 else ""
        # the effect straight after the pose: a phone's narrow menu shows a label's start
        options = tuple(Option(p.value, _clip(_label(marks, p)), _clip(p.cost)) for p in chunk)
        menus.append(Menu(_clip(f"{what}{more}", 150), options))
    return tuple(menus)


def _label(marks: Mapping[int, str], pose: EndPose) -> str:
    """``B · d4 ↗ h1 · 🎯 shoots down e5 · Swoop to d4, …``: the cell's letter, the pose,
    what it does that matters (shoots, crashes, is caught), the action in words."""
    parts = (f"{_mark(marks, pose.cell)}{pose.short}", pose.effect, pose.sentence)
    return " · ".join(p for p in parts if p)


def _span(cells: Sequence[int | None]) -> str:
    """The cells a menu holds, first to last in board order (its options may be sorted
    otherwise, e.g. placements facing the edge last)."""
    known = sorted({c for c in cells if c is not None})
    if not known:
        return _("lost")
    first, last = board.name(known[0]), board.name(known[-1])
    return first if first == last else _("{first} to {last}", first=first, last=last)


def _mark(labels: Mapping[int, str], cell: int | None) -> str:
    return f"{labels[cell]} · " if cell is not None and cell in labels else ""


def _cell_menus(here: str, poses: list[EndPose], labels: Mapping[int, str]) -> tuple[Menu, ...]:
    """Too many end poses for four menus: first the cell, then the pose in it."""
    by_cell: dict[int, list[EndPose]] = {}
    for p in poses:
        if p.cell is not None:
            by_cell.setdefault(p.cell, []).append(p)
    cells = sorted(by_cell)
    options = []
    for c in cells:
        heights = sorted({p.height for p in by_cell[c]})
        if len(heights) == 1:
            span = _("height {height}", height=heights[0])
        else:
            span = _("heights {low}–{high}", low=heights[0], high=heights[-1])
        ways = _("{n} ways to end there, {heights}", n=len(by_cell[c]), heights=span)
        options.append(
            Option(
                f"{GO}{here}/{TO_KEY}/{board.name(c)}",
                f"{_mark(labels, c)}{board.name(c)} · {ways}",
            )
        )
    menus = []
    for i in range(0, min(len(options), MENU_SIZE * (MAX_ROWS - 1)), MENU_SIZE):
        span = _span(cells[i : i + MENU_SIZE])
        menus.append(
            Menu(
                _("Plane at {cell}: which cell? ({cells})", cell=here, cells=span),
                tuple(options[i : i + MENU_SIZE]),
            )
        )
    return tuple(menus)


def _clip(text: str, size: int = 100) -> str:
    return text if len(text) <= size else text[: size - 1] + "…"


def _labels(poses: list[EndPose]) -> dict[int, str]:
    """A letter for each cell the poses reach, in board order: short enough for the
    preview to print in the cell, and the menus' options start with it."""
    cells = sorted({p.cell for p in poses if p.cell is not None})
    return {c: _letters(i) for i, c in enumerate(cells)}


def _letters(n: int) -> str:
    """``A`` … ``Z``, then ``AA``, ``AB`` …"""
    head = "" if n < 26 else _letters(n // 26 - 1)
    return head + chr(ord("A") + n % 26)


def _end_poses(game: Game, cell: int, to: int | None = None) -> Panel:
    """Where the plane at ``cell`` can end up: one menu entry per end pose (only those
    in the cell ``to``, when given). Beyond four menus' worth, a menu of cells first."""
    plane = game.plane_at(cell)
    assert plane is not None
    here = board.name(cell)
    found = plane_actions(game, cell)
    labels = _labels(found)  # before narrowing to ``to``: a cell keeps its letter
    if to is not None:
        found = [p for p in found if p.cell == to]
        labels = {to: labels[to]} if to in labels else {}
    diving = plane.id == game.diving
    choices = [] if diving else [Choice(_("Step by step"), path=(here, STEPS_KEY))]
    choices.append(Choice(_("Back"), path=() if to is None else (here,)))
    verb = _("dive on or end the dive") if diving else _("where it ends up")
    if len(found) > MENU_SIZE * (MAX_ROWS - 1):
        menus = _cell_menus(here, found, labels)
        verb = _("which cell it ends up in, then how")
    elif to is not None:
        where = _("Plane at {cell}: where to in {to}?", cell=here, to=board.name(to))
        menus = _menus(found, where, labels)
    else:
        menus = _menus(found, _("Plane at {cell}: where to?", cell=here), labels)
    return Panel(
        _(
            "The plane at {cell} (height {height}, {facing}): choose {what}; the preview "
            "marks each cell it can reach with the letter its options start with.",
            cell=here,
            height=plane.height,
            facing=arrow_facing(plane.facing),
            what=verb,
        ),
        tuple(choices),
        frozenset(p.cell for p in found if p.cell is not None),
        plane.id,
        menus,
        tuple(sorted(labels.items())),
    )


def _start(game: Game, legal: list[Step]) -> Panel:
    choices: list[Choice] = []
    for s in legal:
        if s.kind == steps.SHOOT:
            choices.append(
                Choice(
                    "🎯 " + _("Fire at {cell}", cell=board.name(s.cell)),
                    token=s.token,
                    style="danger",
                )
            )
    diver = game.plane(game.diving) if game.diving >= 0 else None
    if diver is not None:
        here = board.name(diver.cell)
        if any(s.kind in steps.DIVES and s.cell == diver.cell for s in legal):
            dive_on = "✈ " + _("Dive on from {cell}", cell=here)
            choices.append(Choice(dive_on, path=(here,), style="primary"))
        choices.append(Choice(_("End dive"), token=steps.END, style="success"))
    acting = sorted(
        {s.cell for s in legal if s.is_manoeuvre and (diver is None or s.cell != diver.cell)}
    )
    for c in acting:
        p = game.plane_at(c)
        height = " · " + _("h{n}", n=p.height) if p is not None else ""
        facing = f" {arrow_facing(p.facing)}" if p is not None else ""
        choices.append(
            Choice(f"✈ {board.name(c)}{height}{facing}", path=(board.name(c),), style="primary")
        )
    menus: tuple[Menu, ...] = ()
    can_place = any(s.kind == steps.PLACE for s in legal)
    if can_place:
        placing = _placing_menus(game)
        buttons = len(choices) + (diver is None and steps.END_STEP in legal)
        if len(placing) + -(-buttons // 5) <= MAX_ROWS:
            menus = placing
        else:
            choices.append(
                Choice(
                    "➕ " + _("Place ({n} left)", n=game.seat(game.active).reserve),
                    path=(PLACE_KEY,),
                    style="primary",
                )
            )
    if diver is None and steps.END_STEP in legal:
        choices.append(Choice(_("Hold fire"), token=steps.END, style="success"))
    if diver is not None:
        title = _(
            "Diving at {cell}, height {height}: go on, or end the dive.",
            cell=board.name(diver.cell),
            height=diver.height,
        )
    elif acting and can_place:
        title = _("Pick a plane to fly, or place one.")
    elif acting:
        title = _("Pick a plane to fly.")
    elif can_place:
        title = _("Place a plane.")
    else:
        title = _("Fire, or hold fire to end your turn.")
    return Panel(title, tuple(choices), frozenset(acting), diver.id if diver else None, menus)


def _placing_menus(game: Game) -> tuple[Menu, ...]:
    """The placements, sensible facings first, and those that put the nose to the edge
    in menus of their own that say so."""
    found = placements(game)
    risky = [
        p for p in found if p.cell is not None and placement_risk(game, p.cell, p.facing, p.height)
    ]
    sensible = [p for p in found if p not in risky]
    left = game.seat(game.active).reserve
    return _menus(sensible, _("Place a plane ({n} left)", n=left)) + _menus(
        risky, _("Risky placements: may have to crash")
    )


def _kind_choice(here: str, kind: str, style: str) -> Choice:
    if kind in (steps.IMMELMANN, steps.CRASH):
        return Choice(
            _(KIND_LABELS[kind]),
            token=f"{here}{kind}",
            style="danger" if kind == steps.CRASH else style,
        )
    return Choice(_(KIND_LABELS[kind]), path=(here, kind), style=style)


def _manoeuvres(game: Game, legal: list[Step], cell: int) -> Panel:
    here = board.name(cell)
    mine = [s for s in legal if s.is_manoeuvre and s.cell == cell]
    choices = []
    for kind in KIND_LABELS:
        enabled = any(s.kind == kind for s in mine)
        if kind in (steps.LEVEL1, steps.IMMELMANN, steps.CRASH) and not enabled:
            continue  # shown only where the rules offer them, to keep the panel short
        c = _kind_choice(here, kind, "primary")
        label = f"{c.label} ({cost_and_reach(kind)})"
        choices.append(Choice(label, c.path, c.token, enabled, c.style))
    choices.append(Choice(_("Back"), path=(here,), style="secondary"))
    plane = game.plane_at(cell)
    return Panel(
        _(
            "The plane at {cell} (height {height}): choose its manoeuvre.",
            cell=here,
            height=plane.height if plane else "?",
        ),
        tuple(choices),
        _destinations(game, mine),
        plane.id if plane else None,
    )


def _turns(game: Game, legal: list[Step], cell: int, kind: str) -> Panel:
    here = board.name(cell)
    mine = {s.token: s for s in legal if s.cell == cell and s.kind == kind and s.is_manoeuvre}
    choices = [
        Choice(
            _(label),
            token=f"{here}{kind}{suffix}",
            enabled=f"{here}{kind}{suffix}" in mine,
            style="success",
        )
        for _turn, label, suffix in TURN_LABELS
    ]
    choices.append(Choice(_("Back"), path=(here, STEPS_KEY)))
    plane = game.plane_at(cell)
    return Panel(
        _(
            "{manoeuvre} from {cell} ({cost}): then turn?",
            manoeuvre=_(KIND_LABELS.get(kind, kind)),
            cell=here,
            cost=cost_and_reach(kind) if kind in KIND_LABELS else "",
        ),
        tuple(choices),
        _destinations(game, list(mine.values())),
        plane.id if plane else None,
    )


def _place_cells(game: Game, legal: list[Step]) -> Panel:
    cells = sorted({s.cell for s in legal if s.kind == steps.PLACE})
    found = placements(game)
    labels = _labels(found)
    return Panel(
        _("Place a plane: which cell of your home side, facing which way?"),
        (Choice(_("Back"), path=()),),
        frozenset(cells),
        None,
        _menus(found, _("Place a plane: cell and facing"), labels),
        tuple(sorted(labels.items())),
    )


def _cloud_rows(legal: list[Step]) -> Panel:
    """Setup: first the row of the next cloud (a board has too many cells for one panel)."""
    open_rows = sorted({board.name(s.cell)[0] for s in legal if s.kind == steps.CLOUD})
    choices = [
        Choice(_("Row {row}", row=r), path=(CLOUD_KEY, r), style="primary") for r in open_rows
    ]
    cells = frozenset(s.cell for s in legal if s.kind == steps.CLOUD)
    return Panel(_("Place a cloud: which row?"), tuple(choices), cells)


def _cloud_cells(legal: list[Step], row: str) -> Panel:
    cells = [s for s in legal if s.kind == steps.CLOUD and board.name(s.cell)[0] == row]
    choices = [Choice(board.name(s.cell), token=s.token, style="success") for s in cells]
    choices.append(Choice(_("Back"), path=()))
    said = _("Place a cloud in row {row}:", row=row)
    return Panel(said, tuple(choices), frozenset(s.cell for s in cells))


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
