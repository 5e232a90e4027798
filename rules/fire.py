"""Lines of fire and shots (rules spec §4).

Every plane fires straight ahead: its *line of fire* runs from the next cell in the
direction it faces up to the board edge, a cloud, or the first plane, which is its
target, friend or foe. Height plays no part. A plane inside a cloud neither fires nor
can be hit (unless the *concealed fire* variant lets it fire out of the cloud).

A plane is *caught* when two or more planes hostile to its owner have it as their
target, and the seat to move may then shoot it down — whichever planes are aiming,
their own or their allies'. Shots are possible at the start of a turn and after every
action or dive manoeuvre, and one shot can open a line of fire for the next. In
automatic fire every shot is fired as soon as it appears, one at a time in board order;
in manual fire each is a step the player may take (``*d6``). With the *aces* variant
every hostile plane aiming at the victim becomes an ace.
"""

from __future__ import annotations

from rules import events
from rules.board import RAY
from rules.ends import Referee
from rules.events import Event
from rules.modes import Mode
from rules.pieces import PLAY, Plane
from rules.state import GameState
from rules.variants import Rules


class Guns:
    """Lines of fire and shooting under one game's rules (see the module docstring)."""

    def __init__(self, rules: Rules, mode: Mode, referee: Referee) -> None:
        self.concealed = rules.fire_from_clouds
        self.aces = rules.aces
        self.rings = rules.rings
        self.trophies = mode.family.trophies
        self.circle = mode.family.circle
        self.teams = mode.teams
        self.referee = referee

    def line_of_fire(self, game: GameState, plane: Plane) -> list[int]:
        """The cells a plane's guns cover, nearest first; the last may hold its target."""
        cloud = game._cloud
        if cloud[plane.cell] and not self.concealed:
            return []
        out = []
        for c in RAY[plane.cell * 6 + plane.facing]:
            if cloud[c]:
                break
            out.append(c)
            if game._at[c] is not None:
                break
        return out

    def caught(self, game: GameState) -> dict[int, tuple[Plane, ...]]:
        """Every caught plane (by id) with the hostile planes that have it in their sights."""
        return {v: tuple(s) for v, s in self.hits(game, -1).items() if len(s) >= 2}

    def hits(self, game: GameState, spared_team: int) -> dict[int, list[Plane]]:
        """Each plane (by id) in the line of fire of planes hostile to it, with those
        planes; planes of ``spared_team`` are left out (-1: none)."""
        teams = self.teams
        at = game._at
        cloud = game._cloud
        concealed = self.concealed
        hits: dict[int, list[Plane]] = {}
        for p in game._planes.values():
            if cloud[p.cell] and not concealed:
                continue
            for c in RAY[p.cell * 6 + p.facing]:
                if cloud[c]:
                    break
                q = at[c]
                if q is not None:
                    tq = teams[q.seat]
                    if tq != teams[p.seat] and tq != spared_team:
                        hits.setdefault(q.id, []).append(p)
                    break
        return hits

    def shootable(self, game: GameState) -> list[tuple[Plane, list[Plane]]]:
        """Planes the active seat may shoot down now, with their shooters, in board order."""
        if game._seats[game.active].out:
            # eliminated in its own turn (its last crash): the turn is over for it
            return []
        hits = self.hits(game, self.teams[game.active])
        if not hits:
            return []
        found = []
        for vid, shooters in hits.items():
            if len(shooters) < 2:
                continue
            victim = game._planes[vid]
            if self.circle:
                right = game.right_neighbour(victim.seat)
                if not any(s.seat == right for s in shooters):
                    continue
            found.append((victim, shooters))
        found.sort(key=lambda vs: vs[0].cell)
        return found

    def auto_fire(self, game: GameState, ev: list[Event]) -> None:
        # One shot at a time, looking again after each: a shot can open a line of fire,
        # and an elimination can take a shooter off the board.
        while game.phase == PLAY:
            found = self.shootable(game)
            if not found:
                return
            victim, shooters = found[0]
            self.shoot(game, victim, shooters, ev, automatic=True)

    def shoot(
        self,
        game: GameState,
        victim: Plane,
        shooters: list[Plane],
        ev: list[Event],
        automatic: bool,
    ) -> None:
        by = game.active
        game._remove(victim)
        if self.rings:
            game._give_rings(victim.seat, victim.height)
        ev.append(
            events.ShotDown(
                victim.seat, victim.id, victim.cell, by, tuple(s.id for s in shooters), automatic
            )
        )
        if game.tracker is not None:
            game.tracker.shot(victim, shooters, by, ev)
        if self.aces:
            planes, at = game._planes, game._at
            for s in shooters:
                if not s.ace and s.id in planes:
                    ace = s._replace(ace=True)
                    planes[s.id] = ace
                    at[s.cell] = ace
                    ev.append(events.BecameAce(s.seat, s.id, s.cell))
        if self.trophies:
            self.referee.take_trophy(game, by, victim.seat, ev)
        self.referee.check_elimination(game, victim.seat, by, "shot", ev)
