"""Helpers every simcord-driven suite shares (tests/bot, tests/series, tests/tournament_bot).

``tests/`` is on the import path (pytest's ``pythonpath``), so a test imports them as
``support.replies``; the bot fixtures in :mod:`support.bots` are a plugin the rootdir
conftest loads for every suite.
"""
