"""The standings as players read them: text tables, pages, the live message, CSV and PNG."""

from __future__ import annotations

import csv
import io
import re
import warnings
from datetime import UTC, datetime, timedelta

from PIL import Image, ImageChops

from bot.i18n import format_points, translator
from bot.rendering import standings_png as standings_png_module
from bot.rendering import standings_table
from bot.rendering.phrases import render_phrase
from bot.rendering.standings_csv import standings_csv
from bot.rendering.standings_png import picture_legend, standings_png, standings_pngs
from bot.rendering.standings_posts import closing_pages
from bot.rendering.standings_text import live_standings_text, standings_pages
from bot.rendering.text import telegram_length
from domain.lot_draw import Lot
from domain.outgoing import TEXT_LIMIT
from domain.regulation import load_preset
from domain.standings import GameRecord, PlayerEntry, TeamEntry
from domain.standings_board import (
    PlayedGame,
    RoundClosed,
    StageClosed,
    closing_heading,
    standings_board,
)
from tests.unit.protocol_builders import protocol

CUP = load_preset("black-raven-cup")
TEAMS = load_preset("siberia-ural-teams")
NOW = datetime(2026, 5, 16, 13, 0, tzinfo=UTC)
HOSTILE = "<b>&amp;"


def cup_board(
    player_count=30,
    *,
    nickname=None,
    window=None,
    pending=(),
    lot=None,
    winners=None,
    title="Кубок",
):
    """`player_count` players (a multiple of 10) at tables of ten in round 1 of qualifying.

    Table 1 seats p0..p9 and so on; red wins at even tables, black at odd ones unless
    `winners` says otherwise. `window` maps a table to its protest window's closing time.
    """
    ids = [f"p{n}" for n in range(player_count)]
    players = [PlayerEntry(i, nickname(i) if nickname else f"Игрок-{i}") for i in ids]
    games = []
    for table in range(player_count // 10):
        winner = (winners or {}).get(table + 1, "red" if table % 2 == 0 else "black")
        record = GameRecord(
            "qualifying", 1, table + 1, protocol(ids[table * 10 : table * 10 + 10], winner=winner)
        )
        games.append(
            PlayedGame(
                record,
                protest_closes_at=(window or {}).get(table + 1),
                protest_pending=table + 1 in pending,
            )
        )
    return standings_board(title, CUP, players, [], games, lot, "qualifying", NOW)


def pre_lines(text):
    """The lines of every <pre> block of an HTML text."""
    return [
        line for block in re.findall(r"<pre>(.*?)</pre>", text, re.S) for line in block.split("\n")
    ]


def test_the_table_shows_place_nickname_points_games_wins_and_the_cup_tie_breakers():
    board = cup_board(10)
    (page,) = standings_pages(board, "ru")
    header, *rows = pre_lines(page)
    assert header.split() == ["М", "Игрок", "Баллы", "И", "П", "Доп", "ПДШ", "ПУ"]
    # Red won at table 1: the six civilians and the sheriff have 2 points, 1 game, 1 win.
    sheriff = next(row for row in rows if "Игрок-p6 " in row)
    assert sheriff.split()[1:] == ["Игрок-p6", "2", "1", "1", "0", "1", "0"]
    don = next(row for row in rows if "Игрок-p9" in row)
    assert don.split()[2:5] == ["0", "1", "0"]
    assert "ПДШ — победы доном или шерифом" in page


def test_team_tournament_shows_the_team_table_with_its_own_tie_breakers_in_english():
    players = [PlayerEntry(f"p{n}", f"P{n}", f"t{n % 2}") for n in range(10)]
    teams = [TeamEntry("t0", "Сиб " + HOSTILE), TeamEntry("t1", "Урал")]
    game = PlayedGame(GameRecord("qualifying", 1, 1, protocol([p.id for p in players])))
    board = standings_board("Cup", TEAMS, players, teams, [game], None, "qualifying", NOW)
    (page,) = standings_pages(board, "en")
    assert page.index("<b>Teams</b>") < page.index("<b>Players</b>")
    header = pre_lines(page)[0]
    assert header.split() == ["#", "Team", "Pts", "G", "W", "Best", "WD", "WS", "WM", "FN"]
    # Red wins: team t0 (p0, p2, p4 civilians, p6 sheriff, p8 mafia) has 4 wins of 3 points.
    first = pre_lines(page)[1]
    assert first.split()[:2] == ["1", "Сиб"]
    assert first.split()[-8:-5] == ["12", "5", "4"]
    assert "Сиб &lt;b&gt;&amp;amp;" in page


def test_hostile_nicknames_and_titles_are_escaped_everywhere():
    board = cup_board(10, nickname=lambda i: HOSTILE + i, title="Cup " + HOSTILE)
    texts = [*standings_pages(board, "ru"), live_standings_text(board, "ru")]
    for text in texts:
        assert "&lt;b&gt;&amp;amp;p0" in text
        assert "Cup &lt;b&gt;&amp;amp;" in text
        # The only tags are the bot's own.
        assert set(re.findall(r"</?(\w+)", text)) <= {"b", "pre"}


def test_long_nicknames_are_cut_so_columns_stay_aligned():
    board = cup_board(10, nickname=lambda i: "Очень-длинный-игровой-ник-" + i)
    lines = pre_lines(standings_pages(board, "ru")[0])
    assert len({len(line.split("…")[0]) for line in lines[1:]}) == 1
    assert all("…" in line for line in lines[1:])


def test_the_cut_line_of_the_stage_falls_after_the_advancing_places():
    board = cup_board(30)
    lines = pre_lines(standings_pages(board, "ru")[0])
    rows = lines[1:]
    assert rows[20] == "── дальше проходят 20 игроков ──"
    # 17 winners (two sheriffs and a don first), then the 13 losers share place 18.
    assert rows[19].split()[0] == "18="
    en = pre_lines(standings_pages(board, "en")[0])
    assert "── top 20 advance ──" in en


def test_no_cut_line_while_everyone_still_advances():
    board = cup_board(20)
    assert "проходят" not in standings_pages(board, "ru")[0]


def test_an_open_protest_window_or_a_pending_protest_marks_results_provisional():
    board = cup_board(30, window={1: NOW + timedelta(minutes=3)}, pending={3})
    page = standings_pages(board, "ru")[0]
    rows = {line.split()[1]: line.split() for line in pre_lines(page)[1:] if "Игрок" in line}
    assert rows["Игрок-p0"][2] == "2*"
    assert rows["Игрок-p25"][2] == "2*"
    assert rows["Игрок-p17"][2] == "2"
    assert "предварительный" in page and "(игр: 2)" in page


def test_results_are_final_once_the_window_has_closed():
    board = cup_board(10, window={1: NOW - timedelta(seconds=1)})
    page = standings_pages(board, "ru")[0]
    assert "*" not in page
    assert "предварительный" not in page


def test_tied_places_are_shared_until_a_lot_orders_them():
    # Red won: the sheriff is first by wins as sheriff, the six civilians tie through it all.
    tied = cup_board(10)
    rows = pre_lines(standings_pages(tied, "en")[0])[1:8]
    assert [row.split()[0] for row in rows] == ["1", *["2="] * 6]
    assert "shared place" in standings_pages(tied, "en")[0]
    drawn = cup_board(10, lot=Lot(seed="abc"))
    places = [row.split()[0] for row in pre_lines(standings_pages(drawn, "en")[0])[1:8]]
    assert places == ["1", *(f"{n}~" for n in range(2, 8))]
    assert "place decided by lot" in standings_pages(drawn, "en")[0]


def test_a_cut_line_inside_a_tie_says_the_chief_judge_draws_a_lot():
    # Three tables of ten: 21 winners tie for the 20 places.
    board = cup_board(30, winners={1: "red", 2: "red", 3: "red"})
    page = standings_pages(board, "ru")[0]
    assert "жребий главного судьи (команда /lot) разыграет" in page


def test_pages_are_cut_between_rows_each_with_its_header_and_every_player_once():
    board = cup_board(300)
    pages = standings_pages(board, "ru")
    assert len(pages) > 1
    seen = []
    for page in pages:
        assert telegram_length(page) <= TEXT_LIMIT
        assert page.count("<pre>") == page.count("</pre>") >= 1
        header, *rows = pre_lines(page)
        assert header.split()[:3] == ["М", "Игрок", "Баллы"]
        seen.extend(row.split()[1] for row in rows if "Игрок-" in row)
    assert sorted(seen) == sorted(f"Игрок-p{n}" for n in range(300))
    assert pages[0].startswith("<b>Турнирная таблица: Кубок</b>")
    assert "ПУ — убит в первую ночь" in pages[-1]


def test_the_live_message_fits_one_message_and_counts_the_players_left_out():
    board = cup_board(300)
    live = live_standings_text(board, "en")
    assert telegram_length(live) <= TEXT_LIMIT
    shown = [row for row in pre_lines(live)[1:] if "Игрок-" in row]
    hidden = int(re.search(r"… and (\d+) more", live).group(1))
    assert len(shown) + hidden == 300
    assert len(shown) > 20
    top = [
        line.split()[1]
        for line in pre_lines(standings_pages(board, "en")[0])[1:]
        if "Игрок-" in line
    ]
    assert [row.split()[1] for row in shown] == top[: len(shown)]


def test_a_small_table_is_shown_whole_in_the_live_message():
    board = cup_board(20)
    live = live_standings_text(board, "ru")
    assert "/standings" not in live
    assert len([row for row in pre_lines(live) if "Игрок-" in row]) == 20


def test_csv_lists_every_player_with_named_columns_and_exact_points():
    board = cup_board(
        20, nickname=lambda i: f"Ворон {HOSTILE}{i}", window={1: NOW + timedelta(minutes=1)}
    )
    data = standings_csv(board, "ru")
    assert data.startswith("\ufeff".encode())
    # A Russian Excel splits columns at ";" (a "," is its decimal mark).
    rows = list(csv.reader(io.StringIO(data.decode("utf-8-sig")), delimiter=";"))
    assert rows[0] == [
        "Таблица",
        "Место",
        "Ник или команда",
        "Команда",
        "Этап",
        "Баллы",
        "игры",
        "победы",
        "дополнительные баллы",
        "победы доном или шерифом",
        "убит в первую ночь",
        "Предварительно",
        "Жребий",
        "Место делят",
        "Исключён",
    ]
    assert len(rows) == 21
    by_name = {row[2]: row for row in rows[1:]}
    assert by_name[f"Ворон {HOSTILE}p0"][4:8] == ["Отборочные игры", "2", "1", "1"]
    assert by_name[f"Ворон {HOSTILE}p0"][11] == "да"
    assert by_name[f"Ворон {HOSTILE}p10"][11] == ""
    assert by_name[f"Ворон {HOSTILE}p10"][13] == "да"


def test_the_picture_is_a_png_of_phone_width_growing_with_the_table():
    with warnings.catch_warnings():
        # A missing Cyrillic glyph is only a warning in matplotlib: here it fails the test.
        warnings.simplefilter("error")
        small = standings_png(cup_board(10, nickname=lambda i: f"Ёжик-Щука {i}"), "ru")
        large = standings_png(cup_board(60), "ru")
    images = [Image.open(io.BytesIO(data)) for data in (small, large)]
    assert [image.format for image in images] == ["PNG", "PNG"]
    assert images[0].width == images[1].width == 720
    assert 500 < images[0].height < images[1].height


def test_a_long_table_is_split_into_pictures_a_phone_shows_without_shrinking():
    # 60 players, two tables still open to protest: marks and a legend on every picture.
    board = cup_board(60, window={1: NOW + timedelta(minutes=5)})
    pictures = standings_pngs(board, "ru")
    assert len(pictures) == 4  # 15 rows a picture
    images = [Image.open(io.BytesIO(data)) for data in pictures]
    # Telegram shrinks a photo whose longer side passes 1280 pixels.
    assert all(image.width == 720 and image.height <= 1280 for image in images)
    assert standings_png(board, "ru", page=4) == pictures[3]
    legend = picture_legend(board, "ru")
    assert any(line.startswith("* — результат предварительный") for line in legend)
    joined = " ".join(legend)
    assert "М — Место" in joined
    assert "ПДШ — победы доном или шерифом" in joined
    assert "ПУ — убит в первую ночь" in joined  # wrapped, not cut at the right edge


def test_a_picture_shown_360_pixels_wide_on_a_phone_stays_readable():
    board = cup_board(60, window={1: NOW + timedelta(minutes=5)})
    # The smallest type's capitals, once Telegram shows the 720-pixel picture 360 wide.
    assert standings_png_module.smallest_capitals(360) >= 7
    # Every legend line fits across the picture: none runs past its right edge.
    for line in picture_legend(board, "ru") + picture_legend(board, "en"):
        assert standings_png_module._width(line, standings_png_module.LEGEND_POINTS) <= (
            standings_png_module.ROOM_PIXELS
        )


def test_the_legend_leaves_out_a_column_headed_by_its_whole_name():
    board = cup_board(10)
    joined = " ".join(picture_legend(board, "ru"))
    assert "Баллы — " not in joined
    assert "И — игры" in joined


def test_every_picture_of_a_long_table_draws_the_legend_and_its_number(monkeypatch):
    board = cup_board(60, window={1: NOW + timedelta(minutes=5)})
    drawn: list[list[str]] = []
    figure_text = standings_png_module.Figure.text

    def recorded(self, x, y, s, *args, **kwargs):  # type: ignore[no-untyped-def]
        if s.startswith("Кубок"):  # a picture's title opens it
            drawn.append([])
        drawn[-1].append(s)
        return figure_text(self, x, y, s, *args, **kwargs)

    monkeypatch.setattr(standings_png_module.Figure, "text", recorded)
    standings_pngs(board, "ru")
    legend = picture_legend(board, "ru")
    assert len(drawn) == 4
    for number, texts in enumerate(drawn, 1):
        assert texts[0].endswith(f" · {number}/4")
        assert texts[-len(legend) :] == legend


def test_a_team_tournaments_pictures_hold_both_tables_within_a_phones_height():
    players = [PlayerEntry(f"p{n}", f"P{n}", f"t{n % 4}") for n in range(40)]
    teams = [TeamEntry(f"t{n}", f"Команда {n}") for n in range(4)]
    games = [
        PlayedGame(
            GameRecord(
                "qualifying", 1, t + 1, protocol([f"p{n}" for n in range(t * 10, t * 10 + 10)])
            )
        )
        for t in range(4)
    ]
    board = standings_board("Cup", TEAMS, players, teams, games, None, "qualifying", NOW)
    pictures = standings_pngs(board, "en")
    assert len(pictures) == 3  # 4 teams and 40 players
    assert all(Image.open(io.BytesIO(data)).height <= 1280 for data in pictures)


def test_the_closing_posts_name_the_round_or_the_stage():
    board = cup_board(10, title="Кубок " + HOSTILE)
    closing = RoundClosed("qualifying", 2)
    caption = render_phrase(translator(), "ru", closing_heading(board, closing), markup=True)
    assert caption == "<b>Кубок &lt;b&gt;&amp;amp;: тур 2 завершён</b> (Отборочные игры)"
    assert closing_pages(board, closing, "ru")[0].startswith(caption)
    stage = closing_heading(board, StageClosed("qualifying"))
    assert render_phrase(translator(), "en", stage, markup=True) == (
        "<b>Кубок &lt;b&gt;&amp;amp;: stage “Qualifying” closed</b>"
    )


def test_points_are_written_without_trailing_zeros_the_locales_way():
    from decimal import Decimal

    values = [Decimal(v) for v in ("4.30", "2", "-1", "0.0", "40", "16.10", "-0.25")]
    # Files (CSV, JSON) keep the dot and the ASCII hyphen.
    assert [format_points(v) for v in values] == ["4.3", "2", "-1", "0", "40", "16.1", "-0.25"]
    # Russian writes a decimal comma and a real minus; English a dot and a real minus.
    assert [format_points(v, "ru") for v in values] == [
        "4,3",
        "2",
        "\u22121",
        "0",
        "40",
        "16,1",
        "\u22120,25",
    ]
    assert [format_points(v, "en") for v in values][-1] == "\u22120.25"
    assert format_points(7, "ru") == "7"


def test_an_excluded_player_is_drawn_with_the_cross_at_his_place(monkeypatch):
    ids = [f"p{n}" for n in range(10)]
    players = [PlayerEntry(i, f"Игрок-{i}", excluded=i == "p0") for i in ids]
    games = [PlayedGame(GameRecord("qualifying", 1, 1, protocol(ids)))]
    board = standings_board("Кубок", CUP, players, [], games, None, "qualifying", NOW)
    # Columns as wide in both drawings (they follow their widest text otherwise).
    fixed = [0.1, 0.4, 0.14, *[0.36 / 6] * 6]
    monkeypatch.setattr(standings_png_module, "_column_widths", lambda header, rows: fixed)
    with warnings.catch_warnings():
        # A glyph the font lacks is only a warning in matplotlib (an empty box): fail on it.
        warnings.simplefilter("error")
        drawn = standings_png(board, "ru")
    # The same picture with the mark blanked: it differs at the excluded row's place only.
    monkeypatch.setattr(standings_table, "EXCLUDED_MARK", " ")
    blank = standings_png(board, "ru")
    with_cross, without = (Image.open(io.BytesIO(data)).convert("L") for data in (drawn, blank))
    changed = ImageChops.difference(with_cross, without).getbbox()
    assert changed is not None, "the × mark is not drawn"
    _, top, right, _ = changed
    # The place column is the table's first tenth; the excluded player is the last row.
    assert right < with_cross.width * 0.15
    assert top > with_cross.height * 0.5
    assert any("× — игрок исключён" in line for line in picture_legend(board, "ru"))


def test_the_stage_line_counts_the_stage_s_own_games():
    qualifying = cup_board(30)
    games = [
        PlayedGame(GameRecord("qualifying", 1, t + 1, protocol([f"p{n}" for n in range(10)])))
        for t in range(3)
    ]
    final = [PlayedGame(GameRecord("final", 1, 1, protocol([f"p{n}" for n in range(10)])))]
    players = [PlayerEntry(f"p{n}", f"Игрок-{n}") for n in range(10)]
    board = standings_board("Кубок", CUP, players, [], games + final, None, "final", NOW)
    assert "Этап: Финал · сыграно игр: 1" in live_standings_text(board, "ru")
    assert "сыграно игр: 3" in live_standings_text(qualifying, "ru")


def test_the_results_post_names_the_winner_and_the_podium_then_the_final_table():
    from bot.rendering.standings_posts import results_pages

    board = cup_board(10, title="Кубок " + HOSTILE)
    first, *pages = results_pages(board, "ru")
    assert first.startswith("🏆 <b>Кубок &lt;b&gt;&amp;amp;: турнир завершён</b>")
    # Red won the only game: its sheriff is first by the tie-breakers, six civilians second.
    leader = board.standings.players[0]
    assert f"Победитель: <b>{leader.name}</b>" in first
    assert f"🥇 {leader.name} — 2\n" in first
    assert first.count("🥈") == 6 and "🥉" not in first
    assert pages[0].startswith("<b>Кубок &lt;b&gt;&amp;amp;: итоговая таблица</b>")
    assert "*" not in "".join(pages)


def test_the_results_name_each_role_s_best_player_in_both_languages():
    from bot.rendering.standings_posts import podium_lines, results_pages
    from domain.standings_board import with_awards

    board = cup_board(20, winners={1: "red", 2: "black"})
    # Tables 1 and 2: p6 is the winning sheriff, p18 and p19 the winning mafia, p19 the don.
    games = [
        PlayedGame(
            GameRecord(
                "qualifying",
                1,
                t + 1,
                protocol([f"p{n}" for n in range(t * 10, t * 10 + 10)], winner=w),
            )
        )
        for t, w in ((0, "red"), (1, "black"))
    ]
    awarded = with_awards(board, games)
    first = results_pages(awarded, "ru")[0]
    assert "<b>Номинации</b>" in first
    assert "Лучший шериф: Игрок-p6 — 2 за 1 игру" in first
    assert "Лучший дон: Игрок-p19 — 2 за 1 игру" in first
    assert "Лучшая мафия: Игрок-p17, Игрок-p18 — 2 за 1 игру" in first
    assert "Лучший мирный: Игрок-p0, Игрок-p1" in first
    english = dict(podium_lines(awarded, "en", medals=False))
    assert "Best sheriff: Игрок-p6 — 2 in 1 game" in english["Nominations"]
    # Before the tournament is finished the board carries no nominations.
    assert "Номинации" not in results_pages(board, "ru")[0]


def test_a_russian_csv_writes_the_decimal_comma_and_an_english_one_the_dot():
    ids = [f"p{n}" for n in range(10)]
    players = [PlayerEntry(i, f"Игрок-{i}") for i in ids]
    record = GameRecord("qualifying", 1, 1, protocol(ids, extra={1: "0.5"}))
    board = standings_board(
        "Кубок", CUP, players, [], [PlayedGame(record)], None, "qualifying", NOW
    )
    russian = list(
        csv.reader(io.StringIO(standings_csv(board, "ru").decode("utf-8-sig")), delimiter=";")
    )
    english = list(csv.reader(io.StringIO(standings_csv(board, "en").decode("utf-8-sig"))))
    assert {row[2]: row[5] for row in russian[1:]}["Игрок-p0"] == "2,5"
    assert {row[2]: row[5] for row in english[1:]}["Игрок-p0"] == "2.5"
