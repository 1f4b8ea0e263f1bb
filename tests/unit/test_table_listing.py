"""A table is listed one way wherever the bot writes it: the organizer's round screen, the
judge's seat message and the channel's post; a long round is cut between tables."""

from __future__ import annotations

from bot.i18n import translator
from bot.rendering.phrases import render_phrase
from domain.outgoing import Phrase
from domain.rounds import TableGame
from domain.table_listing import in_parts, listing_length, table_listing

GAME = TableGame(id=1, table=3, players=(11, 12, 13))
NICKNAMES = {11: "Ворон", 12: "<Сова>", 13: "Лис"}


def _ru(phrase: Phrase) -> str:
    return render_phrase(translator(), "ru", phrase, markup=True)


def test_a_table_is_its_heading_and_judge_over_its_seats_with_names_escaped() -> None:
    listed = _ru(table_listing(GAME, NICKNAMES, judge="Анна & Ко"))
    assert listed == "<b>Стол 3</b> · судья Анна &amp; Ко\n1. Ворон\n2. &lt;Сова&gt;\n3. Лис"
    # A table without a judge (the channel's) leaves the judge out.
    assert _ru(table_listing(GAME, NICKNAMES)).startswith("<b>Стол 3</b>\n1. Ворон")
    # The judge's own message names the table itself: the seats alone.
    assert _ru(table_listing(GAME, NICKNAMES, titled=False)) == "1. Ворон\n2. &lt;Сова&gt;\n3. Лис"


def test_a_long_round_is_cut_between_tables_within_the_limit() -> None:
    games = [
        TableGame(id=t, table=t, players=tuple(range(t * 10, t * 10 + 10))) for t in range(1, 31)
    ]
    names = {p: f"Игрок{p}" for game in games for p in game.players}
    blocks = [
        (table_listing(g, names, judge="Судья"), listing_length(g, names, "Судья")) for g in games
    ]
    parts = in_parts(blocks, 1000)
    assert len(parts) > 1
    assert [block for part in parts for block in part] == [block for block, _ in blocks]
    for part in parts:
        written = "\n\n".join(_ru(block).replace("<b>", "").replace("</b>", "") for block in part)
        assert len(written) <= 1000
