"""Durable storage over SQLite (aiosqlite): one repository per aggregate, no Discord.

Open a :class:`storage.db.Database` at start-up (it applies pending migrations), then
build the repositories over it: :mod:`storage.matches`, :mod:`storage.series`,
:mod:`storage.tournaments`, :mod:`storage.ratings`, :mod:`storage.players` and
:mod:`storage.guilds`. See docs/storage.md.
"""
