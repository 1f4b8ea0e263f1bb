"""The fake Telegram behaves like Telegram for a real aiogram Bot and Dispatcher over HTTP."""

from __future__ import annotations

import asyncio
import html
import struct
import zlib
from collections.abc import AsyncIterator

import aiohttp
import pytest
from aiogram import Bot, Dispatcher, F, Router
from aiogram.client.default import DefaultBotProperties
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.telegram import TelegramAPIServer
from aiogram.exceptions import (
    TelegramBadRequest,
    TelegramForbiddenError,
    TelegramRetryAfter,
    TelegramUnauthorizedError,
)
from aiogram.filters import CommandObject, CommandStart
from aiogram.types import (
    BotCommand,
    BufferedInputFile,
    CallbackQuery,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    Message,
)

from bot.telegram.replies import ReplyScope
from harness.fake_telegram import WAIT_LIMIT, FakeTelegram, RateLimits

PLAYER = 1001
OTHER = 1002


def keyboard(*buttons: InlineKeyboardButton) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(inline_keyboard=[list(buttons)])


def echo_router() -> Router:
    """A tiny bot: greets on /start with buttons, answers a press, echoes text and files."""
    router = Router()

    @router.message(CommandStart())
    async def start(message: Message, command: CommandObject) -> None:
        assert message.from_user is not None
        name = html.escape(message.from_user.first_name)
        await message.answer(
            f"Hello, <b>{name}</b>! Invited by {html.escape(command.args or 'nobody')}",
            reply_markup=keyboard(
                InlineKeyboardButton(text="Join", callback_data="join"),
                InlineKeyboardButton(text="Rules", url="https://example.org/rules"),
            ),
        )

    @router.callback_query(F.data == "join")
    async def join(query: CallbackQuery) -> None:
        assert isinstance(query.message, Message)
        await query.message.edit_text("You are registered")
        await query.answer("Welcome to the tournament", show_alert=True)

    @router.message(F.document)
    async def upper_file(message: Message, bot: Bot) -> None:
        assert message.document is not None
        content = await bot.download(message.document)
        assert content is not None
        name = f"upper-{message.document.file_name}"
        await message.answer_document(BufferedInputFile(content.read().upper(), filename=name))

    @router.message(F.text)
    async def echo(message: Message) -> None:
        await message.answer(html.escape(message.text or ""))

    return router


def make_bot(fake: FakeTelegram) -> Bot:
    session = AiohttpSession(api=TelegramAPIServer.from_base(fake.base_url))
    return Bot(fake.token, session=session, default=DefaultBotProperties(parse_mode="HTML"))


@pytest.fixture
async def bot(fake_telegram: FakeTelegram) -> AsyncIterator[Bot]:
    bot = make_bot(fake_telegram)
    yield bot
    await bot.session.close()


@pytest.fixture
async def polling_bot(bot: Bot) -> AsyncIterator[Bot]:
    dispatcher = Dispatcher()
    # As in the bot: the fake's wait_idle knows the updates being handled, and the stop lets
    # them finish before the session closes.
    scope = ReplyScope()
    dispatcher.update.outer_middleware(scope)
    dispatcher.include_router(echo_router())
    started = asyncio.Event()
    dispatcher.startup.register(started.set)
    polling = asyncio.create_task(
        dispatcher.start_polling(bot, handle_signals=False, close_bot_session=False)
    )
    await started.wait()
    yield bot
    await dispatcher.stop_polling()
    await polling
    await scope.finish(WAIT_LIMIT)


def png(width: int, height: int) -> bytes:
    """A real (black, greyscale) PNG image of the given size."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    pixels = zlib.compress((b"\0" + b"\0" * width) * height)
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", pixels) + chunk(b"IEND", b"")
    )


class ManualClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


# --- the HTTP surface ---------------------------------------------------------------------


async def test_aiogram_reaches_the_fake_and_a_wrong_token_is_unauthorized(
    fake_telegram: FakeTelegram, bot: Bot
) -> None:
    me = await bot.get_me()
    assert (me.id, me.username, me.is_bot) == (123456, "mafiatour_bot", True)

    stranger = Bot("999:WRONG", session=AiohttpSession(api=bot.session.api))
    with pytest.raises(TelegramUnauthorizedError):
        await stranger.get_me()
    await stranger.session.close()


async def test_json_bodies_query_strings_and_unknown_methods(fake_telegram: FakeTelegram) -> None:
    fake_telegram.user(PLAYER, "Anna").send("hi")
    base = f"{fake_telegram.base_url}/bot{fake_telegram.token}"
    async with aiohttp.ClientSession() as http:
        async with http.get(f"{base}/getMe?") as response:
            assert (await response.json())["result"]["username"] == "mafiatour_bot"
        body = {"chat_id": PLAYER, "text": "<i>json</i>", "parse_mode": "HTML"}
        async with http.post(f"{base}/sendMessage", json=body) as response:
            sent = (await response.json())["result"]
        async with http.post(f"{base}/sendTeleport", json={}) as response:
            assert response.status == 404
            assert await response.json() == {
                "ok": False,
                "error_code": 404,
                "description": "Not Found",
            }
    assert sent["entities"] == [{"offset": 0, "length": 4, "type": "italic"}]
    assert fake_telegram.messages(PLAYER)[-1].text == "json"


# --- updates ------------------------------------------------------------------------------


async def test_long_poll_answers_when_an_update_arrives(
    fake_telegram: FakeTelegram, bot: Bot
) -> None:
    anna = fake_telegram.user(PLAYER, "Anna")
    poll = asyncio.create_task(bot.get_updates(timeout=30))
    await asyncio.sleep(0)
    anna.send("/start ref42")

    # A poll that ignored the update would hold for 30 s and trip this guard.
    updates = await asyncio.wait_for(poll, timeout=WAIT_LIMIT)

    assert [u.message.text for u in updates if u.message] == ["/start ref42"]
    assert updates[0].message is not None and updates[0].message.from_user is not None
    assert updates[0].message.from_user.first_name == "Anna"


async def test_offsets_confirm_updates_and_limit_caps_a_batch(
    fake_telegram: FakeTelegram, bot: Bot
) -> None:
    anna = fake_telegram.user(PLAYER, "Anna")
    for text in ("one", "two", "three"):
        anna.send(text)

    first = await bot.get_updates(limit=2)
    again = await bot.get_updates()  # nothing confirmed yet: Telegram sends them again
    rest = await bot.get_updates(offset=first[-1].update_id + 1)
    after_all = await bot.get_updates(offset=rest[-1].update_id + 1, timeout=0)

    assert [u.message.text for u in first if u.message] == ["one", "two"]
    assert [u.message.text for u in again if u.message] == ["one", "two", "three"]
    assert [u.message.text for u in rest if u.message] == ["three"]
    assert after_all == []


async def test_allowed_updates_leave_out_other_kinds(fake_telegram: FakeTelegram, bot: Bot) -> None:
    anna = fake_telegram.user(PLAYER, "Anna")
    anna.send("hi")
    anna.block_bot()

    everything = await bot.get_updates()
    only_messages = await bot.get_updates(allowed_updates=["message"])

    assert [u.event_type for u in everything] == ["message", "my_chat_member"]
    assert everything[1].my_chat_member is not None
    assert everything[1].my_chat_member.new_chat_member.status == "kicked"
    assert [u.event_type for u in only_messages] == ["message"]


# --- what Telegram rejects ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("a" * 4097, "message is too long"),
        ("😀" * 2049, "message is too long"),  # 4098 UTF-16 code units in 2049 characters
        ("   ", "message text is empty"),
        ("<blink>hi</blink>", "can't parse entities"),
        ("<b>unclosed", "can't parse entities"),
        ("<b>crossed<i></b></i>", "can't parse entities"),
        ("score 1 < 2", "can't parse entities"),
        ("Tom &foo; Jerry", "can't parse entities"),
        ("line<br>break", "can't parse entities"),
    ],
)
async def test_texts_telegram_refuses(
    fake_telegram: FakeTelegram, bot: Bot, text: str, reason: str
) -> None:
    fake_telegram.user(PLAYER, "Anna").send("hi")

    with pytest.raises(TelegramBadRequest, match=reason):
        await bot.send_message(PLAYER, text)

    assert fake_telegram.messages(PLAYER)[-1].text == "hi"


async def test_length_is_counted_after_markup(fake_telegram: FakeTelegram, bot: Bot) -> None:
    fake_telegram.user(PLAYER, "Anna").send("hi")

    sent = await bot.send_message(PLAYER, "<b>" + "a" * 4094 + "</b> &amp;")

    assert sent.text is not None and len(sent.text) == 4096
    assert sent.entities is not None and sent.entities[0].type == "bold"


@pytest.mark.parametrize("data", ["x" * 65, "игрок" * 7])  # 65 and 70 bytes
async def test_callback_data_over_64_bytes_is_refused(
    fake_telegram: FakeTelegram, bot: Bot, data: str
) -> None:
    fake_telegram.user(PLAYER, "Anna").send("hi")

    with pytest.raises(TelegramBadRequest, match="BUTTON_DATA_INVALID"):
        await bot.send_message(
            PLAYER,
            "pick",
            reply_markup=keyboard(InlineKeyboardButton(text="A", callback_data=data)),
        )


async def test_a_person_who_never_wrote_or_blocked_the_bot_is_forbidden(
    fake_telegram: FakeTelegram, bot: Bot
) -> None:
    fake_telegram.user(OTHER, "Boris")
    anna = fake_telegram.user(PLAYER, "Anna")
    anna.send("hi")
    anna.block_bot()

    with pytest.raises(TelegramForbiddenError, match="bot can't initiate conversation"):
        await bot.send_message(OTHER, "hello")
    with pytest.raises(TelegramForbiddenError, match="bot was blocked by the user"):
        await bot.send_message(PLAYER, "hello")
    assert fake_telegram.stats.forbidden == 2

    anna.send("/start")  # the Restart button unblocks the bot
    assert (await bot.send_message(PLAYER, "welcome back")).text == "welcome back"


async def test_edits_that_change_nothing_or_miss_the_message_are_refused(
    fake_telegram: FakeTelegram, bot: Bot
) -> None:
    fake_telegram.user(PLAYER, "Anna").send("hi")
    sent = await bot.send_message(PLAYER, "<b>Round 1</b>")

    with pytest.raises(TelegramBadRequest, match="message is not modified"):
        await bot.edit_message_text("<b>Round 1</b>", chat_id=PLAYER, message_id=sent.message_id)
    with pytest.raises(TelegramBadRequest, match="message to edit not found"):
        await bot.edit_message_text("Round 2", chat_id=PLAYER, message_id=999)
    with pytest.raises(TelegramBadRequest, match="query is too old"):
        await bot.answer_callback_query("no-such-query")

    await bot.edit_message_text("<i>Round 1</i>", chat_id=PLAYER, message_id=sent.message_id)
    shown = fake_telegram.messages(PLAYER)[-1]
    assert (shown.text, shown.edited, shown.entities[0]["type"]) == ("Round 1", True, "italic")


# --- faults and limits --------------------------------------------------------------------


async def test_injected_429_and_403_hit_only_that_chat(
    fake_telegram: FakeTelegram, bot: Bot
) -> None:
    fake_telegram.user(PLAYER, "Anna").send("hi")
    fake_telegram.user(OTHER, "Boris").send("hi")
    fake_telegram.inject(PLAYER, error_code=429, retry_after=3, times=1)
    fake_telegram.inject(OTHER, error_code=403)

    with pytest.raises(TelegramRetryAfter) as too_many:
        await bot.send_message(PLAYER, "seat 4")
    with pytest.raises(TelegramForbiddenError):
        await bot.send_message(OTHER, "seat 7")
    await bot.send_message(PLAYER, "seat 4")
    await bot.send_message(OTHER, "seat 7")

    assert too_many.value.retry_after == 3
    assert (fake_telegram.stats.too_many_requests, fake_telegram.stats.forbidden) == (1, 1)
    log = [(r.chat_id, r.status, r.text) for r in fake_telegram.stats.requests]
    assert log == [
        (PLAYER, 429, None),
        (OTHER, 403, None),
        (PLAYER, 200, "seat 4"),
        (OTHER, 200, "seat 7"),
    ]
    assert [m.text for m in fake_telegram.messages(PLAYER)] == ["hi", "seat 4"]


async def test_enforced_limits_per_private_chat_per_group_and_overall() -> None:
    clock = ManualClock()
    fake = FakeTelegram(enforce_limits=RateLimits(total_per_second=3), clock=clock)
    await fake.start()
    bot = make_bot(fake)
    try:
        players = [fake.user(PLAYER + n, f"P{n}") for n in range(4)]
        for player in players:
            player.send("hi")
        fake.group(-100500, "Judges", members=(players[0],))

        await bot.send_message(PLAYER, "first")
        with pytest.raises(TelegramRetryAfter) as same_chat:
            await bot.send_message(PLAYER, "second in the same second")
        await bot.send_message(PLAYER + 1, "another chat")
        await bot.send_message(-100500, "group post")
        with pytest.raises(TelegramRetryAfter):
            await bot.send_message(PLAYER + 2, "fourth in a second overall")

        clock.now += 1.0
        await bot.send_message(PLAYER, "second, a second later")
        for n in range(19):
            clock.now += 1.0
            await bot.send_message(-100500, f"group post {n}")
        with pytest.raises(TelegramRetryAfter) as group:
            await bot.send_message(-100500, "21st in a minute")
    finally:
        await bot.session.close()
        await fake.stop()

    assert same_chat.value.retry_after == 1
    assert group.value.retry_after == 40  # the first group post leaves the window at 60 s
    assert fake.stats.too_many_requests == 3
    assert [m.text for m in fake.messages(PLAYER)] == ["hi", "first", "second, a second later"]


# --- people, buttons and files through a real Dispatcher ----------------------------------


async def test_start_payload_button_press_and_edit(
    fake_telegram: FakeTelegram, polling_bot: Bot
) -> None:
    anna = fake_telegram.user(PLAYER, "Anna <3")
    anna.send("/start ref42")

    greeting = await anna.wait_for(lambda m: m.text is not None and "Hello" in m.text)
    answer = await anna.press(greeting, "Join")
    edited = await anna.wait_for(lambda m: m.edited)

    assert greeting.text == "Hello, Anna <3! Invited by ref42"
    assert greeting.buttons == ((("Join", "join"), ("Rules", "https://example.org/rules")),)
    assert (answer.text, answer.show_alert) == ("Welcome to the tournament", True)
    assert (edited.message_id, edited.text, edited.buttons) == (
        greeting.message_id,
        "You are registered",
        (),
    )
    with pytest.raises(LookupError):
        anna.press(edited, "Join")  # the edit took the keyboard away


async def test_document_round_trip(fake_telegram: FakeTelegram, polling_bot: Bot) -> None:
    anna = fake_telegram.user(PLAYER, "Anna")
    anna.send_document("seating.csv", b"seat,player\n1,anna\n")

    reply = await anna.wait_for(lambda m: m.document is not None)

    assert reply.document is not None
    assert reply.document.file_name == "upper-seating.csv"
    assert reply.document.content == b"SEAT,PLAYER\n1,ANNA\n"


async def test_wait_idle_returns_after_every_update_is_handled(
    fake_telegram: FakeTelegram, polling_bot: Bot
) -> None:
    anna = fake_telegram.user(PLAYER, "Anna")
    for text in ("one", "two", "three"):
        anna.send(text)

    await fake_telegram.wait_idle()

    bot_said = [m.text for m in anna.messages if m.from_bot]
    assert sorted(bot_said) == ["one", "three", "two"]
    assert fake_telegram.stats.calls["sendMessage"] == 3


# --- channels, groups, pins and commands --------------------------------------------------


async def test_channel_posting_rights(fake_telegram: FakeTelegram, bot: Bot) -> None:
    news = fake_telegram.channel(-1001, "Cup news", username="cup_news")
    fake_telegram.channel(-1002, "Read only", can_post=False)
    fake_telegram.channel(-1003, "Elsewhere", bot_is_admin=False)

    member = await bot.get_chat_member("@cup_news", bot.id)
    read_only = await bot.get_chat_member(-1002, bot.id)
    posted = await bot.send_message("@cup_news", "<b>Standings</b>")
    with pytest.raises(TelegramBadRequest, match="need administrator rights"):
        await bot.send_message(-1002, "Standings")
    with pytest.raises(TelegramForbiddenError, match="not a member of the channel"):
        await bot.send_message(-1003, "Standings")

    assert member.status == "administrator" and member.can_post_messages is True
    assert read_only.can_post_messages is False
    assert posted.chat.id == -1001 and posted.sender_chat is not None
    assert [m.text for m in news.messages] == ["Standings"]
    assert (await bot.get_chat(-1001)).title == "Cup news"


async def test_a_chart_posted_as_a_photo_keeps_its_bytes_and_size(
    fake_telegram: FakeTelegram, bot: Bot
) -> None:
    news = fake_telegram.channel(-1001, "Cup news", username="cup_news")
    chart = png(3, 2)

    sent = await bot.send_photo(
        "@cup_news", BufferedInputFile(chart, "standings.png"), caption="<b>After round 3</b>"
    )

    assert sent.photo is not None
    assert (sent.photo[-1].width, sent.photo[-1].height) == (3, 2)
    shown = news.messages[-1]
    assert shown.text == "After round 3" and shown.photo is not None
    assert shown.photo.content == chart


async def test_pins_deletions_and_group_members(fake_telegram: FakeTelegram, bot: Bot) -> None:
    anna = fake_telegram.user(PLAYER, "Anna")
    boris = fake_telegram.user(OTHER, "Boris")
    judges = fake_telegram.group(-500, "Judges", members=(anna,))
    anna.send("table 1 is ready", chat=judges)
    timetable = await bot.send_message(-500, "Timetable")
    typo = await bot.send_message(-500, "Tmietable")

    await bot.pin_chat_message(-500, timetable.message_id)
    await bot.delete_message(-500, typo.message_id)
    with pytest.raises(TelegramBadRequest, match="message to delete not found"):
        await bot.delete_message(-500, typo.message_id)

    shown = [(m.text, m.pinned, m.from_bot) for m in judges.messages]
    assert shown == [("table 1 is ready", False, False), ("Timetable", True, True)]
    assert (await bot.get_chat_member(-500, PLAYER)).status == "member"
    assert (await bot.get_chat_member(-500, OTHER)).status == "left"
    with pytest.raises(ValueError, match="not a member"):
        boris.send("let me in", chat=judges)


async def test_commands_are_kept_per_language(fake_telegram: FakeTelegram, bot: Bot) -> None:
    await bot.set_my_commands([BotCommand(command="start", description="Начать")])
    await bot.set_my_commands(
        [
            BotCommand(command="start", description="Start"),
            BotCommand(command="help", description="Help"),
        ],
        language_code="en",
    )

    assert fake_telegram.commands() == ["start"]
    assert fake_telegram.commands("en") == ["start", "help"]
    assert [c.command for c in await bot.get_my_commands(language_code="en")] == ["start", "help"]
