"""Hostile input at the boundaries: generated position text, game JSON, notation tokens
and slash-command strings fed through the ``crosshairs`` CLI entry function and the
bot's game manager, counted by outcome.

* **refused**: a clear error (CLI exit 2 with one line on stderr, argparse's usage
  error, or the manager's :class:`Refusal`), nothing changed;
* **accepted**: the input was valid and did what it says;
* **crash**: anything else (a traceback, another exit status). Must be 0.

Inputs are mutations of valid ones (games played at random in several modes, their
position text, tokens and turn texts) plus random junk: odd characters (dotless and
dotted i, ``²``, Arabic-Indic digits, the Kelvin sign, NUL), huge numbers, deep nesting,
wrong JSON types, truncation and splicing. Seeded, so a crash is reproducible.

Run: .venv/bin/python bench/fuzz.py [--inputs 100000] [--seed 1]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import io
import json
import random
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.cli.main import main as cli_main
from bot.env import stores_on
from bot.services.clock import FakeClock
from bot.services.live import LiveMatch, Occupant
from bot.services.manager import Games
from bot.services.refusal import Refusal
from rules import notation, position, serialize
from rules.errors import RulesError
from rules.modes import Settings
from rules.players import new_game
from storage.db import Database

REFUSED, ACCEPTED, CRASH = "refused", "accepted", "crash"
ODD = ["ı", "İ", "K", "²", "٣", "\x00", "\u200b", "é", "ß", "ﬀ", "𝟙", "\ud800"]
SYNTAX = [*"[]{}\":,|>+*~-<!xTthr /\\'", "\n", "\t", " | ", "null", "true", "1e999"]
HUGE = "9" * 5000
ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"


@dataclass
class Corpus:
    """Valid inputs to mutate: games as JSON, position texts, tokens, turn texts."""

    games: list[str] = field(default_factory=list)
    positions: list[str] = field(default_factory=list)
    tokens: list[str] = field(default_factory=list)
    turns: list[str] = field(default_factory=list)


def build_corpus(rng: random.Random) -> Corpus:
    corpus = Corpus()
    setups = [
        Settings(),
        Settings(ruleset="classic", fire="manual"),
        Settings(mode="ffa3", variants=frozenset({"aces"})),
        Settings(mode="2v2"),
        Settings(mode="cod3", turn_limit=40),
    ]
    for settings in setups:
        for _ in range(4):
            game = new_game(settings, rng.randrange(2**31))
            for _ in range(rng.randrange(5, 60)):
                if game.is_over:
                    break
                step = rng.choice(game.legal_steps())
                game.play(step)
                corpus.tokens.append(step.token)
                if game.at_turn_start:
                    corpus.positions.append(position.format_position(game))
            corpus.games.append(serialize.dumps(game, indent=None))
            corpus.turns.extend(text for _, _, text in notation.turn_texts(game))
    return corpus


# ------------------------------------------------------------------ mutation


def junk(rng: random.Random) -> str:
    kind = rng.randrange(4)
    if kind == 0:
        return "".join(rng.choice(ALPHABET + "".join(ODD)) for _ in range(rng.randrange(1, 40)))
    if kind == 1:
        return rng.choice(["[", '{"a":', '[{"x":']) * rng.choice([10, 1000, 100_000])
    if kind == 2:
        return "".join(rng.choice(SYNTAX + ODD) for _ in range(rng.randrange(1, 30)))
    return rng.choice([HUGE, "-" + HUGE, "1" * 4000, "0" * 6000, "", " ", "\x00" * 9])


def mutate_text(rng: random.Random, text: str, donors: list[str]) -> str:
    for _ in range(rng.randrange(1, 4)):
        at = rng.randrange(len(text) + 1)
        end = min(len(text), at + rng.randrange(1, 8))
        op = rng.randrange(9)
        if op == 0:
            text = text[:at] + rng.choice(ODD) + text[at:]
        elif op == 1:
            text = text[:at] + rng.choice(SYNTAX) + text[at:]
        elif op == 2:
            text = text[:at] + text[end:]
        elif op == 3:
            text = text[:at] + text[at:end] * rng.randrange(2, 50) + text[end:]
        elif op == 4:  # a number made huge, negative or odd
            digits = [i for i, c in enumerate(text) if c.isdigit()]
            if digits:
                i = rng.choice(digits)
                text = text[:i] + rng.choice([HUGE, "-1", "0", "²", "٣", "99"]) + text[i + 1 :]
        elif op == 5:
            text = text[:at]
        elif op == 6:
            text = text.swapcase() if rng.random() < 0.5 else text.replace("i", "ı")
        elif op == 7 and donors:
            other = rng.choice(donors)
            cut = rng.randrange(len(other) + 1)
            text = text[:at] + other[cut:]
        else:
            text = text[:at] + chr(rng.randrange(0x20, 0x3000)) + text[at:]
    return text


def junk_value(rng: random.Random, depth: int = 0) -> Any:
    kind = rng.randrange(10 if depth < 3 else 7)
    if kind == 0:
        return rng.choice([0, -1, 7, 2**63, 10**4000, True, False, None])
    if kind == 1:
        return rng.choice([0.5, -0.0, 1e308, 4.0])
    if kind == 2:
        return rng.choice(["", "duel", "classic", "auto", "ı3C", "resign:²", "x" * 70, HUGE])
    if kind in (3, 4, 5, 6):
        return junk(rng)[:200]
    if kind in (7, 8):
        return [junk_value(rng, depth + 1) for _ in range(rng.randrange(4))]
    return {rng.choice(["mode", "clouds", "steps", "q"]): junk_value(rng, depth + 1)}


def mutate_json(rng: random.Random, doc: str, corpus: Corpus) -> str:
    data = json.loads(doc)
    for _ in range(rng.randrange(1, 3)):
        holder: Any = data
        keys: list[Any] = []
        while isinstance(holder, dict | list) and holder and (not keys or rng.random() < 0.6):
            key = (
                rng.choice(list(holder)) if isinstance(holder, dict) else rng.randrange(len(holder))
            )
            keys.append((holder, key))
            holder = holder[key]
        if not keys:
            break
        parent, key = keys[-1]
        choice = rng.randrange(6)
        if choice == 0 and isinstance(parent, dict):
            del parent[key]
        elif choice == 1 and isinstance(holder, str):
            parent[key] = mutate_text(rng, holder, corpus.tokens + corpus.positions)
        elif choice == 2 and isinstance(parent, dict):
            parent[rng.choice(["extra", "players", "Mode"])] = junk_value(rng)
        else:
            parent[key] = junk_value(rng)
    text = json.dumps(data)
    return mutate_text(rng, text, corpus.games) if rng.random() < 0.2 else text


# ------------------------------------------------------------------ channels


def run_cli(argv: list[str], stdin: str = "") -> str:
    out, err = io.StringIO(), io.StringIO()
    real_stdin = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = cli_main(argv)
    except SystemExit as exc:  # argparse's usage error: a clear refusal, exit 2
        code = exc.code if isinstance(exc.code, int) else 1
    finally:
        sys.stdin = real_stdin
    if code == 0:
        return ACCEPTED
    if code == 2 and "Traceback" not in err.getvalue():
        return REFUSED
    raise RuntimeError(f"exit {code}: {err.getvalue()[-300:]}")


@dataclass
class Table:
    """A duel in the game manager that the move strings are played into."""

    games: Games
    live: LiveMatch | None = None
    made: int = 0

    async def match(self) -> LiveMatch:
        if self.live is None or self.live.game.is_over:
            self.made += 1
            people = [Occupant(1, "alice"), Occupant(2, "bob")]
            self.live = await self.games.create(people, Settings(), channel_id=self.made)
        return self.live


async def manager_move(table: Table, rng: random.Random, corpus: Corpus) -> tuple[str, str]:
    """``/crosshairs move tokens:<text>`` as the bot hands it to the manager; the text
    grows from a legal step of the match (so that games go on) or the corpus."""
    live = await table.match()
    legal = [s.token for s in live.game.legal_steps()]
    text = rng.choice(legal) if rng.random() < 0.5 else rng.choice(corpus.turns + corpus.tokens)
    if rng.random() < 0.7:
        text = mutate_text(rng, text, legal)
    return text, await _play(table, live, text)


async def _play(table: Table, live: LiveMatch, text: str) -> str:
    words = text.split()
    if not words:
        return REFUSED  # the command refuses an empty string before the manager
    user = live.user_to_move()
    assert user is not None
    before = (live.ply, live.game.state_key())
    try:
        await table.games.play(live.id, user, words, expect_ply=live.ply)
    except Refusal:
        # a refusal must leave the match as it was, in memory and in storage
        stored = (await table.games.repo.get(live.id)).ply
        if (live.ply, live.game.state_key()) != before or stored != before[0]:
            raise AssertionError("refused, yet the match changed") from None
        return REFUSED
    return ACCEPTED


async def manager_create(table: Table, mode: str, clouds: str, variants: str) -> str:
    """``/crosshairs challenge`` options as strings: the bot builds Settings from them
    (a RulesError there is its refusal) and the manager opens the match."""
    try:
        settings = Settings(
            mode=mode, variants=frozenset(v.strip().lower() for v in variants.split(","))
        )
    except RulesError:
        return REFUSED
    people = [Occupant(10 + i, f"p{i}") for i in range(settings.spec.seats)]
    try:
        await table.games.create(people, settings, channel_id=1, cloud_setup=clouds)
    except Refusal:
        return REFUSED
    return ACCEPTED


# ------------------------------------------------------------------ the run


async def fuzz(inputs: int, seed: int, workdir: Path) -> tuple[Counter[tuple[str, str]], list[str]]:
    rng = random.Random(seed)
    corpus = build_corpus(rng)
    tally: Counter[tuple[str, str]] = Counter()
    crashes: list[str] = []
    db = await Database.open(workdir / "fuzz.db")
    table = Table(Games(stores_on(db), FakeClock()))
    game_file = workdir / "game.json"
    try:
        for _ in range(inputs):
            channel, feed = pick(rng, corpus, game_file)
            try:
                if channel == "manager move":
                    feed[0], outcome = await manager_move(table, rng, corpus)
                elif channel == "manager create":
                    outcome = await manager_create(table, *feed)
                else:
                    outcome = run_cli(feed[:-1], feed[-1])
            except Exception as exc:
                outcome = CRASH
                if len(crashes) < 10:
                    crashes.append(f"{channel} {feed!r:.300}: {type(exc).__name__}: {exc}")
            tally[channel, outcome] += 1
    finally:
        await db.close()
    return tally, crashes


def pick(rng: random.Random, corpus: Corpus, game_file: Path) -> tuple[str, list[str]]:
    """One generated input: the channel it goes through and its arguments (for the CLI,
    argv then standard input)."""
    roll = rng.random()
    if roll < 0.3:
        doc = mutate_json(rng, rng.choice(corpus.games), corpus) if roll < 0.27 else junk(rng)
        return "cli game JSON", [rng.choice(["show", "legal"]), "-", doc]
    if roll < 0.32:  # bytes that are not UTF-8, from a file
        data = rng.choice(corpus.games).encode()
        at = rng.randrange(len(data))
        game_file.write_bytes(data[:at] + bytes([rng.randrange(0x80, 0x100)]) + data[at:])
        return "cli game JSON", ["show", str(game_file), ""]
    if roll < 0.55:
        tokens = [mutate_text(rng, rng.choice(corpus.tokens), corpus.tokens)]
        if rng.random() < 0.1:
            tokens = [junk(rng)[:100]]
        return "cli tokens", ["play", "-", *tokens, rng.choice(corpus.games)]
    if roll < 0.75:
        text = mutate_text(rng, rng.choice(corpus.positions), corpus.positions)
        if rng.random() < 0.1:
            text = junk(rng)[:2000]
        return "cli position text", ["new", "--position", text, ""]
    if roll < 0.97:
        return "manager move", [""]  # the text depends on the match; made when played
    mode = rng.choice(["duel", "ffa3", "2v2", "cod4", "İ", "duel" * 9, junk(rng)[:20]])
    clouds = rng.choice(["random", "none", "manual", "lanes", "ı", "", junk(rng)[:20]])
    variants = rng.choice(["", "aces", "aces,turbulence", "ACES", "aces,ı", junk(rng)[:20]])
    return "manager create", [mode, clouds, variants]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--inputs", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    start = time.perf_counter()
    # In memory where there is a tmpfs: the store syncs every commit, and the disk's
    # speed is not what this bench is about.
    shm = Path("/dev/shm")
    with tempfile.TemporaryDirectory(dir=shm if shm.is_dir() else None) as tmp:
        tally, crashes = asyncio.run(fuzz(args.inputs, args.seed, Path(tmp)))
    took = time.perf_counter() - start
    channels = sorted({c for c, _ in tally})
    print(f"{args.inputs:,} inputs, seed {args.seed}, {took:.0f} s")
    print(f"{'channel':<20} {REFUSED:>9} {ACCEPTED:>9} {CRASH:>6}")
    for channel in channels:
        counts = [tally[channel, o] for o in (REFUSED, ACCEPTED, CRASH)]
        print(f"{channel:<20} {counts[0]:>9,} {counts[1]:>9,} {counts[2]:>6,}")
    totals = [
        sum(n for (_, o), n in tally.items() if o == out) for out in (REFUSED, ACCEPTED, CRASH)
    ]
    print(f"{'total':<20} {totals[0]:>9,} {totals[1]:>9,} {totals[2]:>6,}")
    for line in crashes:
        print("CRASH", line)
    sys.exit(1 if totals[2] else 0)


if __name__ == "__main__":
    main()
