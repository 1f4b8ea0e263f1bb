"""The pieces a screen is composed of, as phrase data (`domain.outgoing.Phrase`): plain text,
a numbered line, bold text, lines one under another.

A screen's view builds its text from phrases and these pieces, and one renderer
(`bot.rendering.phrases.render_phrase`, the same the pushes go through) writes it as HTML,
escaping every plain string: a view never escapes by hand nor writes a tag.
"""

from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal

from domain.outgoing import ArgumentValue, Lines, Localized, Phrase

Piece = Phrase | Lines | str


def phrase(piece: Piece) -> Phrase:
    """A piece as one phrase: a phrase itself, lines as one block, a string as plain text."""
    if isinstance(piece, Phrase):
        return piece
    if isinstance(piece, Lines):
        return Phrase.of("layout-lines", lines=piece)
    return Phrase.of("layout-text", text=piece)


def lines(pieces: Iterable[Piece], separator: str = "\n") -> Lines:
    """Pieces one a line (or joined by `separator`)."""
    return Lines(tuple(phrase(piece) for piece in pieces), separator)


def numbered(number: int, piece: Piece) -> Phrase:
    """ "3. text": a numbered line of a list."""
    # Written as text: Fluent would group the digits of a big number ("1 000").
    return Phrase.of("layout-numbered", number=str(number), text=phrase(piece))


def bold(piece: Piece) -> Phrase:
    """Text in bold."""
    return Phrase.of("layout-bold", text=phrase(piece))


def joined(*pieces: Piece, separator: str = "") -> Phrase:
    """Pieces written one after another on the same line (or joined by `separator`)."""
    return phrase(lines(pieces, separator))


def argument(value: object) -> ArgumentValue:
    """A value for a phrase: as it is when a phrase takes it (text is escaped when rendered),
    anything else as its text."""
    if isinstance(value, str | int | Decimal | Localized | Phrase | Lines):
        return value
    return str(value)
