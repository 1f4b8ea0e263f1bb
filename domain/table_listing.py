"""A table of a round as the bot lists it, wherever it is written: the organizer's round
screen, the judge's seat message and the channel's round post all list a table by
`table_listing`, and cut a round too long for one message between tables by `in_parts`.

A table is its heading ("Table 3 · judge Anna") over its seats one a line ("seat. nickname").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from domain.outgoing import Lines, Phrase
from domain.rounds import TableGame

# Room for a table's heading in any language around the judge's name ("Стол 12 · судья ").
_HEADING_ROOM = 40


def table_listing(
    game: TableGame,
    nicknames: Mapping[int, str],
    *,
    judge: str | None = None,
    titled: bool = True,
) -> Phrase:
    """The table's heading with its judge (left out when it has none) over its seats; only
    the seats when not `titled` (the judge's own message names his table in its sentence)."""
    seats = Lines(
        tuple(
            Phrase.of("table-seat", seat=seat, name=nicknames.get(player, str(player)))
            for seat, player in enumerate(game.players, start=1)
        )
    )
    if not titled:
        return Phrase.of("layout-lines", lines=seats)
    if judge is None:
        return Phrase.of("table-listing", table=game.table, players=seats)
    return Phrase.of("table-listing-judged", table=game.table, judge=judge, players=seats)


def _length(text: str) -> int:
    """The length Telegram measures: UTF-16 code units (an emoji counts twice)."""
    return len(text.encode("utf-16-le")) // 2


def listing_length(game: TableGame, nicknames: Mapping[int, str], judge: str | None) -> int:
    """About how long `table_listing` is once written, at most: what a message keeps room for
    when a round is cut into messages (tags and escaping are not counted, as Telegram does)."""
    seats = sum(
        _length(f"{seat}. {nicknames.get(player, str(player))}\n")
        for seat, player in enumerate(game.players, start=1)
    )
    return _HEADING_ROOM + _length(judge or "") + seats


def in_parts(blocks: Sequence[tuple[Phrase, int]], limit: int) -> list[tuple[Phrase, ...]]:
    """Blocks (with their length) grouped in order into as few messages as fit `limit`
    characters each, a blank line between blocks; a block is never cut (Telegram's limit is
    far above one table of ten nicknames)."""
    parts: list[list[Phrase]] = []
    size = limit
    for block, length in blocks:
        if not parts or size + length > limit:
            parts.append([])
            size = 0
        parts[-1].append(block)
        size += length + 2
    return [tuple(part) for part in parts]
