"""Run by the crash test: append steps to many matches until killed, printing
``MATCH PLY`` on stdout right after each step commits.

Usage: python storage_crash_child.py DATABASE MATCHES
"""

from __future__ import annotations

import asyncio
import sys

from storage_testkit import duel, game_json

from storage.db import Database
from storage.matches import MatchRepo

WRITERS = 4


async def _main(path: str, matches: int) -> None:
    async with await Database.open(path) as db:
        repo = MatchRepo(db)
        plies = {m.id: m.ply for m in (await repo.list_unfinished()).matches}
        while len(plies) < matches:
            plies[await repo.create(duel())] = 0
        ids = sorted(plies)

        async def writer(mine: list[int]) -> None:
            while True:
                for match_id in mine:
                    ply = plies[match_id] + 1
                    await repo.append_step(
                        match_id,
                        ply,
                        "c3F",
                        11,
                        game_json(ply, ply % 2),
                        to_move_seat=ply % 2,
                        turn_deadline=None,
                    )
                    plies[match_id] = ply
                    print(match_id, ply, flush=True)

        await asyncio.gather(*(writer(ids[i::WRITERS]) for i in range(WRITERS)))


if __name__ == "__main__":
    asyncio.run(_main(sys.argv[1], int(sys.argv[2])))
