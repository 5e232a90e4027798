"""Start-up, above the bot and the local Discord: ``bash scripts/run`` (``python -m launcher``)
runs the Discord bot when a token is set, and otherwise the playground or a terminal game.

It sits above both ``bot`` and ``localcord`` so that the bot never reaches up into the test
Discord to start the playground.
"""
