"""Discord's own OpenAPI description of its HTTP API as the local Discord's oracle.

``localcord/data/discord-api-spec/openapi.json`` is copied unchanged from
``discord/discord-api-spec`` (see the README beside it). For each REST call this finds the
route's operation and checks the request body against its schema, answering what Discord
would refuse with Discord's error shape::

    {"code": 50035, "message": "Invalid Form Body",
     "errors": {"data": {"choices": {"0": {"name": {"_errors": [{"code": ..., "message": ...}]}}}}}}

and checks localcord's own successful answers against the response schema, where an object
must carry no property the spec does not list (a local Discord that says more than Discord
teaches the bot to rely on what Discord will never send).

Only the JSON Schema the spec uses is understood: type, properties, required, items,
anyOf/oneOf/allOf, $ref, enum/const, min/max length, items and value, pattern.
Where the spec and Discord's documented behaviour differ, the behaviour wins, and each such
choice is marked ``Discord's behaviour:`` below.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from localcord.state import Json

SPEC = Path(__file__).resolve().parent / "data" / "discord-api-spec" / "openapi.json"
Problem = tuple[tuple[str, ...], str, str]  # where, Discord's error code, message


@dataclass
class Operation:
    method: str
    template: str
    request: Json | None  # the JSON request body's schema
    responses: dict[int, Json] = field(default_factory=dict)


class Spec:
    """The routes and schemas of the spec, and checks against them."""

    def __init__(self, document: Json) -> None:
        self.schemas: dict[str, Json] = document["components"]["schemas"]
        # Discord's behaviour: the codes inside ``_errors`` are strings
        # ("BASE_TYPE_REQUIRED", the example of developers/reference.mdx), where the
        # spec reuses its Error, whose code is an integer
        inner = {"code": {"type": "string"}, "message": {"type": "string"}}
        self.schemas["InnerErrors"]["properties"]["_errors"]["items"] = {
            "type": "object",
            "properties": inner,
            "required": ["code", "message"],
        }
        # by the id of a union's branch: the schemas live as long as this object
        self._types: dict[int, list[Any]] = {}
        self._routes: list[tuple[re.Pattern[str], dict[str, Operation]]] = []
        for template, item in document["paths"].items():
            operations = {
                method.upper(): _operation(method.upper(), template, op, document)
                for method, op in item.items()
                if isinstance(op, dict) and "responses" in op
            }
            pattern = re.compile("^" + re.sub(r"\{[^/]+\}", "[^/]+", template) + "$")
            self._routes.append((pattern, operations))
        # a literal segment (``/users/@me``) wins over a parameter (``/users/{user_id}``)
        self._routes.sort(key=lambda r: (r[0].pattern.count("[^/]+"), -len(r[0].pattern)))

    def operation(self, method: str, path: str) -> Operation | None:
        """The operation of ``method`` on ``path`` (below ``/api/v10``)."""
        for pattern, operations in self._routes:
            if pattern.match(path):
                return operations.get(method)
        return None

    def request_problems(self, operation: Operation, body: Any) -> list[Problem]:
        if operation.request is None:
            return []
        return list(self._check(operation.request, body, (), closed=False))

    def response_problems(self, operation: Operation, status: int, body: Any) -> list[Problem]:
        schema = operation.responses.get(status) or operation.responses.get(status // 100)
        if schema is None:
            return [((), "NO_SUCH_RESPONSE", f"the spec has no {status} answer for this route")]
        return list(self._check(schema, body, (), closed=True))

    # ------------------------------------------------------------ the checker

    def _resolve(self, schema: Json) -> Json:
        while "$ref" in schema:
            schema = self.schemas[schema["$ref"].rsplit("/", 1)[1]]
        return schema

    def _check(
        self, schema: Json, value: Any, where: tuple[str, ...], *, closed: bool
    ) -> Iterator[Problem]:
        schema = self._resolve(schema)
        if "allOf" in schema:
            schema = self._merged(schema)
        union = schema.get("anyOf") or schema.get("oneOf")
        if union:
            yield from self._union(union, value, where, closed=closed)
        kinds = schema.get("type")
        if kinds is None:
            return
        kinds = [kinds] if isinstance(kinds, str) else kinds
        kind = next((k for k in kinds if _is(k, value, schema)), None)
        if kind is None:
            yield where, *_type_error(kinds, value)
            return
        if kind == "null":
            return
        allowed = schema.get("enum", [schema["const"]] if "const" in schema else None)
        if allowed is not None and value not in allowed:
            shown = ", ".join(map(repr, allowed))
            yield where, "BASE_TYPE_CHOICES", f"Value must be one of ({shown})."
        if kind == "string" and isinstance(value, str):
            yield from _length(where, len(value), schema)
            pattern = schema.get("pattern")
            if pattern and not re.search(pattern, value):
                yield where, "STRING_TYPE_REGEX", "String value did not match validation regex."
        elif kind in ("integer", "number"):
            yield from _bounds(where, value, schema)
        elif kind == "array":
            yield from _length(where, len(value), schema, "minItems", "maxItems")
            items = schema.get("items")
            if items is not None:
                for n, item in enumerate(value):
                    yield from self._check(items, item, (*where, str(n)), closed=closed)
        elif kind == "object":
            yield from self._object(schema, value, where, closed=closed)

    def _object(
        self, schema: Json, value: Json, where: tuple[str, ...], *, closed: bool
    ) -> Iterator[Problem]:
        properties: Json = schema.get("properties", {})
        for name in schema.get("required", ()):
            if name not in value:
                yield (*where, name), "BASE_TYPE_REQUIRED", "This field is required"
        extra = schema.get("additionalProperties")
        for name, item in value.items():
            if name in properties:
                yield from self._check(properties[name], item, (*where, name), closed=closed)
            elif isinstance(extra, dict):
                yield from self._check(extra, item, (*where, name), closed=closed)
            elif closed and properties and extra is not True:
                yield (*where, name), "UNKNOWN_FIELD", "Discord sends no such field here"

    def _union(
        self, union: list[Json], value: Any, where: tuple[str, ...], *, closed: bool
    ) -> Iterator[Problem]:
        # Nearly every value is valid: look for the branch that takes it, stopping at each
        # branch's first problem and skipping those whose ``type`` cannot be this value's
        # (they must fail); work out what is wrong only when no branch takes it.
        told = value.get("type") if isinstance(value, dict) else None
        for branch in union:
            types = self._type_values(branch)
            if told is not None and types and told not in types:
                continue
            if next(self._check(branch, value, where, closed=closed), None) is None:
                return
        tried = [list(self._check(branch, value, where, closed=closed)) for branch in union]
        # The branches of a union are told apart by their ``type`` field: when none has
        # this one, that is the problem; otherwise the branch of this type says what is wrong.
        kind = (*where, "type")
        if all(any(p[0] == kind for p in found) for found in tried):
            allowed = sorted({v for branch in union for v in self._type_values(branch)}, key=str)
            shown = ", ".join(map(str, allowed))
            yield kind, "BASE_TYPE_CHOICES", f"Value must be one of ({shown})."
            return
        # otherwise the branch that got furthest: of this value's type, of its ``type``,
        # with the fewest problems
        yield from min(
            tried,
            key=lambda found: (
                any(p[0] == where for p in found),
                any(p[0] == kind for p in found),
                len(found),
            ),
        )

    def _merged(self, schema: Json) -> Json:
        """An ``allOf`` as one object schema: a field of any part is a field of the whole
        (checked part by part, a closed part would call the others' fields unknown)."""
        merged: Json = {k: v for k, v in schema.items() if k != "allOf"}
        properties: Json = dict(merged.get("properties", {}))
        required: list[str] = list(merged.get("required", []))
        for given in schema["allOf"]:
            part = self._resolve(given)
            if "allOf" in part:
                part = self._merged(part)
            properties |= part.get("properties", {})
            required += part.get("required", [])
            for key in ("type", "anyOf", "oneOf", "additionalProperties"):
                if key in part:
                    merged.setdefault(key, part[key])
        return merged | {"properties": properties, "required": required}

    def _type_values(self, schema: Json) -> list[Any]:
        """The values a union's branch allows in its ``type`` field (none: any)."""
        known = self._types.get(id(schema))
        if known is None:
            branch = self._resolve(schema)
            kind = self._resolve(branch.get("properties", {}).get("type", {}))
            known = list(kind.get("enum", [kind["const"]] if "const" in kind else []))
            self._types[id(schema)] = known
        return known


def _operation(method: str, template: str, op: Json, document: Json) -> Operation:
    content = (op.get("requestBody") or {}).get("content", {})
    request = content.get("application/json", {}).get("schema")
    responses: dict[int, Json] = {}
    shared = document["components"]["responses"]
    for status, given in op["responses"].items():
        # a shared answer (the 429, the 4XX) is a reference
        answer = shared[given["$ref"].rsplit("/", 1)[1]] if "$ref" in given else given
        schema = (answer.get("content") or {}).get("application/json", {}).get("schema")
        if schema is not None:
            # "4XX" is kept under its class, 4: any client error without its own entry
            responses[int(status) if status.isdigit() else int(status[0])] = schema
    return Operation(method, template, request, responses)


def _is(kind: str, value: Any, schema: Json) -> bool:
    if kind == "null":
        return value is None
    if kind == "boolean":
        return isinstance(value, bool)
    if kind == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == "number":
        return isinstance(value, int | float) and not isinstance(value, bool)
    if kind == "string":
        # Discord's behaviour: a snowflake may be sent as a number as well as a string.
        snowflake = schema.get("format") == "snowflake"
        return isinstance(value, str) or (snowflake and isinstance(value, int) and value >= 0)
    if kind == "array":
        return isinstance(value, list)
    if kind == "object":
        return isinstance(value, dict)
    return False


def _type_error(kinds: list[str], value: Any) -> tuple[str, str]:
    if value is None:
        return "BASE_TYPE_REQUIRED", "This field is required"
    wanted = next((k for k in kinds if k != "null"), "null")
    codes = {
        "integer": ("NUMBER_TYPE_COERCE", f"Value {json.dumps(value)} is not int."),
        "number": ("NUMBER_TYPE_COERCE", f"Value {json.dumps(value)} is not a number."),
        "string": ("STRING_TYPE_CONVERT", "Could not interpret value as string."),
        "boolean": ("BOOLEAN_TYPE_CONVERT", "Could not interpret value as boolean."),
        "array": ("BASE_TYPE_BAD_TYPE", "Must be an array."),
        "object": ("DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType"),
    }
    return codes.get(wanted, ("BASE_TYPE_BAD_TYPE", f"Must be of type {wanted}."))


def _length(
    where: tuple[str, ...], size: int, schema: Json, low: str = "minLength", high: str = "maxLength"
) -> Iterator[Problem]:
    least, most = schema.get(low), schema.get(high)
    if (least is None or size >= least) and (most is None or size <= most):
        return
    if least is not None and most is not None:
        yield where, "BASE_TYPE_BAD_LENGTH", f"Must be between {least} and {most} in length."
    elif most is not None:
        yield where, "BASE_TYPE_MAX_LENGTH", f"Must be {most} or fewer in length."
    else:
        yield where, "BASE_TYPE_MIN_LENGTH", f"Must be {least} or more in length."


def _bounds(where: tuple[str, ...], value: float, schema: Json) -> Iterator[Problem]:
    least, most = schema.get("minimum"), schema.get("maximum")
    if least is not None and value < least:
        yield where, "NUMBER_TYPE_MIN", f"Value should be greater than or equal to {least}."
    if most is not None and value > most:
        yield where, "NUMBER_TYPE_MAX", f"Value should be less than or equal to {most}."


def discord_errors(problems: list[Problem]) -> Json:
    """Problems as Discord nests them: ``{field: {index: {field: {"_errors": [...]}}}}``."""
    tree: Json = {}
    for where, code, message in problems:
        node = tree
        for key in where:
            node = node.setdefault(key, {})
        node.setdefault("_errors", []).append({"code": code, "message": message})
    return tree


def refusal(problems: list[Problem]) -> Json:
    return {"code": 50035, "message": "Invalid Form Body", "errors": discord_errors(problems)}


def describe(problems: list[Problem]) -> str:
    return "; ".join(f"{'.'.join(where) or '(body)'}: {message}" for where, _, message in problems)


@cache
def spec() -> Spec:
    """The spec, read once per process (it is 1.2 MB of JSON)."""
    return Spec(json.loads(SPEC.read_text()))
