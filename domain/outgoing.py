"""A message the bot sends on its own initiative, as a use case describes it.

A use case records outgoing messages in the same transaction as its data (the outbox); the
delivery worker renders and sends them later. A Fluent phrase is rendered at send time in the
recipient's language, so a reminder reaches each player in the language they chose.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from enum import StrEnum
from typing import Literal

from domain.intents import Intent

TEXT_LIMIT = 4096
CAPTION_LIMIT = 1024


@dataclass(frozen=True, slots=True)
class Html:
    """Markup the author vouches for, passed as a phrase argument without escaping."""

    markup: str


@dataclass(frozen=True, slots=True)
class Localized:
    """A name given in each language (a stage's name in the regulation): the recipient's
    language picks one when the phrase is rendered."""

    ru: str
    en: str

    def text(self, locale: str) -> str:
        """The name in `locale`; Russian for any language without a name of its own."""
        return self.en if locale == "en" else self.ru


@dataclass(frozen=True, slots=True)
class Phrase:
    """A Fluent message id with its arguments; plain `str` arguments are escaped when rendered."""

    key: str
    args: tuple[tuple[str, ArgumentValue], ...] = ()

    @classmethod
    def of(cls, key: str, **args: ArgumentValue) -> Phrase:
        """A phrase from keyword arguments, e.g. `Phrase.of("round-soon", game=3)`."""
        return cls(key, tuple(sorted(args.items())))

    @property
    def arguments(self) -> Mapping[str, ArgumentValue]:
        """The arguments by name."""
        return dict(self.args)


@dataclass(frozen=True, slots=True)
class Lines:
    """Phrases rendered one a line (or one a paragraph), each in the recipient's language."""

    phrases: tuple[Phrase, ...]
    separator: str = "\n"

    def __iter__(self) -> Iterator[Phrase]:
        return iter(self.phrases)


# A phrase argument: text (escaped), a number, points (written the language's way: "0,3"),
# ready markup, a name per language, another phrase, or phrases one a line.
ArgumentValue = str | int | Decimal | Html | Localized | Phrase | Lines


@dataclass(frozen=True, slots=True)
class Button:
    """An inline button: what pressing it asks for (a typed intent, packed into callback data
    by the Telegram side when the message is sent) or a link; its text may be a phrase."""

    text: str | Phrase
    intent: Intent | None = None
    url: str | None = None

    def __post_init__(self) -> None:
        if (self.intent is None) == (self.url is None):
            raise ValueError("a button has either an intent or a URL")


@dataclass(frozen=True, slots=True)
class Drawing:
    """Content drawn when the message is sent, by a drawer the application names (such as the
    standings picture): slow work kept out of the use case's transaction."""

    drawer: str
    args: tuple[tuple[str, str | int], ...] = ()

    @classmethod
    def of(cls, drawer: str, **args: str | int) -> Drawing:
        """A drawing from keyword arguments: `Drawing.of("standings-picture", tournament=7)`."""
        return cls(drawer, tuple(sorted(args.items())))

    @property
    def arguments(self) -> Mapping[str, str | int]:
        """The arguments by name."""
        return dict(self.args)


@dataclass(frozen=True, slots=True)
class Attachment:
    """A picture, an album of pictures or a file sent with the message; the text becomes its
    caption (an album's first picture's) when it fits.

    Its `content` is either given, or left empty and drawn at send time from `drawing`; an
    album is always drawn, into `pictures`.
    """

    kind: Literal["photo", "document", "album"]
    content: bytes
    filename: str
    drawing: Drawing | None = None
    pictures: tuple[bytes, ...] = ()


@dataclass(frozen=True, slots=True)
class OutgoingMessage:
    """One message to one chat.

    Exactly one of `phrase` (rendered in the recipient's language), `text` (ready HTML, with
    user-supplied strings already escaped) and `text_drawing` (ready HTML drawn when the
    message is sent, such as the live standings as they stand then) is set. `edit_key` names a
    message kept up to date in place ("live standings of tournament 7"): the first push under
    a key sends it, later pushes edit it. `dedupe_key` makes enqueuing the same logical message
    twice store it once.
    """

    chat_id: int
    phrase: Phrase | None = None
    text: str | None = None
    buttons: tuple[tuple[Button, ...], ...] = ()
    attachment: Attachment | None = None
    edit_key: str | None = None
    pin: bool = False
    tournament_id: int | None = None
    dedupe_key: str | None = None
    text_drawing: Drawing | None = None

    def __post_init__(self) -> None:
        if [self.phrase, self.text, self.text_drawing].count(None) != 2:
            raise ValueError("an outgoing message has either a phrase, a text or a text drawing")
        if self.edit_key is not None and self.attachment is not None:
            raise ValueError("only text messages are edited in place")


class DeliveryStatus(StrEnum):
    """Where an outbox message stands."""

    PENDING = "pending"
    SENDING = "sending"
    SENT = "sent"
    UNREACHABLE = "unreachable"
    UNCERTAIN = "uncertain"
    FAILED = "failed"
    # An edit drawn when sent that a newer edit of the same message replaced before it went:
    # the newer one shows everything it would have (see the delivery worker's promise).
    SUPERSEDED = "superseded"


@dataclass(frozen=True, slots=True)
class ScheduledPush:
    """A message to move into the outbox at `due_at` (UTC); `key` names it for rescheduling."""

    key: str
    due_at: datetime
    message: OutgoingMessage

    def __post_init__(self) -> None:
        if self.due_at.tzinfo is None:
            raise ValueError("a scheduled push needs an aware due time")


class AnswerLost(StrEnum):
    """What the delivery promise does with a message whose request may have reached Telegram
    but whose answer was lost (a timeout, a 5xx, a page no client can read, a crash)."""

    SEND_AGAIN = "send-again"  # once more, recorded as a possible duplicate
    UNCERTAIN = "uncertain"  # never again, reported to the organizer as uncertain


def when_answer_lost(chat_id: int, *, edits: bool) -> AnswerLost:
    """The one rule of the delivery promise, by kind of message.

    An edit of a message already posted is sent again: editing twice shows nothing twice. A
    message to a person (a seat, a reminder) is better twice than never: sent again once. A
    new post in a group or channel (the live table, a results post) is seen by everyone, so it
    is better reported as uncertain than posted twice.
    """
    if edits or chat_id > 0:
        return AnswerLost.SEND_AGAIN
    return AnswerLost.UNCERTAIN
