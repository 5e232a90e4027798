"""The live board: a match shown as a Discord Activity (docs/activity.md).

A web page in Discord's iframe, served by the bot itself (:mod:`bot.live.server`), that
shows a match as it happens and lets its players fly with one tap. Whoever opens it is
known only from Discord: the OAuth2 code the page gets is exchanged for a token, the
person is the token's own (``GET /users/@me``) and the Activity's instance, where the
page says it runs, is asked of Discord with the bot's token (:mod:`bot.live.discord_api`).
Every tap is a request to the same services as a button press (:mod:`bot.live.board`),
and the page follows the match through the domain's events, as the thread does: the
live board publishes nothing of its own.
"""
