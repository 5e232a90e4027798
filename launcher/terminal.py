"""A game of Crosshairs in the terminal (``bash scripts/run --terminal``), for a quick try
without a browser.

Type tokens (``+a3NE``, ``c3C<``, ``e6SS>P``, ``*d4``, ``-``); ``legal`` lists the
steps you may take, ``words`` tells the position in plain words, ``help`` explains the
notation, ``quit`` leaves. What each move did is told in words under the board.
"""

from __future__ import annotations

from typing import TextIO

from rules import notation, text
from rules.errors import RulesError
from rules.events import Event
from rules.modes import Settings
from rules.players import new_game
from rules.words.scene import position_text
from rules.words.telling import tell_events

HELP = """\
Tokens: +a3NE place a plane at a3 facing NE · c3C climb · c3F level flight (two cells)
        e6S swoop · e6P power dive · e6SS>P a whole dive · < turns left, > right
        *d4 shoot the plane at d4 · - end a dive or hold fire
Words:  legal (list your legal steps) · words (the position in plain words) · help · quit"""


def play_in_terminal(stdin: TextIO, stdout: TextIO, seed: int = 1) -> int:
    game = new_game(Settings(), seed)
    print("A duel, 2026 rules. Type 'help' for the notation.\n", file=stdout)
    print(text.show(game), file=stdout)
    while not game.is_over:
        print(f"\n{game.mode.seat_label(game.active)}> ", end="", file=stdout, flush=True)
        line = stdin.readline()
        if not line:
            print("\n(no more input: bye)", file=stdout)
            return 0
        words = line.split()
        if not words:
            continue
        if words[0].lower() in ("quit", "exit"):
            return 0
        if words[0].lower() == "help":
            print(HELP, file=stdout)
            continue
        if words[0].lower() == "legal":
            print(" ".join(s.token for s in game.legal_steps()), file=stdout)
            continue
        if words[0].lower() == "words":
            print(position_text(game), file=stdout)
            continue
        happened: list[Event] = []
        try:
            for _, evs in notation.play_tokens(game, words):
                happened.extend(evs)
        except RulesError as exc:
            print(f"Not played: {exc}", file=stdout)
        print(text.show(game), file=stdout)
        for sentence in tell_events(game, (), happened):
            print(f"- {sentence.text}.", file=stdout)
    return 0
