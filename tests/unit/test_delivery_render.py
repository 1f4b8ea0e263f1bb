"""Outgoing messages rendered in the recipient's language, with user strings escaped."""

from __future__ import annotations

from bot.config import Settings
from bot.delivery.render import render
from bot.i18n import translator
from domain.intents import OpenLot, OpenProtocol, RunLiveGame
from domain.outgoing import Attachment, Button, Html, Localized, OutgoingMessage, Phrase
from handlers.intents import intent_packer, pack_intent


def _unreachable(tournament: str | Html) -> Phrase:
    return Phrase.of(
        "delivery-digest",
        tournament=tournament,
        unreachable=Html("Анна"),
        unreachable_count=1,
        uncertain=Html(""),
        uncertain_count=0,
        channel_unreachable=0,
        channel_uncertain=0,
    )


def test_a_phrase_speaks_the_recipients_language() -> None:
    message = OutgoingMessage(chat_id=1, phrase=_unreachable("Кубок"))
    ru = render(translator(), "ru", message)
    en = render(translator(), "en", message)
    assert "Анна" in ru.texts[0] and "/start" in ru.texts[0]
    assert en.texts[0].startswith("Tournament “Кубок”: the broadcast did not reach everyone.")


def test_a_nickname_with_markup_is_shown_as_typed() -> None:
    rendered = render(
        translator(), "ru", OutgoingMessage(chat_id=1, phrase=_unreachable("<b>Дон</b>"))
    )
    assert "&lt;b&gt;Дон&lt;/b&gt;" in rendered.texts[0]


def test_markup_the_author_vouches_for_is_kept() -> None:
    phrase = _unreachable(Html("<b>Дон</b>"))
    assert "<b>Дон</b>" in render(translator(), "ru", OutgoingMessage(1, phrase=phrase)).texts[0]


def test_button_texts_are_rendered_but_not_escaped() -> None:
    message = OutgoingMessage(
        chat_id=1,
        text="Игра 1",
        buttons=(
            (
                Button(Phrase.of("command-help"), OpenLot(7)),
                Button("A&B", url="https://t.me/x"),
            ),
        ),
    )
    keyboard = render(translator(), "en", message, pack_intent).keyboard
    assert keyboard is not None
    assert [b.text for b in keyboard.inline_keyboard[0]] == ["Help", "A&B"]
    # The intent is packed as the lot screen's own button.
    assert keyboard.inline_keyboard[0][0].callback_data == "lo:7:view"


def test_run_the_game_opens_the_mini_app_where_there_is_one_and_is_left_out_elsewhere() -> None:
    message = OutgoingMessage(
        chat_id=1,
        text="Стол 1",
        buttons=(
            (Button(Phrase.of("miniapp-open"), RunLiveGame(12)),),
            (Button(Phrase.of("round-open-protocol"), OpenProtocol(12)),),
        ),
    )

    def keyboard(web_base_url: str | None) -> list[list[tuple[str, str | None, str | None]]]:
        settings = Settings(  # type: ignore[call-arg]
            _env_file=None,
            bot_token="1:x",
            database_url="sqlite+aiosqlite://",
            web_base_url=web_base_url,
        )
        markup = render(translator(), "ru", message, intent_packer(settings)).keyboard
        assert markup is not None
        return [
            [(b.text, b.web_app.url if b.web_app else None, b.callback_data) for b in row]
            for row in markup.inline_keyboard
        ]

    assert keyboard("https://mafia.example.org") == [
        [("🎲 Вести игру", "https://mafia.example.org/app/game/12", None)],
        [("Открыть протокол", None, "pp:12:o:0:0")],
    ]
    # No Mini App to open: the row goes, the protocol button stays.
    assert keyboard(None) == [[("Открыть протокол", None, "pp:12:o:0:0")]]


def test_a_short_text_becomes_the_caption_of_its_picture() -> None:
    picture = Attachment("photo", b"png", "standings.png")
    short = render(translator(), "ru", OutgoingMessage(1, text="Таблица", attachment=picture))
    assert short.caption == "Таблица" and short.texts == ()
    long = render(translator(), "ru", OutgoingMessage(1, text="x" * 2000, attachment=picture))
    assert long.caption is None and long.texts == ("x" * 2000,)


def test_an_argument_longer_than_fluents_placeable_limit_is_rendered_whole() -> None:
    tables = "\n\n".join(
        f"<b>{n}</b>\n" + "\n".join(f"{s}. Ник" for s in range(1, 11)) for n in range(40)
    )
    assert len(tables) > 2500
    phrase = Phrase.of(
        "round-channel-post",
        stage=Localized("Отбор", "Qualifying"),
        game=1,
        time="12:00",
        part=1,
        parts=2,
        tables=Html(tables),
    )
    (text,) = render(translator(), "ru", OutgoingMessage(1, phrase=phrase)).texts
    assert text.endswith(tables) and "часть 1 из 2" in text
