"""Pictures of Crosshairs games for Discord.

* :func:`render.board.render_board` / :func:`render.board.board_png`: the board after
  any move, with what just happened, as a Pillow image or PNG bytes (``board_png`` also
  takes the game's JSON, for a worker process);
* :func:`render.replay.replay_gif`: a whole game as an animated GIF;
* :mod:`render.cards`, :mod:`render.scoreboard`, :mod:`render.tournament`: achievement
  cards, series scoreboards, tournament tables and brackets.

The board is designed to be read at a phone's 400 px. See docs/render.md for the look
and the choices behind it.
"""
