"""The season's web pages' words and links in one language (bot/web/pages/season.py): what
the templates `season_*.html` print. Plain text; the templates escape it."""

from __future__ import annotations

from decimal import Decimal

from bot.rendering.rating_chart import rating_chart_svg
from bot.rendering.web_pages import Words
from domain.season.clubs import club_slug
from domain.season.rating import RatingRules
from domain.season.views import PlayerProfile, RoleStats

STAR = "★"


def rating_number(value: float) -> str:
    """A rating as the tables show it: whole points."""
    return f"{value:.0f}"


def stars(count: int | None) -> str:
    """A tournament's category (or a player's band) as stars; a dash for none."""
    return STAR * count if count else "—"


class SeasonWords(Words):
    """The season pages' texts and numbers in `locale`."""

    def rating(self, value: float | None) -> str:
        return rating_number(value) if value is not None else "—"

    def decimal(self, value: Decimal) -> str:
        """Series points or points per game: at most two decimals, the locale's comma."""
        return self.points(round(value, 2))

    def stars(self, count: int | None) -> str:
        return stars(count)

    def rate(self, role: RoleStats) -> str:
        return f"{round(role.win_rate * 100)}%"

    def date(self, day: object) -> str:
        strftime = getattr(day, "strftime", None)
        return strftime("%d.%m.%Y") if strftime is not None else ""


class SeasonLinks:
    """The addresses the season pages link to, each keeping the page's language."""

    def __init__(self, locale: str, path: str) -> None:
        self.locale = locale
        self._path = path

    def _with(self, path: str) -> str:
        return f"{path}?lang={self.locale}"

    def series(self, series_id: int) -> str:
        return self._with(f"/series/{series_id}")

    def player(self, person_id: int) -> str:
        return self._with(f"/players/{person_id}")

    def club(self, club: str) -> str:
        return self._with("/clubs/" + club_slug(club))

    def tournament(self, tournament_id: int) -> str:
        return self._with(f"/t/{tournament_id}")

    def page(self, path: str) -> str:
        """A page's address as the view names it (a tournament's web path), in this language."""
        joiner = "&" if "?" in path else "?"
        return f"{path}{joiner}lang={self.locale}"

    def language(self, locale: str) -> str:
        """This page in another language."""
        return f"{self._path}?lang={locale}"


def player_chart(person: PlayerProfile, words: Words) -> str | None:
    """The player's rating history as an SVG chart, None when he has none to show (a hidden
    profile has no history)."""
    after = [point.after for point in person.history]
    if not after:
        return None
    start = RatingRules().start
    return rating_chart_svg(
        after,
        title=words("web-season-chart"),
        description=words(
            "web-season-chart-desc", start=rating_number(start), last=rating_number(after[-1])
        ),
        start=start,
        games_label=words("profile-history-axis"),
    )
