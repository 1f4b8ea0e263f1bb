"""The season's rendering: the SVG rating chart, the rating pictures, the profile and the
series table as the bot writes them (names escaped, the reader's line marked, a hidden
profile only its nickname)."""

from __future__ import annotations

import io
import xml.etree.ElementTree as ElementTree
from datetime import date
from decimal import Decimal

import pytest
from PIL import Image

from bot.rendering.rating_chart import rating_chart_svg
from bot.rendering.season_text import (
    RATING_ROWS,
    clubs_text,
    merge_side,
    profile_text,
    rating_line,
    rating_table,
)
from domain.season.rating import Rating
from domain.season.views import (
    ClubRow,
    PlayerProfile,
    RatingPoint,
    RoleStats,
    SeriesRow,
    SeriesView,
    TournamentLine,
)

pytestmark = pytest.mark.unit
HOSTILE = "<b>&amp;"
SVG = "{http://www.w3.org/2000/svg}"


def _profile(hidden: bool = False) -> PlayerProfile:
    if hidden:
        return PlayerProfile.hidden_view(7, f"Ворон {HOSTILE}")
    return PlayerProfile(
        person_id=7,
        nickname=f"Ворон {HOSTILE}",
        club="Клуб <i>",
        city="Омск",
        hidden=False,
        rating=Rating(1034.4, 1040.0, 1012.0, games=4, red_games=3, black_games=1),
        rank=2,
        tournaments=(
            TournamentLine(
                1, "Кубок <1>", date(2026, 3, 1), "Ворон", "Клуб", 2, Decimal("7.5"), 2, 1
            ),
            TournamentLine(
                2, "Кубок 2", date(2026, 5, 1), f"Ворон {HOSTILE}", None, None, Decimal(0), 2, 1
            ),
        ),
        roles=(RoleStats("civilian", 3, 2), RoleStats("don", 1, 0)),
        games=4,
        points_per_game=Decimal("1.875"),
        best_moves=1,
        first_night_deaths=1,
        fouls=3,
        disqualifications=0,
        history=tuple(RatingPoint(1, g, 1000 + 10 * g) for g in range(1, 5)),
    )


def _row(place: int, person_id: int, hidden: bool = False) -> SeriesRow:
    return SeriesRow(
        place=place,
        person_id=person_id,
        nickname=f"Игрок{person_id}" if person_id != 7 else f"Ворон {HOSTILE}",
        club=None if hidden else "Клуб",
        rating=0.0 if hidden else 1100.0 - place,
        red=0.0 if hidden else 1000.0,
        black=0.0 if hidden else 1000.0,
        games=0 if hidden else 4,
        tournaments=0 if hidden else 1,
        series_points=Decimal("12.5") - Decimal(place) / 10,
        hidden=hidden,
    )


def _series(rows: list[SeriesRow]) -> SeriesView:
    clubs = (ClubRow(1, "Клуб <b>", 3, 1050.0),)
    return SeriesView(3, "Сезон <2026>", "ru", tuple(rows), clubs, (), (), ())


def test_the_svg_chart_draws_every_rated_game_from_the_start_and_escapes_its_words() -> None:
    svg = rating_chart_svg(
        [1010.0, 1025.0, 990.0], title=HOSTILE, description="d <x>", games_label="игры"
    )
    assert svg is not None
    root = ElementTree.fromstring(svg)
    assert root.tag == f"{SVG}svg" and root.get("viewBox") == "0 0 420 230"
    (line,) = root.iter(f"{SVG}polyline")
    assert len(line.get("points", "").split()) == 4  # the start and three games
    assert root.find(f"{SVG}title") is not None
    assert root.find(f"{SVG}title").text == HOSTILE  # type: ignore[union-attr]
    assert "<b>" not in svg and "script" not in svg
    assert rating_chart_svg([], title="t", description="d") is None


def test_a_flat_history_still_has_a_scale() -> None:
    svg = rating_chart_svg([1000.0], title="t", description="d")
    assert svg is not None and "nan" not in svg
    labels = [t.text for t in ElementTree.fromstring(svg).iter(f"{SVG}text")]
    assert "1000" in labels


def test_the_pictures_are_phone_sized_pngs() -> None:
    # Imported here: it loads matplotlib (0.4 s of CPU), which every other test process
    # collecting this module would load for nothing (the bot draws in a process of its own).
    from bot.rendering.rating_png import rating_history_png, table_pngs

    history = Image.open(io.BytesIO(rating_history_png([1010.0, 990.0], title="Т", axis="игры")))
    assert history.width == 720
    rows = [[str(i), f"Игрок {i}", "1000", "1", "2"] for i in range(1, 21)]
    pictures = table_pngs("Рейтинг", ["М", "Игрок", "Рейт", "Баллы", "И"], rows, 17)
    assert len(pictures) == 2
    for picture in pictures:
        image = Image.open(io.BytesIO(picture))
        assert image.width == 720 and image.height <= 1280


def test_the_profile_names_everything_escaped() -> None:
    text = profile_text(_profile(), "ru")
    assert f"Ворон {HOSTILE}" not in text and "Ворон &lt;b&gt;&amp;amp;" in text
    assert "Рейтинг: <b>1034</b> · за красных 1040 · за чёрных 1012" in text
    assert "Место в общем рейтинге: 2" in text
    assert "баллов за игру: 1,88" in text
    assert "мирный: игр 3, побед 2 (67%)" in text
    assert "фолы: 3" in text
    # The latest tournament first; one played under another nickname names it.
    assert text.index("Кубок 2") < text.index("Кубок &lt;1&gt; (Ворон)")
    english = profile_text(_profile(), "en")
    assert "civilian: 3 games, 2 wins (67%)" in english


def test_a_hidden_profile_shows_only_its_nickname() -> None:
    text = profile_text(_profile(hidden=True), "ru")
    assert text == "<b>Ворон &lt;b&gt;&amp;amp;</b>\nИгрок скрыл свой профиль."


def test_the_rating_table_marks_the_readers_line_even_far_down() -> None:
    rows = [_row(place, 100 + place) for place in range(1, 30)] + [_row(30, 7)]
    table = rating_table(_series(rows), 7, "ru")
    assert table.mine == 29 and table.rows[29][0] == "▶30"
    assert "&lt;b&gt;" in table.text and HOSTILE not in table.text
    shown = table.text.split("<pre>")[1].split("</pre>")[0].splitlines()
    assert len(shown) == 1 + RATING_ROWS + 1  # the header, the first lines, the reader's
    assert shown[-1].lstrip().startswith("▶30")
    assert "Ваше место: 30" in table.text
    nobody = rating_table(_series(rows), None, "en")
    assert nobody.mine is None and "You are not in this series yet." in nobody.text


def test_a_hidden_line_shows_only_the_nickname() -> None:
    table = rating_table(_series([_row(1, 8, hidden=True)]), None, "ru")
    assert table.rows[0] == ("1", "Игрок8", "", "", "")


def test_clubs_merge_sides_and_the_rating_line() -> None:
    assert "1. Клуб &lt;b&gt; — 1050 (игроков: 3)" in clubs_text(_series([]), "ru")
    side = merge_side(_profile(), "ru")
    assert "турниров: 2" in side and "рейтинг: 1034" in side and "• Кубок &lt;1&gt;" in side
    assert rating_line(Rating(1234.6, 1000, 1000), 3, "ru") == "Рейтинг: <b>1235</b> ★★★"
    assert "пока нет" in rating_line(None, None, "ru")


def test_the_cards_season_line() -> None:
    from handlers.middlewares import Texts
    from handlers.season_admin_views import card_season_line

    ru, en = Texts("ru"), Texts("en")
    assert ru.phrase(card_season_line("Сезон <1>", True, 3)) == (
        "Серия: Сезон &lt;1&gt; · рейтинговый · категория: ★★★"
    )
    assert (
        ru.phrase(card_season_line(None, False, None))
        == "Серия: нет · не рейтинговый · категория: ещё нет"
    )
    assert (
        en.phrase(card_season_line(None, False, None))
        == "Series: none · not rated · category: not yet"
    )
