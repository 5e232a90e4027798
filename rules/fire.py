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
from rules.ends import Ending
from rules.events import Event
from rules.pieces import PLAY, Plane


class Firing(Ending):
    """Lines of fire and shooting, as a layer of :class:`rules.game.Game`."""

    def line_of_fire(self, plane: Plane) -> list[int]:
        """The cells a plane's guns cover, nearest first; the last may hold its target."""
        if self._cloud[plane.cell] and not self._concealed:
            return []
        out = []
        for c in RAY[plane.cell * 6 + plane.facing]:
            if self._cloud[c]:
                break
            out.append(c)
            if self._at[c] is not None:
                break
        return out

    def target(self, plane: Plane) -> Plane | None:
        """The plane in ``plane``'s line of fire, if any (friend or foe)."""
        cells = self.line_of_fire(plane)
        return self._at[cells[-1]] if cells else None

    def caught(self) -> dict[int, tuple[Plane, ...]]:
        """Every caught plane (by id) with the hostile planes that have it in their sights."""
        return {v: tuple(s) for v, s in self._hits(-1).items() if len(s) >= 2}

    def _hits(self, spared_team: int) -> dict[int, list[Plane]]:
        """Each plane (by id) in the line of fire of planes hostile to it, with those
        planes; planes of ``spared_team`` are left out (-1: none)."""
        teams = self._teams
        at = self._at
        cloud = self._cloud
        concealed = self._concealed
        hits: dict[int, list[Plane]] = {}
        for p in self._planes.values():
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

    def _shootable(self) -> list[tuple[Plane, list[Plane]]]:
        """Planes the active seat may shoot down now, with their shooters, in board order."""
        hits = self._hits(self._teams[self.active])
        if not hits:
            return []
        found = []
        for vid, shooters in hits.items():
            if len(shooters) < 2:
                continue
            victim = self._planes[vid]
            if self._cod:
                right = self.right_neighbour(victim.seat)
                if not any(s.seat == right for s in shooters):
                    continue
            found.append((victim, shooters))
        found.sort(key=lambda vs: vs[0].cell)
        return found

    def _auto_fire(self, ev: list[Event]) -> None:
        # One shot at a time, looking again after each: a shot can open a line of fire,
        # and an elimination can take a shooter off the board.
        while self.phase == PLAY:
            found = self._shootable()
            if not found:
                return
            victim, shooters = found[0]
            self._shoot(victim, shooters, ev, automatic=True)

    def _shoot(
        self, victim: Plane, shooters: list[Plane], ev: list[Event], automatic: bool
    ) -> None:
        by = self.active
        self._remove(victim)
        if self._classic:
            self._give_rings(victim.seat, victim.height)
        ev.append(
            events.ShotDown(
                victim.seat, victim.id, victim.cell, by, tuple(s.id for s in shooters), automatic
            )
        )
        if self.tracker is not None:
            self.tracker.shot(victim, shooters, by, ev)
        if self._aces:
            for s in shooters:
                if not s.ace and s.id in self._planes:
                    ace = s._replace(ace=True)
                    self._planes[s.id] = ace
                    self._at[s.cell] = ace
                    ev.append(events.BecameAce(s.seat, s.id, s.cell))
        if self._ffa:
            self._take_trophy(by, victim.seat, ev)
        self._check_elimination(victim.seat, by, "shot", ev)
