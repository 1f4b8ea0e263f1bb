"""An outgoing message as the outbox and the scheduled pushes store it: its phrases, buttons
(each with its intent) and drawings as JSON, its attachment in columns of their own."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any

from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession

from bot.db.models import MessageAnchorRow, OutboxRow, ScheduledPushRow
from bot.db.models.outbox import _MessageColumns
from domain.intents import (
    CheckIn,
    DecideProtest,
    FileProtest,
    Intent,
    OpenLot,
    OpenProtocol,
    ProtestChoice,
    intent_fields,
    intent_of,
)
from domain.outgoing import (
    ArgumentValue,
    Attachment,
    Button,
    Drawing,
    Html,
    Lines,
    Localized,
    OutgoingMessage,
    Phrase,
)

# Rows written by one INSERT (well under SQLite's and asyncpg's limits on bound parameters).
BATCH = 500


def utc(moment: datetime | None) -> datetime | None:
    # SQLite hands back naive datetimes; everything is stored in UTC.
    if moment is None or moment.tzinfo is not None:
        return moment
    return moment.replace(tzinfo=UTC)


def _argument_json(value: ArgumentValue) -> Any:
    match value:
        case Html():
            return {"html": value.markup}
        case Decimal():
            return {"points": str(value)}
        case Localized():
            return {"ru": value.ru, "en": value.en}
        case Phrase():
            return {"phrase": _phrase_json(value)}
        case Lines():
            lines = [_phrase_json(phrase) for phrase in value.phrases]
            return {"lines": lines, "separator": value.separator}
    return value


def _argument(value: Any) -> ArgumentValue:
    if not isinstance(value, dict):
        return value
    if "html" in value:
        return Html(value["html"])
    if "points" in value:
        return Decimal(value["points"])
    if "phrase" in value:
        return _phrase(value["phrase"])
    if "lines" in value:
        return Lines(tuple(_phrase(phrase) for phrase in value["lines"]), value["separator"])
    return Localized(value["ru"], value["en"])


def _phrase_json(phrase: Phrase) -> dict[str, Any]:
    return {"key": phrase.key, "args": [[name, _argument_json(v)] for name, v in phrase.args]}


def _phrase(data: dict[str, Any]) -> Phrase:
    return Phrase(data["key"], tuple((name, _argument(value)) for name, value in data["args"]))


def _button_json(button: Button) -> dict[str, Any]:
    text = _phrase_json(button.text) if isinstance(button.text, Phrase) else button.text
    intent = intent_fields(button.intent) if button.intent is not None else None
    return {"text": text, "intent": intent, "url": button.url}


def _drawing_json(drawing: Drawing) -> dict[str, Any]:
    return {"drawer": drawing.drawer, "args": [[name, value] for name, value in drawing.args]}


def _drawing(data: dict[str, Any] | None) -> Drawing | None:
    if data is None:
        return None
    return Drawing(data["drawer"], tuple((name, value) for name, value in data["args"]))


def _legacy_intent(callback_data: str) -> Intent:
    """The intent of a button stored as callback data (rows written before intents, such as
    reminders scheduled hours ahead): the five kinds those buttons had."""
    prefix, *rest = callback_data.split(":")
    if prefix == "pp":
        return OpenProtocol(int(rest[0]))
    if prefix == "lo":
        return OpenLot(int(rest[0]))
    if prefix == "pt":
        return FileProtest(int(rest[0]))
    if prefix == "pd":
        return DecideProtest(int(rest[0]), ProtestChoice(rest[1]))
    if prefix == "ci":
        return CheckIn(int(rest[0]))
    raise ValueError(f"a stored button with unknown callback data {callback_data!r}")


def _button(data: dict[str, Any]) -> Button:
    text = _phrase(data["text"]) if isinstance(data["text"], dict) else data["text"]
    if data.get("callback_data") is not None:
        return Button(text, _legacy_intent(data["callback_data"]), data["url"])
    intent = intent_of(data["intent"]) if data.get("intent") is not None else None
    return Button(text, intent, data["url"])


def _body(message: OutgoingMessage) -> str:
    """Everything but the chat, the tournament and the attachment, as JSON."""
    return json.dumps(
        {
            "phrase": _phrase_json(message.phrase) if message.phrase else None,
            "text": message.text,
            "buttons": [[_button_json(button) for button in row] for row in message.buttons],
            "edit_key": message.edit_key,
            "pin": message.pin,
            "dedupe_key": message.dedupe_key,
            "drawing": _drawing_json(message.attachment.drawing)
            if message.attachment and message.attachment.drawing
            else None,
            "text_drawing": _drawing_json(message.text_drawing) if message.text_drawing else None,
        },
        ensure_ascii=False,
    )


def message_values(message: OutgoingMessage) -> dict[str, Any]:
    """The stored columns of a message (`_MessageColumns`)."""
    attachment = message.attachment
    return {
        "chat_id": message.chat_id,
        "tournament_id": message.tournament_id,
        "body": _body(message),
        "attachment_kind": attachment.kind if attachment else None,
        "attachment_name": attachment.filename if attachment else None,
        "attachment": attachment.content if attachment else None,
    }


def conflict_insert(
    session: AsyncSession, table: type[OutboxRow] | type[ScheduledPushRow] | type[MessageAnchorRow]
) -> Any:
    """An INSERT that can do nothing, or update, on a conflict (SQLite's and PostgreSQL's)."""
    return insert_of(session.get_bind().dialect.name == "postgresql", table)


def insert_of(postgres: bool, table: Any) -> Any:
    """An INSERT that can do nothing, or update, on a conflict: PostgreSQL's or SQLite's."""
    return postgresql.insert(table) if postgres else sqlite.insert(table)


def message_of(row: _MessageColumns) -> OutgoingMessage:
    data = json.loads(row.body)
    attachment = None
    if row.attachment_kind is not None:
        attachment = Attachment(
            row.attachment_kind,  # type: ignore[arg-type]
            row.attachment or b"",
            row.attachment_name or "",
            _drawing(data.get("drawing")),
        )
    return OutgoingMessage(
        chat_id=row.chat_id,
        phrase=_phrase(data["phrase"]) if data["phrase"] else None,
        text=data["text"],
        buttons=tuple(tuple(_button(b) for b in line) for line in data["buttons"]),
        attachment=attachment,
        edit_key=data["edit_key"],
        pin=data["pin"],
        tournament_id=row.tournament_id,
        dedupe_key=data["dedupe_key"],
        text_drawing=_drawing(data.get("text_drawing")),
    )
