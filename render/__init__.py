"""Pictures of Crosshairs games for Discord.

* :func:`render.board.render_board` / :func:`render.board.board_png`: the board after
  any move, with what just happened, as a Pillow image or PNG bytes;
* :func:`render.replay.replay_gif`: a whole game as an animated GIF.

See docs/render.md for the look and the choices behind it.
"""
