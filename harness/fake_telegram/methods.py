"""The Bot API methods the fake server answers, with Telegram's checks and error wording."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp.web_request import FileField

from harness.fake_telegram.content import CAPTION_LIMIT, TEXT_LIMIT, formatted, markup
from harness.fake_telegram.html import parse_html
from harness.fake_telegram.limits import FloodControl
from harness.fake_telegram.members import bot_membership, chat_info
from harness.fake_telegram.params import ApiError, Params, bad_request, forbidden
from harness.fake_telegram.state import CallbackAnswer, ChatState, StoredFile, StoredMessage, World

NOT_MODIFIED = (
    "message is not modified: specified new message content and reply markup are exactly the "
    "same as a current content and reply markup of the message"
)
QUERY_TOO_OLD = "query is too old and response timeout expired or query ID is invalid"
# Sends that Telegram's flood control counts.
SENDING_METHODS = frozenset({"sendmessage", "sendphoto", "senddocument", "copymessage"})
# Calls that act on a chat, so an injected fault for that chat answers them instead.
CHAT_ACTIONS = SENDING_METHODS | {
    "editmessagetext",
    "editmessagereplymarkup",
    "editmessagecaption",
    "deletemessage",
    "pinchatmessage",
    "unpinchatmessage",
    "sendchataction",
}
Handler = Callable[[Params], Awaitable[Any]]


class BotApi:
    """One bot's view of the fake Telegram: what each method does to the shared `World`."""

    def __init__(
        self, world: World, flood_control: FloodControl | None, clock: Callable[[], float]
    ) -> None:
        self.world = world
        self.flood_control = flood_control
        self.clock = clock
        self.closing = False
        self.webhook_url = ""
        self.webhook_secret: str | None = None
        self.commands: dict[tuple[str, str], list[dict[str, str]]] = {}
        self.descriptions: dict[tuple[str, str], str] = {}
        self._poll_generation = 0
        self.early_answers = 0  # raised to answer the long polls waiting now at once
        self.methods: dict[str, Handler] = {
            "getme": self.get_me,
            "getupdates": self.get_updates,
            "setwebhook": self.set_webhook,
            "deletewebhook": self.delete_webhook,
            "getwebhookinfo": self.get_webhook_info,
            "close": self.acknowledge,
            "logout": self.acknowledge,
            "sendmessage": self.send_message,
            "sendphoto": self.send_photo,
            "senddocument": self.send_document,
            "copymessage": self.copy_message,
            "editmessagetext": self.edit_message_text,
            "editmessagecaption": self.edit_message_caption,
            "editmessagereplymarkup": self.edit_message_reply_markup,
            "deletemessage": self.delete_message,
            "pinchatmessage": self.pin_chat_message,
            "unpinchatmessage": self.unpin_chat_message,
            "sendmediagroup": self.send_media_group,
            "sendchataction": self.send_chat_action,
            "answercallbackquery": self.answer_callback_query,
            "getchat": self.get_chat,
            "getchatmember": self.get_chat_member,
            "getfile": self.get_file,
            "setmycommands": self.set_my_commands,
            "getmycommands": self.get_my_commands,
            "deletemycommands": self.delete_my_commands,
            "setmydescription": self.set_my_description,
            "setmyshortdescription": self.set_my_description,
        }

    # --- chats and access -------------------------------------------------------------------

    def find_chat(self, reference: int | str) -> ChatState | None:
        if isinstance(reference, str):
            username = reference.removeprefix("@").lower()
            return next(
                (c for c in self.world.chats.values() if (c.username or "").lower() == username),
                None,
            )
        return self.world.chats.get(reference)

    def chat(self, params: Params, name: str = "chat_id") -> ChatState:
        chat = self.find_chat(params.chat_ref(name))
        if chat is None:
            raise bad_request("chat not found")
        return chat

    def check_can_write(self, chat: ChatState) -> None:
        if chat.user is not None and chat.user.blocked:
            raise forbidden("bot was blocked by the user")
        if chat.user is not None and not chat.user.started:
            raise forbidden("bot can't initiate conversation with a user")
        if chat.bot_status == "left":
            raise forbidden(f"bot is not a member of the {chat.type} chat")
        if chat.type == "channel" and not chat.can_post:
            raise bad_request("need administrator rights in the channel chat")

    def check_flood(self, chat: ChatState) -> None:
        if self.flood_control is None:
            return
        retry_after = self.flood_control.retry_after(chat.id, chat.is_private, self.clock())
        if retry_after is not None:
            raise ApiError(429, f"Too Many Requests: retry after {retry_after}", retry_after)

    def sent(self, message: StoredMessage) -> dict[str, Any]:
        if self.flood_control is not None:
            self.flood_control.record(message.chat.id, message.chat.is_private, self.clock())
        self.world.bot_changed(message)
        return message.as_api()

    def writable_chat(self, params: Params) -> ChatState:
        chat = self.chat(params)
        self.check_can_write(chat)
        return chat

    def sending_chat(self, params: Params) -> ChatState:
        chat = self.writable_chat(params)
        self.check_flood(chat)
        return chat

    def bot_as_sender(self, chat: ChatState) -> Any:
        # Channel posts are signed by the channel itself, not by the bot.
        return None if chat.type == "channel" else self.world.bot

    def target_message(self, params: Params, missing: str) -> StoredMessage:
        chat = self.writable_chat(params)
        message = chat.messages.get(params.required_int("message_id"))
        if message is None or message.deleted:
            raise bad_request(missing)
        return message

    def reply_target(self, chat: ChatState, params: Params) -> StoredMessage | None:
        reply = params.json_object("reply_parameters", "reply parameters") or {}
        message_id = reply.get("message_id") or params.integer("reply_to_message_id")
        if message_id is None:
            return None
        message = chat.messages.get(int(message_id))
        if message is None or message.deleted:
            if reply.get("allow_sending_without_reply") or params.flag(
                "allow_sending_without_reply"
            ):
                return None
            raise bad_request("message to be replied not found")
        return message

    def input_file(self, params: Params, field: str) -> StoredFile:
        return self.stored_file(*params.input_file(field))

    def stored_file(self, reference: str | None, upload: FileField | None) -> StoredFile:
        if upload is not None:
            content = upload.file.read()
            return self.world.store_file(content, upload.filename, upload.content_type)
        assert reference is not None
        if reference in self.world.files:
            return self.world.files[reference]
        if reference.startswith(("http://", "https://")):
            return self.world.store_file(None, url=reference)
        raise bad_request("wrong file identifier/HTTP URL specified")

    # --- updates and webhooks ---------------------------------------------------------------

    async def get_me(self, params: Params) -> dict[str, Any]:
        return {
            **self.world.bot.as_api(),
            "can_join_groups": True,
            "can_read_all_group_messages": False,
            "supports_inline_queries": False,
        }

    async def get_updates(self, params: Params) -> list[dict[str, Any]]:
        if self.webhook_url:
            raise ApiError(
                409,
                "Conflict: can't use getUpdates method while webhook is active; use "
                "deleteWebhook to delete the webhook first",
            )
        offset = params.integer("offset")
        limit = min(max(params.integer("limit") or 100, 1), 100)
        timeout = max(params.integer("timeout") or 0, 0)
        allowed = params.json_object("allowed_updates", "allowed updates")
        if allowed is not None:
            self.world.allowed_updates = list(allowed)
        self.confirm(offset)
        # A newer getUpdates ends an older one that is still waiting at once, as on Telegram.
        self._poll_generation += 1
        generation = self._poll_generation
        early = self.early_answers
        self.world.update_queued.fire()
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not self.deliverable() and not self.closing and loop.time() < deadline:
            try:
                await asyncio.wait_for(self.world.update_queued.wait(), deadline - loop.time())
            except TimeoutError:
                break
            if generation != self._poll_generation:
                raise ApiError(
                    409,
                    "Conflict: terminated by other getUpdates request; make sure that only one "
                    "bot instance is running",
                )
            if early != self.early_answers:
                break  # answered before its timeout, as Telegram may
        batch = self.deliverable()[:limit]
        if batch:
            self.world.delivered_update_id = max(
                self.world.delivered_update_id, batch[-1]["update_id"]
            )
        return batch

    def confirm(self, offset: int | None) -> None:
        updates = self.world.updates
        if offset is None or offset == 0:
            return
        if offset < 0:
            del updates[: max(len(updates) + offset, 0)]
        else:
            updates[:] = [update for update in updates if update["update_id"] >= offset]

    def deliverable(self) -> list[dict[str, Any]]:
        allowed = self.world.allowed_updates
        if allowed:
            # Telegram never delivers the kinds a bot opted out of.
            self.world.updates[:] = [
                update for update in self.world.updates if _kind(update) in allowed
            ]
        return self.world.updates

    async def set_webhook(self, params: Params) -> bool:
        self.webhook_url = params.string("url", required=True) or ""
        self.webhook_secret = params.string("secret_token")
        return True

    async def delete_webhook(self, params: Params) -> bool:
        self.webhook_url = ""
        if params.flag("drop_pending_updates"):
            self.world.updates.clear()
        return True

    async def get_webhook_info(self, params: Params) -> dict[str, Any]:
        return {
            "url": self.webhook_url,
            "has_custom_certificate": False,
            "pending_update_count": len(self.world.updates),
        }

    async def acknowledge(self, params: Params) -> bool:
        return True

    # --- messages ---------------------------------------------------------------------------

    async def send_message(self, params: Params) -> dict[str, Any]:
        chat = self.sending_chat(params)
        text, entities = formatted(params, "text", TEXT_LIMIT, required=True)
        inline, keyboard = markup(params)
        message = chat.new_message(
            self.bot_as_sender(chat),
            text=text,
            entities=entities,
            reply_markup=inline,
            keyboard=keyboard,
            reply_to=self.reply_target(chat, params),
        )
        return self.sent(message)

    async def send_document(self, params: Params) -> dict[str, Any]:
        return await self.send_file(params, "document")

    async def send_photo(self, params: Params) -> dict[str, Any]:
        return await self.send_file(params, "photo")

    async def send_file(self, params: Params, field: str) -> dict[str, Any]:
        chat = self.sending_chat(params)
        caption, entities = formatted(params, "caption", CAPTION_LIMIT, required=False)
        inline, keyboard = markup(params)
        stored = self.input_file(params, field)
        message = chat.new_message(
            self.bot_as_sender(chat),
            caption=caption,
            entities=entities,
            reply_markup=inline,
            keyboard=keyboard,
            reply_to=self.reply_target(chat, params),
            **{field: stored},
        )
        return self.sent(message)

    async def send_media_group(self, params: Params) -> list[dict[str, Any]]:
        """An album: 2 to 10 photos or documents, one message each, captions as sent."""
        chat = self.sending_chat(params)
        media = params.json_object("media", "media") or []
        if not isinstance(media, list) or not 2 <= len(media) <= 10:
            raise bad_request("wrong number of messages in the media group: 2 to 10 are allowed")
        kinds = {item.get("type") for item in media if isinstance(item, dict)}
        if len(kinds) != 1 or not kinds <= {"photo", "document"}:
            raise bad_request("a media group holds photos or documents, one kind only")
        field = str(kinds.pop())
        messages = []
        for item in media:
            stored = self.stored_file(*params.file_reference(str(item.get("media", ""))))
            caption = item.get("caption")
            entities: list[dict[str, Any]] = []
            if caption is not None and str(item.get("parse_mode", "")).lower() == "html":
                caption, entities = parse_html(caption)
            message = chat.new_message(
                self.bot_as_sender(chat), caption=caption, entities=entities, **{field: stored}
            )
            messages.append(self.sent(message))
        return messages

    async def copy_message(self, params: Params) -> dict[str, int]:
        chat = self.sending_chat(params)
        source_chat = self.chat(params, "from_chat_id")
        source = source_chat.messages.get(params.required_int("message_id"))
        if source is None or source.deleted:
            raise bad_request("message to copy not found")
        inline, keyboard = markup(params)
        message = chat.new_message(
            self.bot_as_sender(chat),
            text=source.text,
            caption=source.caption,
            entities=list(source.entities),
            document=source.document,
            photo=source.photo,
            reply_markup=inline if params.has("reply_markup") else source.reply_markup,
            keyboard=keyboard,
        )
        self.sent(message)
        return {"message_id": message.message_id}

    async def edit_message_text(self, params: Params) -> dict[str, Any]:
        message = self.editable_message(params)
        if message.text is None:
            raise bad_request("there is no text in the message to edit")
        text, entities = formatted(params, "text", TEXT_LIMIT, required=True)
        # Telegram drops the inline keyboard when an edit does not repeat it.
        inline, _ = markup(params)
        if (text, entities, inline) == (message.text, message.entities, message.reply_markup):
            raise bad_request(NOT_MODIFIED)
        message.text, message.entities, message.reply_markup = text, entities, inline
        return self.edited(message)

    async def edit_message_caption(self, params: Params) -> dict[str, Any]:
        message = self.editable_message(params)
        if message.document is None and message.photo is None:
            raise bad_request("there is no caption in the message to edit")
        caption, entities = formatted(params, "caption", CAPTION_LIMIT, required=False)
        inline, _ = markup(params)
        if (caption, entities, inline) == (message.caption, message.entities, message.reply_markup):
            raise bad_request(NOT_MODIFIED)
        message.caption, message.entities, message.reply_markup = caption, entities, inline
        return self.edited(message)

    async def edit_message_reply_markup(self, params: Params) -> dict[str, Any]:
        message = self.editable_message(params)
        inline, _ = markup(params)
        if inline == message.reply_markup:
            raise bad_request(NOT_MODIFIED)
        message.reply_markup = inline
        return self.edited(message)

    def editable_message(self, params: Params) -> StoredMessage:
        if params.has("inline_message_id"):
            raise bad_request("inline messages are not supported by this fake")
        message = self.target_message(params, "message to edit not found")
        if not message.from_bot:
            raise bad_request("message can't be edited")
        return message

    def edited(self, message: StoredMessage) -> dict[str, Any]:
        message.edit_date = int(time.time())
        self.world.bot_changed(message)
        return message.as_api()

    async def delete_message(self, params: Params) -> bool:
        message = self.target_message(params, "message to delete not found")
        message.deleted = True
        return True

    async def pin_chat_message(self, params: Params) -> bool:
        message = self.target_message(params, "message to pin not found")
        message.pinned = True
        return True

    async def unpin_chat_message(self, params: Params) -> bool:
        chat = self.writable_chat(params)
        if params.has("message_id"):
            message = self.target_message(params, "message to unpin not found")
        else:
            pinned = [m for m in chat.messages.values() if m.pinned and not m.deleted]
            if not pinned:
                raise bad_request("message to unpin not found")
            message = pinned[-1]
        message.pinned = False
        return True

    async def send_chat_action(self, params: Params) -> bool:
        self.writable_chat(params)
        return True

    async def answer_callback_query(self, params: Params) -> bool:
        query_id = params.string("callback_query_id", required=True) or ""
        waiting = self.world.callbacks.get(query_id)
        if waiting is None or waiting.done():
            raise bad_request(QUERY_TOO_OLD)
        waiting.set_result(
            CallbackAnswer(
                text=params.string("text"),
                show_alert=params.flag("show_alert"),
                url=params.string("url"),
            )
        )
        return True

    # --- chats, members and files -----------------------------------------------------------

    async def get_chat(self, params: Params) -> dict[str, Any]:
        chat = self.chat(params)
        if chat.user is not None and not chat.user.started:
            # Telegram shows the bot a private chat only once the person wrote to it.
            raise bad_request("chat not found")
        return chat_info(chat)

    async def get_chat_member(self, params: Params) -> dict[str, Any]:
        chat = self.chat(params)
        user_id = params.required_int("user_id")
        if user_id == self.world.bot.id:
            return bot_membership(self.world.bot.as_api(), chat)
        user = self.world.users.get(user_id)
        if user is None:
            raise bad_request("user not found")
        is_member = user_id in chat.members or (chat.user is not None and chat.user.id == user_id)
        return {"status": "member" if is_member else "left", "user": user.as_api()}

    async def get_file(self, params: Params) -> dict[str, Any]:
        stored = self.world.files.get(params.string("file_id", required=True) or "")
        if stored is None:
            raise bad_request("invalid file_id")
        answer: dict[str, Any] = {
            "file_id": stored.file_id,
            "file_unique_id": stored.file_unique_id,
        }
        if stored.content is not None:
            answer.update(file_size=len(stored.content), file_path=stored.file_path)
        return answer

    # --- the bot's profile ------------------------------------------------------------------

    @staticmethod
    def command_key(scope: dict[str, Any] | None, language_code: str) -> tuple[str, str]:
        return json.dumps(scope or {"type": "default"}, sort_keys=True), language_code

    def command_key_of(self, params: Params) -> tuple[str, str]:
        scope = params.json_object("scope", "bot command scope")
        return self.command_key(scope, params.string("language_code") or "")

    async def set_my_commands(self, params: Params) -> bool:
        commands = params.json_object("commands", "commands") or []
        self.commands[self.command_key_of(params)] = [
            {"command": c["command"], "description": c["description"]} for c in commands
        ]
        return True

    async def get_my_commands(self, params: Params) -> list[dict[str, str]]:
        return self.commands.get(self.command_key_of(params), [])

    async def delete_my_commands(self, params: Params) -> bool:
        self.commands.pop(self.command_key_of(params), None)
        return True

    async def set_my_description(self, params: Params) -> bool:
        for field in ("description", "short_description"):
            if params.has(field):
                self.descriptions[(field, params.string("language_code") or "")] = (
                    params.string(field) or ""
                )
        return True


def _kind(update: dict[str, Any]) -> str:
    return next(key for key in update if key != "update_id")
