"""Run by the two-writers test: one bot process. For each line ``PLY AT`` on stdin it
waits until the wall-clock time AT, tries to append step PLY to the match, and prints
``ok PLY`` or ``refused PLY``.

Usage: python storage_race_child.py DATABASE_URL MATCH_ID TOKEN
"""

from __future__ import annotations

import asyncio
import sys
import time

from storage_testkit import game_json

from storage.db import Database
from storage.errors import StepConflict
from storage.matches import MatchRepo


async def _main(url: str, match_id: int, token: str) -> None:
    async with await Database.open(url) as db:
        repo = MatchRepo(db)
        print("ready", flush=True)
        for line in sys.stdin:
            ply_text, at_text = line.split()
            ply = int(ply_text)
            await asyncio.sleep(max(0.0, float(at_text) - time.time()))
            try:
                await repo.append_step(
                    match_id, ply, token, None, game_json(ply), to_move_seat=0, turn_deadline=None
                )
            except StepConflict:
                print(f"refused {ply}", flush=True)
            else:
                print(f"ok {ply}", flush=True)


if __name__ == "__main__":
    asyncio.run(_main(sys.argv[1], int(sys.argv[2]), sys.argv[3]))
