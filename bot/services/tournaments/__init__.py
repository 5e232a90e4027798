"""Tournament logic without Discord, storage or clocks: pairings, brackets and standings.

The tournament service feeds these pure functions what it has stored (entrants and the
results so far) and stores what they return. ``docs/tournaments.md`` gives the rules.
"""
