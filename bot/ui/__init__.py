"""The Discord side of the bot: slash commands, buttons, views and background loops, one
feature per module. :mod:`bot.app` registers them all where the bot starts; nothing in
here imports back up.
"""
