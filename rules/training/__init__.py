"""Learn and puzzles: the course of lessons and the verified puzzles, as rules and data."""
