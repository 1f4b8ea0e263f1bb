"""Scripted people and chats: what tests and the simulation do on the human side of Telegram."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Generator
from typing import Any

from harness.fake_telegram.html import utf16_length
from harness.fake_telegram.state import (
    WAIT_LIMIT,
    CallbackAnswer,
    ChatMessage,
    ChatState,
    StoredMessage,
    UserState,
    World,
)
from harness.fake_telegram.webapp import init_data, launch_url

Predicate = Callable[[ChatMessage], bool]


class FakeChat:
    """A chat as a test sees it: what it shows and what the bot does in it."""

    def __init__(self, world: World, chat: ChatState) -> None:
        self._world = world
        self._chat = chat

    @property
    def id(self) -> int:
        return self._chat.id

    @property
    def messages(self) -> list[ChatMessage]:
        return self._chat.visible()

    async def wait_for(
        self, predicate: Predicate | None = None, timeout: float = WAIT_LIMIT
    ) -> ChatMessage:
        """The first message the bot sends or edits here, after the last action in this chat
        or the last match, that satisfies `predicate`; earlier ones are passed over."""
        return await self._world.wait_for(self._chat, predicate, timeout)


class FakeGroup(FakeChat):
    """A group or supergroup; its members write in it with `user.send(text, chat=group)`."""

    def add(self, user: FakeUser) -> None:
        self._chat.members.add(user.id)


class FakeChannel(FakeChat):
    """A channel the bot posts to (the tournament's announcements and standings)."""


class Press:
    """A pressed inline button; await it for the bot's answerCallbackQuery."""

    def __init__(self, query_id: str, answered: asyncio.Future[CallbackAnswer]) -> None:
        self.query_id = query_id
        self._answered = answered

    async def answer(self, timeout: float = WAIT_LIMIT) -> CallbackAnswer:
        try:
            return await asyncio.wait_for(asyncio.shield(self._answered), timeout)
        except TimeoutError:
            raise TimeoutError(
                f"the bot did not answer callback query {self.query_id} within {timeout}s"
            ) from None

    def __await__(self) -> Generator[Any, None, CallbackAnswer]:
        return self.answer().__await__()


class FakeUser(FakeChat):
    """A person with a private chat with the bot; `messages` and `wait_for` read that chat."""

    def __init__(self, world: World, user: UserState, chat: ChatState) -> None:
        super().__init__(world, chat)
        self._user = user

    @property
    def first_name(self) -> str:
        return self._user.first_name

    @property
    def username(self) -> str | None:
        return self._user.username

    @property
    def started(self) -> bool:
        return self._user.started

    @property
    def blocked(self) -> bool:
        return self._user.blocked

    def send(
        self, text: str, chat: FakeChat | None = None, reply_to: ChatMessage | None = None
    ) -> ChatMessage:
        """Write `text` (a command such as `/start payload` included) to the bot."""
        target = self._target(chat)
        entities = []
        if text.startswith("/"):
            command = text.split(maxsplit=1)[0]
            entities.append({"type": "bot_command", "offset": 0, "length": utf16_length(command)})
        replied = target.messages.get(reply_to.message_id) if reply_to else None
        message = target.new_message(self._user, text=text, entities=entities, reply_to=replied)
        return self._deliver(message)

    def send_document(
        self,
        filename: str,
        content: bytes,
        caption: str | None = None,
        mime_type: str | None = None,
        chat: FakeChat | None = None,
    ) -> ChatMessage:
        """Upload a file; the bot can fetch it with getFile and the file URL."""
        target = self._target(chat)
        stored = self._world.store_file(content, filename, mime_type)
        message = target.new_message(self._user, caption=caption, document=stored)
        return self._deliver(message)

    def press(
        self,
        message: ChatMessage,
        button_text: str | None = None,
        callback_data: str | None = None,
    ) -> Press:
        """Press a button that is on `message`'s keyboard now; raise LookupError if it is not."""
        if button_text is None and callback_data is None:
            raise ValueError("name the button by its text or its callback data")
        stored = self._world.chats[message.chat_id].messages.get(message.message_id)
        if stored is None or stored.deleted:
            raise LookupError(f"message {message.message_id} is gone from chat {message.chat_id}")
        button = next(
            (
                b
                for b in stored.inline_buttons()
                if button_text in (None, b["text"])
                and callback_data in (None, b.get("callback_data"))
            ),
            None,
        )
        if button is None or "callback_data" not in button:
            shown = stored.view().buttons
            raise LookupError(
                f"no callback button {button_text or callback_data!r} on message "
                f"{message.message_id}; it shows {shown}"
            )
        return self._press(stored, button["callback_data"])

    def web_app_data(self, auth_date: float | None = None) -> str:
        """The signed `initData` a Mini App opened by this person now receives."""
        moment = int(self._world.web_app_clock() if auth_date is None else auth_date)
        query_id = f"AAE{self._world.new_callback_query_id()}"
        return init_data(self._world.token, self._user.as_api(), moment, query_id)

    def open_web_app(self, message: ChatMessage, button_text: str | None = None) -> str:
        """Open a `web_app` button on `message`'s keyboard: the address the client loads,
        with the signed launch data in its fragment; LookupError if there is no such button."""
        stored = self._world.chats[message.chat_id].messages.get(message.message_id)
        if stored is None or stored.deleted:
            raise LookupError(f"message {message.message_id} is gone from chat {message.chat_id}")
        button = next(
            (
                b
                for b in stored.inline_buttons()
                if "web_app" in b and button_text in (None, b["text"])
            ),
            None,
        )
        if button is None:
            shown = stored.view().buttons
            raise LookupError(
                f"no web_app button {button_text!r} on message {message.message_id}; "
                f"it shows {shown}"
            )
        return launch_url(button["web_app"]["url"], self.web_app_data())

    def forge_press(self, message: ChatMessage, callback_data: str) -> Press:
        """Press a button with `callback_data` under `message`, whatever its keyboard shows:
        what a modified client (or an old copy of the keyboard) sends."""
        stored = self._world.chats[message.chat_id].messages[message.message_id]
        return self._press(stored, callback_data)

    def _press(self, stored: StoredMessage, callback_data: str) -> Press:
        query_id = self._world.new_callback_query_id()
        answered: asyncio.Future[CallbackAnswer] = asyncio.get_running_loop().create_future()
        self._world.callbacks[query_id] = answered
        stored.chat.read_cursor = len(stored.chat.bot_activity)
        self._world.queue_update(
            "callback_query",
            {
                "id": query_id,
                "from": self._user.as_api(),
                "message": stored.as_api(),
                "chat_instance": str(stored.chat.id),
                "data": callback_data,
            },
        )
        return Press(query_id, answered)

    def block_bot(self) -> None:
        """Block the bot: from now on it gets 403 "bot was blocked by the user" here."""
        self._user.blocked = True
        self._queue_membership("member", "kicked")

    def _target(self, chat: FakeChat | None) -> ChatState:
        target = self._chat if chat is None else chat._chat
        if target.type == "channel":
            raise ValueError("people read channels; only the bot posts in them here")
        if target is not self._chat and self.id not in target.members:
            raise ValueError(f"{self.first_name} is not a member of chat {target.id}")
        return target

    def _deliver(self, message: StoredMessage) -> ChatMessage:
        if message.chat is self._chat:
            if self._user.blocked:
                # Telegram's "Restart" button unblocks the bot before the message goes out.
                self._user.blocked = False
                self._queue_membership("kicked", "member")
            self._user.started = True
        message.chat.read_cursor = len(message.chat.bot_activity)
        self._world.queue_update("message", message.as_api())
        return message.view()

    def _queue_membership(self, old: str, new: str) -> None:
        bot = self._world.bot.as_api()
        self._world.queue_update(
            "my_chat_member",
            {
                "chat": self._chat.as_api(),
                "from": self._user.as_api(),
                "date": int(time.time()),
                "old_chat_member": _membership(old, bot),
                "new_chat_member": _membership(new, bot),
            },
        )


def _membership(status: str, bot: dict[str, Any]) -> dict[str, Any]:
    if status == "kicked":
        return {"status": "kicked", "user": bot, "until_date": 0}
    return {"status": status, "user": bot}
