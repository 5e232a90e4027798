"""Durable storage over SQLite (aiosqlite) or PostgreSQL (asyncpg): one repository per
aggregate, no Discord.

Open a :class:`storage.db.Database` at start-up (:func:`storage.health.open_checked`
checks it and applies pending migrations), then build the repositories over it:
:mod:`storage.matches`, :mod:`storage.series`, :mod:`storage.tournaments`,
:mod:`storage.ratings`, :mod:`storage.players` and :mod:`storage.guilds`. See
docs/storage.md.
"""
