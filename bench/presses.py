"""Presses per plane action: ``.venv/bin/python bench/presses.py [--games 3]``.

Starts the local Discord and the real bot as a separate process, then plays duels in
automatic and in manual fire where both pilots fly only through the cockpit, as a person
does: Play once a turn, then a plane and where it ends up (or a placement), shots and
holding fire when offered. Prints, per fire mode, the median and maximum presses per
plane action after Play and per player-turn (Play included), and the messages the bot
posted, edited and deleted in the thread per plane action.
Targets: median at most 2 per plane action, none over 4 in automatic fire.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
from pathlib import Path

# Run as a script, this file's folder comes first on sys.path: put the repository root
# there instead, as the other benchmarks do.
HERE = str(Path(__file__).resolve().parent)
sys.path[:] = [str(Path(HERE).parent) if p == HERE else p for p in sys.path]

from localcord.autoplay import Flight, fly_turns_in_cockpit, match_thread, message_calls  # noqa: E402
from localcord.botproc import BotProcess  # noqa: E402
from localcord.client import People  # noqa: E402
from localcord.server import LocalDiscord  # noqa: E402


async def one_game(server: LocalDiscord, people: People, fire: str, seed: int) -> Flight:
    world = server.world
    channel = world.add_channel(f"{fire}-{seed}")
    alice, bob = people.join(f"a{fire}{seed}"), people.join(f"b{fire}{seed}")
    challenge = await people.slash(alice, channel, "crosshairs challenge", opponent=bob, fire=fire)
    assert challenge.original is not None
    await people.click(bob, challenge.original, "Accept")
    thread = match_thread(world, challenge.original)
    before = len(world.requests)
    flight = await fly_turns_in_cockpit(people, thread, [alice, bob], random.Random(seed))
    calls = message_calls(world.requests[before:])
    actions = max(1, len(flight.presses))
    flight.interactions = sum(calls.values())
    print(
        f"  {fire} fire, game {seed}: {len(flight.presses)} plane actions in "
        f"{len(flight.turn_presses)} turns; per plane action {calls['posts'] / actions:.2f} posts, "
        f"{calls['edits'] / actions:.2f} edits, {calls['deletes'] / actions:.2f} deletes"
    )
    return flight


async def bench(games: int, seed: int) -> int:
    server = LocalDiscord()
    await server.start()
    ok = True
    with tempfile.TemporaryDirectory() as workdir:
        bot = BotProcess(server, Path(workdir), {"LOG_LEVEL": "WARNING", "COMPUTER_PACE": "0"})
        try:
            await bot.start()
            await asyncio.wait_for(server.world.commands_synced.wait(), 30)
            people = People(server)
            for fire in ("auto", "manual"):
                flights = [await one_game(server, people, fire, seed + i) for i in range(games)]
                actions = [p for f in flights for p in f.presses]
                turns = [p for f in flights for p in f.turn_presses]
                calls = sum(f.interactions for f in flights) / max(1, len(actions))
                print(
                    f"{fire} fire, {games} games: presses per plane action after Play: "
                    f"median {statistics.median(actions):g}, max {max(actions)}; per turn: "
                    f"median {statistics.median(turns):g}, max {max(turns)}; shots and hold "
                    f"fire: {sum(f.fire_presses for f in flights)} presses; thread messages "
                    f"posted/edited/deleted per plane action: {calls:.2f}"
                )
                ok &= statistics.median(actions) <= 2 and (fire != "auto" or max(actions) <= 4)
        finally:
            await bot.stop()
            await server.stop()
    return 0 if ok else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    return asyncio.run(bench(args.games, args.seed))


if __name__ == "__main__":
    sys.exit(main())
