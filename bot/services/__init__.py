"""Discord-free services: the game manager, series, tournaments and ratings."""
