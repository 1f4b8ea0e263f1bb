"""Bot API request parameters, however they arrive, and errors shaped like Telegram's."""

from __future__ import annotations

import json
from typing import Any

from aiohttp import web
from aiohttp.web_request import FileField


class ApiError(Exception):
    """An answer with `ok: false`; `description` uses Telegram's own wording."""

    def __init__(self, error_code: int, description: str, retry_after: int | None = None) -> None:
        super().__init__(description)
        self.error_code = error_code
        self.description = description
        self.retry_after = retry_after

    def as_api(self) -> dict[str, Any]:
        body: dict[str, Any] = {
            "ok": False,
            "error_code": self.error_code,
            "description": self.description,
        }
        if self.retry_after is not None:
            body["parameters"] = {"retry_after": self.retry_after}
        return body


def bad_request(reason: str) -> ApiError:
    return ApiError(400, f"Bad Request: {reason}")


def forbidden(reason: str) -> ApiError:
    return ApiError(403, f"Forbidden: {reason}")


class Params:
    """Typed access to a call's parameters.

    JSON bodies carry real types; query strings and forms (aiogram sends multipart) carry
    strings with nested objects JSON-encoded, so every accessor accepts both.
    """

    def __init__(self, values: dict[str, Any], files: dict[str, FileField]) -> None:
        self._values = values
        self._files = files

    @classmethod
    async def read(cls, request: web.Request) -> Params:
        values: dict[str, Any] = dict(request.query)
        files: dict[str, FileField] = {}
        if request.content_type == "application/json":
            try:
                body = await request.json()
            except ValueError as error:
                raise bad_request("can't parse JSON request body") from error
            values.update(body if isinstance(body, dict) else {})
        elif request.content_type in {"multipart/form-data", "application/x-www-form-urlencoded"}:
            for key, value in (await request.post()).items():
                if isinstance(value, FileField):
                    files[key] = value
                else:
                    values[key] = value
        return cls(values, files)

    def has(self, name: str) -> bool:
        return self._values.get(name) not in (None, "")

    def string(self, name: str, required: bool = False) -> str | None:
        value = self._values.get(name)
        if value in (None, ""):
            if required:
                raise bad_request(f"{name} is empty")
            return None
        return str(value)

    def integer(self, name: str, required: bool = False) -> int | None:
        value = self.string(name, required)
        if value is None:
            return None
        try:
            return int(value)
        except ValueError as error:
            raise bad_request(f"invalid {name} specified") from error

    def required_int(self, name: str) -> int:
        value = self.integer(name, required=True)
        assert value is not None
        return value

    def flag(self, name: str) -> bool:
        value = self._values.get(name)
        if isinstance(value, bool):
            return value
        return str(value).lower() in {"true", "1"}

    def json_object(self, name: str, what: str) -> Any:
        value = self._values.get(name)
        if not isinstance(value, str):
            return value
        if value == "":
            return None
        try:
            return json.loads(value)
        except ValueError as error:
            raise bad_request(f"can't parse {what} JSON object") from error

    def chat_ref(self, name: str = "chat_id") -> int | str:
        """A numeric chat id or a public `@username`."""
        value = self.string(name, required=True)
        assert value is not None
        if value.startswith("@"):
            return value
        try:
            return int(value)
        except ValueError as error:
            raise bad_request("chat not found") from error

    def input_file(self, name: str) -> tuple[str | None, FileField | None]:
        """A file sent with the call (`attach://key` or the field itself) or a file id / URL."""
        if name in self._files:
            return None, self._files[name]
        reference = self.string(name, required=True)
        assert reference is not None
        return self.file_reference(reference)

    def file_reference(self, reference: str) -> tuple[str | None, FileField | None]:
        """`attach://key` (a file sent with the call) or a file id / URL, as in a media group."""
        if reference.startswith("attach://"):
            attached = self._files.get(reference.removeprefix("attach://"))
            if attached is None:
                raise bad_request(f"file {reference} not found in the request")
            return None, attached
        return reference, None
