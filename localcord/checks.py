"""Every REST call held to Discord's spec and documented rules, before and after the route.

Before: the bot token (Discord answers 401 without it), then the body against the route's
schema (``spec``) and Discord's documented rules (``documented``); what Discord refuses is
refused here in Discord's shape and never reaches the route. After (strict only): localcord's
own successful answer against the route's response schema.

``strict`` is the end-to-end tests' switch: every refusal and every answer that is not
Discord's shape is also kept in ``failures``, which the tests' teardown asserts is empty,
so a mismatch in either direction fails the test that caused it. ``checked`` counts the
calls held to the spec.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from contextlib import contextmanager

from aiohttp import web

from localcord import documented
from localcord.records import Json, as_json
from localcord.spec import Operation, Problem, describe, refusal, spec

log = logging.getLogger(__name__)

API = "/api/v10"
# Interaction callbacks and webhooks are authorised by their token, not the bot's.
TOKEN_ROUTES = ("/interactions/", "/webhooks/")
# Routes an OAuth2 access token may call, as the spec's security lists it (OAuth2 beside BotToken).
BEARER_ROUTES = ("/users/@me",)
MESSAGE_ROUTES = {
    ("POST", "/channels/{channel_id}/messages"),
    ("POST", "/webhooks/{webhook_id}/{webhook_token}"),
    ("PATCH", "/channels/{channel_id}/messages/{message_id}"),
    ("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}"),
}
COMMAND_ROUTES = {
    "/applications/{application_id}/commands",
    "/applications/{application_id}/guilds/{guild_id}/commands",
}


def unauthorized() -> web.Response:
    return as_json({"message": "401: Unauthorized", "code": 0}, status=401)


_recording: list[list[Checks]] = []


@contextmanager
def recording() -> Iterator[list[Checks]]:
    """Make every local Discord started meanwhile strict, and list their checks (the
    end-to-end tests wrap each test in this and assert that none failed)."""
    made: list[Checks] = []
    _recording.append(made)
    try:
        yield made
    finally:
        _recording.remove(made)


class Checks:
    def __init__(self, strict: bool = False) -> None:
        self.strict = strict or bool(_recording)
        self.checked = 0
        self.failures: list[str] = []
        for made in _recording:
            made.append(self)

    def operation(self, request: web.Request) -> Operation | None:
        return spec().operation(request.method, request.path.removeprefix(API))

    def authorised(self, request: web.Request) -> bool:
        path = request.path.removeprefix(API)
        if path.startswith(TOKEN_ROUTES) or path == "/oauth2/token":
            return True
        token = request.headers.get("Authorization", "")
        if path in BEARER_ROUTES and token.startswith("Bearer "):
            return True  # the route itself refuses a token it does not know
        return token.startswith("Bot ") and len(token) > len("Bot ")

    def request(self, operation: Operation, body: Json | list[Json]) -> list[Problem]:
        """What Discord would refuse in ``body`` (empty: nothing)."""
        self.checked += 1
        found = spec().request_problems(operation, body)
        key = (operation.method, operation.template)
        more: list[Problem] = []
        if key in MESSAGE_ROUTES and isinstance(body, dict):
            more += documented.message_problems(body)
        elif operation.method == "PUT" and operation.template in COMMAND_ROUTES:
            listed = body if isinstance(body, list) else []
            more += documented.command_problems(listed, guild="{guild_id}" in operation.template)
        elif operation.template.endswith("/callback") and isinstance(body, dict):
            data = body.get("data")
            if body.get("type") in (4, 7) and isinstance(data, dict):
                more += documented.message_problems(data, ("data",))
        # one complaint per field: the spec's, when it has one
        said = {where for where, _, _ in found}
        return found + [p for p in more if p[0] not in said]

    def refused(self, request: web.Request, problems: list[Problem]) -> web.Response:
        """Discord's 50035 for ``problems``, noted as a failure when strict."""
        self.fail(f"refused {request.method} {request.path}: {describe(problems)}")
        return as_json(refusal(problems), status=400)

    def refused_empty(self, request: web.Request) -> web.Response:
        self.fail(f"refused {request.method} {request.path}: an empty message")
        return as_json({"message": "Cannot send an empty message", "code": 50006}, status=400)

    def answer(self, request: web.Request, operation: Operation, response: web.Response) -> None:
        """In strict mode, hold localcord's JSON answer to the spec: a success to the
        route's shape, a refusal (4xx, a 429 too) to Discord's error shapes. Server
        errors are faults a test injects; the spec has no shape for them."""
        if not self.strict or response.status >= 500 or response.status == 204:
            return
        if response.content_type != "application/json" or not isinstance(response.body, bytes):
            return
        self.checked += 1
        problems = spec().response_problems(operation, response.status, json.loads(response.body))
        if problems:
            self.fail(
                f"answered {request.method} {request.path} unlike Discord: {describe(problems)}"
            )

    def fail(self, what: str) -> None:
        log.warning("localcord: %s", what)
        if self.strict:
            self.failures.append(what)
