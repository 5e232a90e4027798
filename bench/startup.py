"""Start-up and memory with many idle matches: ``.venv/bin/python bench/startup.py
[--matches 100000] [--runs 3] [--touch 1000] [--probes 200]``.

Builds a SQLite database of that many unfinished correspondence matches (14-day turn
clocks, none due during the run) from real mid-game states made by the rules engine —
duels and 4-player free-for-alls, a few hundred states played at random from the start,
reused under distinct match ids, players and threads (building 100,000 states one by one
would take longer than the run) — then starts the local Discord and the real bot process
(``python -m bot``) on it and prints:

* the time from starting the process to its shard being connected (identified);
* its memory (resident set, the bot's own process and with its worker processes) after
  start-up, and after ``--touch`` matches were each touched by an autocomplete keystroke;
* the time to the first answer (p50/p99/max) of a press (Play, by the player to move) on
  matches not touched before, and of autocomplete keystrokes on untouched matches.

With several runs, each run and the medians.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

HERE = str(Path(__file__).resolve().parent)
sys.path[:] = [str(Path(HERE).parent) if p == HERE else p for p in sys.path]

from localcord.botproc import BotProcess, descendants  # noqa: E402
from localcord.client import People  # noqa: E402
from localcord.records import Channel, Message, User  # noqa: E402
from localcord.server import LocalDiscord  # noqa: E402
from localcord.state import World  # noqa: E402
from rules import clouds, serialize  # noqa: E402
from rules.game import Game  # noqa: E402
from rules.modes import Settings  # noqa: E402
from storage.db import Database  # noqa: E402

DAY = 86400.0
SETTLE = 5.0  # seconds after connecting (or touching) before memory is read
PER_TURN = 14 * DAY


@dataclass(frozen=True)
class State:
    """One engine-made position: its game JSON without players, the seats' teams, the
    seat to move, the steps that reached it."""

    mode: str
    game: str  # the game JSON, its closing brace cut off: the players follow
    teams: tuple[int, ...]
    to_move: int
    tokens: tuple[str, ...]


def make_states(count: int, seed: int) -> list[State]:
    """``count`` mid-game positions, duels and 4-player games, each played at random
    from a new game for 6 to 40 steps and not over."""
    rng = random.Random(seed)
    states: list[State] = []
    while len(states) < count:
        settings = Settings(mode=rng.choice(("duel", "duel", "ffa4")))
        spec = settings.spec
        game = Game(settings, clouds.random_layout(spec, rng.randrange(10**6)))
        for _ in range(rng.randint(6, 40)):
            if game.is_over:
                break
            game.play(rng.choice(game.legal_steps()))
        if game.is_over or game.to_move is None:
            continue
        text = json.dumps(serialize.to_dict(game), separators=(",", ":"))
        tokens = tuple(s.token for s in game.history)
        states.append(State(settings.mode, text[:-1], spec.teams, game.to_move, tokens))
    return states


@dataclass(frozen=True)
class Sampled:
    """A match that exists in the local Discord too: its thread, its board, its
    players."""

    match_id: int
    thread: Channel
    board: Message | None
    players: tuple[User, ...]
    to_move: User


def build(path: Path, world: World, states: list[State], args: argparse.Namespace) -> list[Sampled]:
    """The database at ``path``: ``args.matches`` unfinished matches, the first of them
    (those the run touches) with their threads, boards and players in ``world``."""
    rng = random.Random(args.seed)
    parent = world.add_channel("correspondence")
    guild = world.guild_id
    sampled_count = args.touch + 2 * args.probes
    now = time.time()
    sampled: list[Sampled] = []
    match_rows, seat_rows, step_rows, marks, people = [], [], [], [], []
    for i in range(args.matches):
        match_id = i + 1
        state = states[i % len(states)]
        seats = len(state.teams)
        if i < sampled_count:
            players = tuple(world.add_user(f"m{match_id}p{s}") for s in range(seats))
            ids = [p.id for p in players]
            thread = world.add_thread(parent, f"Crosshairs #{match_id}", players[0])
            thread_id = thread.id
        else:
            ids = [10**15 + match_id * 8 + s for s in range(seats)]
            thread_id = 10**16 + match_id
        names = [f"pilot {u % 100000}" for u in ids]
        snapshot = (
            state.game
            + ',"players":'
            + json.dumps(
                [
                    {"user_id": u, "name": n, "strength": None}
                    for u, n in zip(ids, names, strict=True)
                ],
                separators=(",", ":"),
            )
            + "}"
        )
        # deadlines a day to two weeks away, each already reminded when its reminder's
        # time has passed: no clock is due while the bench runs
        deadline = now + rng.uniform(DAY, PER_TURN)
        remind = PER_TURN * 0.25
        due = deadline if deadline - remind <= now + 3600 else deadline - remind
        board_id = None
        if i < sampled_count:
            board = world.post(
                thread,
                world.bot,
                content=f"**Crosshairs #{match_id}** — <@{ids[state.to_move]}> to fly",
                components=[
                    {
                        "type": 1,
                        "components": [
                            {
                                "type": 2,
                                "style": 1,
                                "label": "Play",
                                "custom_id": f"xh:play:{match_id}",
                            }
                        ],
                    }
                ],
            )
            board_id = board.id
            sampled.append(Sampled(match_id, thread, board, players, players[state.to_move]))
        match_rows.append(
            (
                match_id, guild, parent.id, thread_id, board_id, state.mode, "2026", "", "auto",
                json.dumps({"per_turn": PER_TURN, "on_expiry": "lose"}), "active", None,
                len(state.tokens), state.to_move, deadline, snapshot, now, now, None, remind, due,
            )
        )  # fmt: skip
        seat_rows += [(match_id, s, ids[s], state.teams[s], 0) for s in range(seats)]
        step_rows += [(match_id, n + 1, token, ids[0], now) for n, token in enumerate(state.tokens)]
        marks.append((match_id, len(state.tokens)))
        people += [(u, n, now, now) for u, n in zip(ids, names, strict=True)]
    with sqlite3.connect(path) as db:
        db.executemany(
            "INSERT OR IGNORE INTO players (user_id, display_name, created_at, updated_at) "
            "VALUES (?, ?, ?, ?)",
            people,
        )
        db.executemany(
            "INSERT INTO matches (id, guild_id, channel_id, thread_id, board_message_id, mode, "
            "ruleset, variants, fire_mode, clock_json, status, result_json, ply, to_move_seat, "
            "turn_deadline, snapshot, created_at, updated_at, finished_at, remind_seconds, "
            "clock_due) VALUES (" + ", ".join("?" * 21) + ")",
            match_rows,
        )
        db.executemany(
            "INSERT INTO seats (match_id, seat, user_id, team, handicap) VALUES (?, ?, ?, ?, ?)",
            seat_rows,
        )
        db.executemany(
            "INSERT INTO steps (match_id, ply, token, actor_id, at) VALUES (?, ?, ?, ?, ?)",
            step_rows,
        )
        db.executemany("INSERT INTO board_marks (match_id, ply) VALUES (?, ?)", marks)
    return sampled


async def _migrate(path: Path) -> None:
    async with await Database.open(path):
        pass


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def memory(pid: int) -> tuple[float, float]:
    """The resident memory of the bot's process, and with its workers, in MB."""
    own = rss_kb(pid)
    total = own + sum(rss_kb(child) for child in descendants(pid))
    return own / 1024, total / 1024


def spread(latencies: list[float]) -> tuple[float, float, float]:
    ms = sorted(x * 1000 for x in latencies)
    return statistics.median(ms), ms[min(len(ms) - 1, int(len(ms) * 0.99))], ms[-1]


@dataclass(frozen=True)
class Run:
    build_seconds: float
    empty_ready: float  # the same bot on an empty database, just before
    empty_cpu: float
    empty_memory: tuple[float, float]
    ready: float
    ready_cpu: float
    after_start: tuple[float, float]
    after_touch: tuple[float, float]
    press: tuple[float, float, float]
    keystroke: tuple[float, float, float]

    def lines(self, args: argparse.Namespace) -> list[str]:
        return [
            f"database built in {self.build_seconds:.1f} s ({args.matches} unfinished matches)",
            f"ready (process started -> shard connected): {self.ready:.2f} s "
            f"(on an empty database just before: {self.empty_ready:.2f} s)",
            f"CPU the bot's process spent until connected: {self.ready_cpu:.2f} s "
            f"(on the empty database: {self.empty_cpu:.2f} s)",
            "memory on an empty database: bot {:.0f} MB, with workers {:.0f} MB".format(
                *self.empty_memory
            ),
            "memory after start-up: bot {:.0f} MB, with workers {:.0f} MB".format(
                *self.after_start
            ),
            f"memory after touching {args.touch}: "
            + "bot {:.0f} MB, with workers {:.0f} MB".format(*self.after_touch),
            "press (Play) on an untouched match: "
            + "p50 {:.1f} ms, p99 {:.1f} ms, max {:.1f} ms".format(*self.press),
            "autocomplete keystroke on an untouched match: "
            + "p50 {:.1f} ms, p99 {:.1f} ms, max {:.1f} ms".format(*self.keystroke),
        ]


@dataclass(frozen=True)
class Start:
    seconds: float  # from starting the process to its shard connected
    cpu: float  # CPU seconds the bot's process (every thread) spent until then
    pid: int
    memory: tuple[float, float]  # once the start-up's own work is done


async def started(bot: BotProcess, server: LocalDiscord) -> Start:
    """Start the bot and measure it (the workers warm up while it connects: its memory
    is read a few seconds after)."""
    began = time.monotonic()
    await bot.start(timeout=120)
    seconds = time.monotonic() - began
    assert bot.process is not None
    pid = bot.process.pid
    cpu = process_cpu(pid)
    await asyncio.wait_for(server.world.commands_synced.wait(), 60)
    await asyncio.sleep(SETTLE)
    return Start(seconds, cpu, pid, memory(pid))


def process_cpu(pid: int) -> float:
    """CPU seconds of every thread of the process: unlike wall-clock time, it does not
    grow when other work keeps the machine busy."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def on_empty(workdir: Path) -> Start:
    """The same bot on an empty database: what the machine gives any start-up now."""
    server = LocalDiscord()
    await server.start()
    empty = workdir / "empty"
    empty.mkdir()
    bot = BotProcess(server, empty, {"LOG_LEVEL": "INFO"})
    try:
        return await started(bot, server)
    finally:
        await bot.stop()
        await server.stop()


async def one_run(args: argparse.Namespace, states: list[State], workdir: Path) -> Run:
    empty = await on_empty(workdir)
    server = LocalDiscord()
    await server.start()
    built = time.monotonic()
    await _migrate(workdir / "bot.db")
    # built on the event loop: nothing is connected to the local Discord yet
    sampled = build(workdir / "bot.db", server.world, states, args)
    build_seconds = time.monotonic() - built
    bot = BotProcess(server, workdir, {"LOG_LEVEL": "INFO"})
    try:
        start = await started(bot, server)
        pid = start.pid
        people = People(server, timeout=60)
        touched = sampled[: args.touch]
        presses = sampled[args.touch : args.touch + args.probes]
        keys = sampled[args.touch + args.probes :]
        for probe in presses:
            assert probe.board is not None
            await people.click(probe.to_move, probe.board, "Play")
        press = spread(people.latencies)
        people.latencies.clear()
        for probe in keys:
            offers = await people.autocomplete(
                probe.to_move, probe.thread, "crosshairs move", "tokens", tokens=""
            )
            assert offers, f"no offers in match #{probe.match_id}"
        keystroke = spread(people.latencies)
        for first in range(0, len(touched), 20):
            await asyncio.gather(
                *(
                    people.autocomplete(m.to_move, m.thread, "crosshairs move", "tokens", tokens="")
                    for m in touched[first : first + 20]
                )
            )
        await asyncio.sleep(SETTLE)
        after_touch = memory(pid)
        return Run(
            build_seconds,
            empty.seconds,
            empty.cpu,
            empty.memory,
            start.seconds,
            start.cpu,
            start.memory,
            after_touch,
            press,
            keystroke,
        )
    except BaseException:
        print(bot.log(), file=sys.stderr)
        raise
    finally:
        await bot.stop()
        await server.stop()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--touch", type=int, default=1000)
    parser.add_argument("--probes", type=int, default=200)
    parser.add_argument("--states", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    made = time.monotonic()
    states = make_states(args.states, args.seed)
    modes = {m: sum(s.mode == m for s in states) for m in ("duel", "ffa4")}
    print(
        f"{len(states)} engine-made mid-game states in {time.monotonic() - made:.1f} s "
        f"({modes['duel']} duels, {modes['ffa4']} 4-player games, 6 to 40 steps each), "
        f"reused under distinct ids for {args.matches} matches",
        flush=True,
    )
    runs = []
    for n in range(args.runs):
        with tempfile.TemporaryDirectory() as workdir:
            run = asyncio.run(one_run(args, states, Path(workdir)))
        runs.append(run)
        print(f"--- run {n + 1}", *run.lines(args), sep="\n", flush=True)
    if len(runs) > 1:
        median = Run(
            statistics.median(r.build_seconds for r in runs),
            statistics.median(r.empty_ready for r in runs),
            statistics.median(r.empty_cpu for r in runs),
            tuple(statistics.median(r.empty_memory[i] for r in runs) for i in (0, 1)),  # type: ignore[arg-type]
            statistics.median(r.ready for r in runs),
            statistics.median(r.ready_cpu for r in runs),
            tuple(statistics.median(r.after_start[i] for r in runs) for i in (0, 1)),  # type: ignore[arg-type]
            tuple(statistics.median(r.after_touch[i] for r in runs) for i in (0, 1)),  # type: ignore[arg-type]
            tuple(statistics.median(r.press[i] for r in runs) for i in (0, 1, 2)),  # type: ignore[arg-type]
            tuple(statistics.median(r.keystroke[i] for r in runs) for i in (0, 1, 2)),  # type: ignore[arg-type]
        )
        print(f"--- median of {len(runs)} runs", *median.lines(args), sep="\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
