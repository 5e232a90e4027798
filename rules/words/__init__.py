"""The game in plain words, for players who cannot see the board picture.

Everything a screen reader, a terminal or a spectator reading text needs is built here
from the rules state and the events the game emits, never from the picture:

* :mod:`rules.words.common` — directions, seats and results in words;
* :mod:`rules.words.telling` — every step of a player-turn, and the whole record;
* :mod:`rules.words.scene` — the position: alt text and the longer words-only board;
* :mod:`rules.words.choices` — full-sentence labels for the choices of a cockpit.
"""
