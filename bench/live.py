"""The live board's taps and speed: ``.venv/bin/python bench/live.py [--games 3]``.

Starts the local Discord and the real bot as a separate process serving the live board
(``LIVE_PORT``), opens an Activity in the match's channel for both players, signs each
in as the page does (a code from Discord's side, traded at the bot's ``/api/token``,
then the socket), and plays duels by tapping, as the page offers it: the plane the page
has chosen already (the first that can end somewhere) flies with one tap on one of its
end poses; another plane, or a placement while a plane is chosen, takes one tap more.
Each tap sends one message. Prints taps per plane action (median, mean, max) and the
time from a tap being sent to the other player's page receiving the match after it
(p50, p99), over every tap of every game. Target: a median of 1 tap per plane action.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import socket
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import aiohttp

# Run as a script, this file's folder comes first on sys.path: put the repository root
# there instead, as the other benchmarks do.
HERE = str(Path(__file__).resolve().parent)
sys.path[:] = [str(Path(HERE).parent) if p == HERE else p for p in sys.path]

from localcord.activities import CLIENT_SECRET  # noqa: E402
from localcord.autoplay import match_thread  # noqa: E402
from localcord.botproc import BotProcess  # noqa: E402
from localcord.client import People  # noqa: E402
from localcord.server import LocalDiscord  # noqa: E402

WAIT = 60.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Page:
    """One player's live board, reduced to its socket and the page's choice of plane."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self.state: dict[str, Any] = {}
        self.arrived: dict[int, float] = {}  # ply: when the page first had it

    async def read(self) -> None:
        async for message in self.ws:
            said = json.loads(message.data)
            if said["type"] == "state":
                self.state = said
                self.arrived.setdefault(said["ply"], time.perf_counter())

    async def at(self, ply: int) -> dict[str, Any]:
        for _ in range(int(WAIT / 0.005)):
            if self.state.get("ply", -1) >= ply:
                return self.state
            await asyncio.sleep(0.005)
        raise TimeoutError(f"the page never showed ply {ply}")


def chosen_plane(choices: dict[str, Any]) -> int | None:
    """The plane the page has chosen already (bot/live/static/live.js)."""
    planes = choices["planes"]
    flying = next((p for p in planes if any(x["cell"] is not None for x in p["poses"])), None)
    flying = flying or (planes[0] if planes else None)
    return None if flying is None else int(flying["cell"])


def one_tap(choices: dict[str, Any], rng: random.Random) -> tuple[list[str], int, bool]:
    """A person's choice: the tokens tapped, the taps it took, whether it was a plane
    action or a placement (not a shot, a cloud or ending the turn)."""
    first = chosen_plane(choices)
    pieces = [(p["cell"], p["poses"]) for p in choices["planes"] if p["poses"]]
    if choices["places"]:
        pieces.append((None, choices["places"]))
    if pieces:
        plane, poses = rng.choice(pieces)  # any plane (or placing one), then any pose
        taps = 1 if plane == first else 2
        return rng.choice(poses)["tokens"], taps, True
    others = [*choices["shots"], *choices["clouds"]]
    if others:
        return [rng.choice(others)["token"]], 1, False
    return [choices["end"]["token"]], 1, False


async def sign_in(
    http: aiohttp.ClientSession, server: LocalDiscord, address: str, user: Any, instance: str
) -> Page:
    code = server.activities.authorize(user, ["identify"])
    async with http.post(address + "api/token", json={"code": code}) as answer:
        token = (await answer.json())["access_token"]
    ws = await http.ws_connect(address.replace("http", "ws") + "api/live")
    await ws.send_json({"type": "hello", "access_token": token, "instance_id": instance})
    return Page(ws)


async def one_game(
    server: LocalDiscord, people: People, address: str, seed: int
) -> tuple[list[int], list[float]]:
    world = server.world
    channel = world.add_channel(f"live-{seed}")
    alice, bob = people.join(f"alive{seed}"), people.join(f"blive{seed}")
    challenge = await people.slash(alice, channel, "crosshairs challenge", opponent=bob)
    assert challenge.original is not None
    await people.click(bob, challenge.original, "Accept")
    match_thread(world, challenge.original)
    instance = server.activities.launch(alice, channel)
    server.activities.join(instance, bob)
    rng = random.Random(seed)
    taps: list[int] = []
    waits: list[float] = []
    async with aiohttp.ClientSession() as http:
        pages = {u.id: await sign_in(http, server, address, u, instance.id) for u in (alice, bob)}
        readers = [asyncio.ensure_future(p.read()) for p in pages.values()]
        try:
            state = await pages[alice.id].at(0)
            while not state["over"]:
                mover = next(i for i, p in pages.items() if p.state.get("choices"))
                other = next(p for i, p in pages.items() if i != mover)
                tokens, count, plane = one_tap(pages[mover].state["choices"], rng)
                ply = pages[mover].state["ply"]
                sent = time.perf_counter()
                await pages[mover].ws.send_json({"type": "play", "ply": ply, "tokens": tokens})
                state = await other.at(ply + 1)
                waits.append(other.arrived[state["ply"]] - sent)
                await pages[mover].at(state["ply"])
                if plane:
                    taps.append(count)
        finally:
            for reader in readers:
                reader.cancel()
    print(f"  game {seed}: {len(taps)} plane actions, {sum(taps)} taps, {len(waits)} messages sent")
    return taps, waits


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


async def bench(games: int, seed: int) -> int:
    server = LocalDiscord()
    await server.start()
    port = free_port()
    env = {
        "LOG_LEVEL": "WARNING",
        "LIVE_PORT": str(port),
        "DISCORD_CLIENT_SECRET": CLIENT_SECRET,
    }
    with tempfile.TemporaryDirectory() as workdir:
        bot = BotProcess(server, Path(workdir), env)
        try:
            await bot.start()
            await asyncio.wait_for(server.world.commands_synced.wait(), 30)
            people = People(server)
            address = f"http://127.0.0.1:{port}/"
            taps: list[int] = []
            waits: list[float] = []
            for i in range(games):
                more_taps, more_waits = await one_game(server, people, address, seed + i)
                taps += more_taps
                waits += more_waits
        finally:
            await bot.stop()
            await server.stop()
    print(
        f"{games} duels, {len(taps)} plane actions: taps per plane action median "
        f"{statistics.median(taps):g}, mean {statistics.mean(taps):.2f}, max {max(taps)}; "
        f"tap to the other player's page: p50 {percentile(waits, 0.5) * 1000:.0f} ms, "
        f"p99 {percentile(waits, 0.99) * 1000:.0f} ms over {len(waits)} taps"
    )
    return 0 if max(taps) <= 2 else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3, help="how many duels")
    parser.add_argument("--seed", type=int, default=1, help="the first duel's seed")
    args = parser.parse_args()
    if args.games < 1:
        parser.error("--games must be at least 1")
    return asyncio.run(bench(args.games, args.seed))


if __name__ == "__main__":
    sys.exit(main())
