"""What the fake Telegram remembers: people, chats, their messages, files and pending updates."""

from __future__ import annotations

import asyncio
import itertools
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

# How long a test waits by default for the bot (an answer, a message, idleness): an upper
# bound for a loaded machine, not a pace; waits end as soon as what they wait for happens.
WAIT_LIMIT = 120.0


class Signal:
    """Wakes every coroutine waiting on it; waiters re-check their condition themselves."""

    def __init__(self) -> None:
        self._event = asyncio.Event()

    def fire(self) -> None:
        self._event.set()
        self._event = asyncio.Event()

    async def wait(self) -> None:
        await self._event.wait()


@dataclass(frozen=True)
class FileView:
    file_id: str
    file_name: str | None
    mime_type: str | None
    content: bytes | None
    url: str | None = None


@dataclass(frozen=True)
class ChatMessage:
    """A message as the chat shows it now: edits applied, pins flagged."""

    message_id: int
    chat_id: int
    from_bot: bool
    text: str | None
    entities: tuple[dict[str, Any], ...]
    buttons: tuple[tuple[tuple[str, str | None], ...], ...]
    reply_keyboard: tuple[tuple[str, ...], ...]
    document: FileView | None
    photo: FileView | None
    pinned: bool
    edited: bool
    raw: dict[str, Any]


@dataclass(frozen=True)
class CallbackAnswer:
    """What the bot said in answerCallbackQuery (a toast or an alert)."""

    text: str | None
    show_alert: bool
    url: str | None


@dataclass
class StoredFile:
    file_id: str
    file_unique_id: str
    content: bytes | None
    file_name: str | None = None
    mime_type: str | None = None
    url: str | None = None

    @property
    def file_path(self) -> str:
        return f"documents/{self.file_unique_id}"

    def view(self) -> FileView:
        return FileView(self.file_id, self.file_name, self.mime_type, self.content, self.url)

    def as_document(self) -> dict[str, Any]:
        document: dict[str, Any] = {
            "file_id": self.file_id,
            "file_unique_id": self.file_unique_id,
        }
        if self.file_name:
            document["file_name"] = self.file_name
        if self.mime_type:
            document["mime_type"] = self.mime_type
        if self.content is not None:
            document["file_size"] = len(self.content)
        return document

    def as_photo(self) -> list[dict[str, Any]]:
        width, height = _png_size(self.content or b"")
        size: dict[str, Any] = {"file_id": self.file_id, "file_unique_id": self.file_unique_id}
        size.update(width=width, height=height, file_size=len(self.content or b""))
        return [size]


def _png_size(content: bytes) -> tuple[int, int]:
    # The charts the bot posts are PNGs; other formats report 0x0 rather than a guess.
    if content[:8] == b"\x89PNG\r\n\x1a\n" and len(content) >= 24:
        return int.from_bytes(content[16:20], "big"), int.from_bytes(content[20:24], "big")
    return 0, 0


@dataclass
class UserState:
    id: int
    first_name: str
    username: str | None
    language_code: str | None
    is_bot: bool = False
    started: bool = False
    blocked: bool = False

    def as_api(self) -> dict[str, Any]:
        user: dict[str, Any] = {"id": self.id, "is_bot": self.is_bot, "first_name": self.first_name}
        if self.username:
            user["username"] = self.username
        if self.language_code:
            user["language_code"] = self.language_code
        return user


@dataclass
class StoredMessage:
    chat: ChatState
    message_id: int
    date: int
    sender: UserState | None  # None for posts signed by a channel
    text: str | None = None
    entities: list[dict[str, Any]] = field(default_factory=list)
    caption: str | None = None
    reply_markup: dict[str, Any] | None = None  # inline keyboards only, as Telegram echoes
    keyboard: list[list[Any]] | None = None  # a reply keyboard shown under the input field
    document: StoredFile | None = None
    photo: StoredFile | None = None
    reply_to: StoredMessage | None = None
    edit_date: int | None = None
    pinned: bool = False
    deleted: bool = False

    @property
    def from_bot(self) -> bool:
        return self.sender is None or self.sender.is_bot

    def as_api(self, with_reply: bool = True) -> dict[str, Any]:
        message: dict[str, Any] = {
            "message_id": self.message_id,
            "date": self.date,
            "chat": self.chat.as_api(),
        }
        if self.sender is not None:
            message["from"] = self.sender.as_api()
        else:
            message["sender_chat"] = self.chat.as_api()
        if self.text is not None:
            message["text"] = self.text
            if self.entities:
                message["entities"] = self.entities
        if self.caption is not None:
            message["caption"] = self.caption
            if self.entities:
                message["caption_entities"] = self.entities
        if self.document is not None:
            message["document"] = self.document.as_document()
        if self.photo is not None:
            message["photo"] = self.photo.as_photo()
        if self.reply_markup is not None:
            message["reply_markup"] = self.reply_markup
        if self.edit_date is not None:
            message["edit_date"] = self.edit_date
        if with_reply and self.reply_to is not None and not self.reply_to.deleted:
            message["reply_to_message"] = self.reply_to.as_api(with_reply=False)
        return message

    def inline_buttons(self) -> list[dict[str, Any]]:
        rows = (self.reply_markup or {}).get("inline_keyboard", [])
        return [button for row in rows for button in row]

    def view(self) -> ChatMessage:
        markup = self.reply_markup or {}
        buttons = tuple(
            tuple(
                (button["text"], button.get("callback_data", button.get("url"))) for button in row
            )
            for row in markup.get("inline_keyboard", [])
        )
        reply_keyboard = tuple(
            tuple(button if isinstance(button, str) else button["text"] for button in row)
            for row in self.keyboard or []
        )
        return ChatMessage(
            message_id=self.message_id,
            chat_id=self.chat.id,
            from_bot=self.from_bot,
            text=self.text if self.text is not None else self.caption,
            entities=tuple(self.entities),
            buttons=buttons,
            reply_keyboard=reply_keyboard,
            document=self.document.view() if self.document else None,
            photo=self.photo.view() if self.photo else None,
            pinned=self.pinned,
            edited=self.edit_date is not None,
            raw=self.as_api(),
        )


@dataclass
class ChatState:
    id: int
    type: str  # "private", "group", "supergroup" or "channel"
    title: str | None = None
    username: str | None = None
    user: UserState | None = None  # the person on the other side of a private chat
    bot_status: str = "member"  # "member", "administrator" or "left"
    can_post: bool = True
    members: set[int] = field(default_factory=set)
    messages: dict[int, StoredMessage] = field(default_factory=dict)
    # Ids of the bot's sends and edits in order, and how far the tests have read them.
    bot_activity: list[int] = field(default_factory=list)
    read_cursor: int = 0
    _next_message_id: int = 1

    @property
    def is_private(self) -> bool:
        return self.type == "private"

    def as_api(self) -> dict[str, Any]:
        chat: dict[str, Any] = {"id": self.id, "type": self.type}
        if self.user is not None:
            chat["first_name"] = self.user.first_name
            if self.user.username:
                chat["username"] = self.user.username
        else:
            chat["title"] = self.title
            if self.username:
                chat["username"] = self.username
        return chat

    def new_message(self, sender: UserState | None, **content: Any) -> StoredMessage:
        message = StoredMessage(
            chat=self,
            message_id=self._next_message_id,
            date=int(time.time()),
            sender=sender,
            **content,
        )
        self._next_message_id += 1
        self.messages[message.message_id] = message
        return message

    def visible(self) -> list[ChatMessage]:
        return [message.view() for message in self.messages.values() if not message.deleted]


@dataclass
class World:
    """Everything the fake server and the scripted people share."""

    bot: UserState
    # The bot's token: Mini App launch data is signed with it, as Telegram does.
    token: str = ""
    # When a Mini App is opened (Unix seconds): the real time, or the bot's when its clock runs
    # faster (a simulation), so the launch data is as fresh for the bot as it is for Telegram.
    web_app_clock: Callable[[], float] = time.time
    users: dict[int, UserState] = field(default_factory=dict)
    chats: dict[int, ChatState] = field(default_factory=dict)
    files: dict[str, StoredFile] = field(default_factory=dict)
    updates: list[dict[str, Any]] = field(default_factory=list)
    delivered_update_id: int = 0  # the highest update id getUpdates has handed out
    allowed_updates: list[str] = field(default_factory=list)
    callbacks: dict[str, asyncio.Future[CallbackAnswer]] = field(default_factory=dict)
    # Fired when an update is queued (wakes long polls), when the bot changes a chat, and on
    # any sign of life (an update queued, a call starting or ending) for `wait_idle`.
    update_queued: Signal = field(default_factory=Signal)
    chat_changed: Signal = field(default_factory=Signal)
    activity: Signal = field(default_factory=Signal)
    _update_ids: itertools.count[int] = field(default_factory=lambda: itertools.count(1))
    _file_ids: itertools.count[int] = field(default_factory=lambda: itertools.count(1))
    _query_ids: itertools.count[int] = field(default_factory=lambda: itertools.count(1))

    def queue_update(self, kind: str, payload: dict[str, Any]) -> None:
        self.updates.append({"update_id": next(self._update_ids), kind: payload})
        self.update_queued.fire()
        self.activity.fire()

    def pending_updates(self) -> list[dict[str, Any]]:
        return [u for u in self.updates if u["update_id"] > self.delivered_update_id]

    def store_file(
        self,
        content: bytes | None,
        file_name: str | None = None,
        mime_type: str | None = None,
        url: str | None = None,
    ) -> StoredFile:
        number = next(self._file_ids)
        stored = StoredFile(
            f"FILE{number:06d}", f"U{number:06d}", content, file_name, mime_type, url
        )
        self.files[stored.file_id] = stored
        return stored

    def file_by_path(self, file_path: str) -> StoredFile | None:
        return next((f for f in self.files.values() if f.file_path == file_path), None)

    def new_callback_query_id(self) -> str:
        return f"{next(self._query_ids)}"

    def bot_changed(self, message: StoredMessage) -> None:
        message.chat.bot_activity.append(message.message_id)
        self.chat_changed.fire()

    async def wait_for(
        self,
        chat: ChatState,
        predicate: Any,
        timeout: float,
    ) -> ChatMessage:
        """The next message the bot sent or edited in `chat` since the last read that matches."""
        try:
            async with asyncio.timeout(timeout):
                while True:
                    found = self._next_match(chat, predicate)
                    if found is not None:
                        return found
                    await self.chat_changed.wait()
        except TimeoutError:
            seen = [(m.message_id, m.text) for m in chat.visible()]
            raise TimeoutError(
                f"chat {chat.id} got nothing matching within {timeout}s; it shows {seen}"
            ) from None

    def _next_match(self, chat: ChatState, predicate: Any) -> ChatMessage | None:
        while chat.read_cursor < len(chat.bot_activity):
            message = chat.messages[chat.bot_activity[chat.read_cursor]]
            chat.read_cursor += 1
            if message.deleted:
                continue
            view = message.view()
            if predicate is None or predicate(view):
                return view
        return None
