"""The season's Telegram texts: a player's profile (/profile), a series' rating table
(/rating) with the reader's line marked, its clubs, and a person as a merge shows him.

Telegram HTML: every name is escaped (nicknames, clubs and titles are people's own text).
The rating table is monospaced (`<pre>`), cut to `RATING_ROWS` lines with the reader's line
added under them when he is further down.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

from bot.rendering.season_web import SeasonWords, rating_number, stars
from domain.season.rating import Rating
from domain.season.views import PlayerProfile, SeriesRow, SeriesView

# The profile lists the latest tournaments; the web page lists them all.
PROFILE_TOURNAMENTS = 10
# The text table's lines (the picture shows the whole table).
RATING_ROWS = 20
NAME_WIDTH = 16
MINE = "▶"


def rating_line(rating: Rating | None, band: int | None, locale: str) -> str:
    """The registration card's and /me's line: the player's rating and his band's stars."""
    words = SeasonWords(locale)
    if rating is None:
        return words("rating-none-line")
    return words("rating-stars-line", rating=rating_number(rating.overall), stars=stars(band))


def profile_text(person: PlayerProfile, locale: str, own: bool = False) -> str:
    """The profile as /profile shows it: a hidden one's nickname and that it is hidden, to
    others; the whole profile, saying it is hidden, to the person himself (`own`)."""
    words = SeasonWords(locale)
    head = f"<b>{escape(person.nickname)}</b>"
    if person.hidden and not own:
        return head + "\n" + words("profile-hidden")
    where = " · ".join(escape(part) for part in (person.club, person.city) if part)
    lines = [head + (f"\n{where}" if where else "")]
    if person.hidden:
        lines.append(words("profile-hidden-own"))
    lines.append(_rating_lines(person, words))
    lines.append(
        words("profile-games", games=person.games, per_game=words.decimal(person.points_per_game))
        + "\n"
        + words(
            "profile-figures",
            best_moves=person.best_moves,
            first_night=person.first_night_deaths,
            fouls=person.fouls,
            disqualifications=person.disqualifications,
        )
    )
    if person.roles:
        roles = [
            words(
                "profile-role-line",
                role=words.role(role.role),
                games=role.games,
                wins=role.wins,
                rate=round(role.win_rate * 100),
            )
            for role in person.roles
        ]
        lines.append("\n".join([words("profile-roles-title"), *roles]))
    if person.tournaments:
        lines.append(_tournament_lines(person, words))
    return "\n\n".join(lines)


def _rating_lines(person: PlayerProfile, words: SeasonWords) -> str:
    if person.rating is None:
        return words("profile-no-rating")
    text = words(
        "profile-rating",
        overall=rating_number(person.rating.overall),
        red=rating_number(person.rating.red),
        black=rating_number(person.rating.black),
    )
    if person.rank is not None:
        text += "\n" + words("profile-rank", rank=person.rank)
    return text


def _tournament_lines(person: PlayerProfile, words: SeasonWords) -> str:
    """The latest tournaments first, each under the nickname played there."""
    latest = sorted(
        person.tournaments,
        key=lambda line: (line.starts_on is not None, line.starts_on, line.tournament_id),
        reverse=True,
    )
    lines = [words("profile-tournaments-title")]
    for line in latest[:PROFILE_TOURNAMENTS]:
        title = escape(line.title)
        if line.nickname != person.nickname:
            title += f" ({escape(line.nickname)})"
        lines.append(
            words(
                "profile-tournament-line",
                title=title,
                date=f", {words.date(line.starts_on)}" if line.starts_on else "",
                place=line.place if line.place is not None else "—",
                points=words.decimal(line.points),
                games=line.games,
            )
        )
    if len(latest) > PROFILE_TOURNAMENTS:
        lines.append(words("profile-more-tournaments", count=len(latest) - PROFILE_TOURNAMENTS))
    return "\n".join(lines)


@dataclass(frozen=True)
class RatingTable:
    """A series' table as the bot shows it: the text, and the picture's cells with the
    reader's row (None when he is not in it)."""

    text: str
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    mine: int | None


def _cells(row: SeriesRow, words: SeasonWords, mine: bool) -> tuple[str, ...]:
    place = f"{MINE}{row.place}" if mine else str(row.place)
    if row.hidden:
        return (place, row.nickname, "", "", "")
    return (
        place,
        row.nickname,
        rating_number(row.rating),
        words.decimal(row.series_points),
        str(row.games),
    )


def _pre_line(cells: tuple[str, ...]) -> str:
    name = cells[1] if len(cells[1]) <= NAME_WIDTH else cells[1][: NAME_WIDTH - 1] + "…"
    return f"{cells[0]:>4} {name:<{NAME_WIDTH}} {cells[2]:>5} {cells[3]:>6} {cells[4]:>3}"


def rating_table(view: SeriesView, reader: int | None, locale: str) -> RatingTable:
    """The series' players' table, the line of person `reader` marked (and added under the
    first lines when he is further down), and his own line's summary under it."""
    words = SeasonWords(locale)
    header = tuple(
        words(f"rating-abbr-{column}")
        for column in ("place", "player", "rating", "points", "games")
    )
    rows = tuple(_cells(row, words, row.person_id == reader) for row in view.players)
    mine = next((i for i, row in enumerate(view.players) if row.person_id == reader), None)
    heading = words("rating-heading", title=escape(view.title))
    if not rows:
        return RatingTable(heading + "\n" + words("rating-empty"), header, rows, None)
    shown = list(range(min(len(rows), RATING_ROWS)))
    if mine is not None and mine not in shown:
        shown.append(mine)
    table = [_pre_line(header)] + [_pre_line(rows[i]) for i in shown]
    text = heading + "\n<pre>" + escape("\n".join(table)) + "</pre>"
    if len(rows) > len(shown):
        text += "\n" + words("rating-more", count=len(rows) - len(shown))
    text += "\n" + words("rating-legend")
    if mine is not None:
        row = view.players[mine]
        text += "\n\n" + words(
            "rating-mine",
            place=row.place,
            rating=rating_number(row.rating),
            points=words.decimal(row.series_points),
        )
    else:
        text += "\n\n" + words("rating-not-in")
    return RatingTable(text, header, rows, mine)


def clubs_text(view: SeriesView, locale: str) -> str:
    """The series' clubs' table."""
    words = SeasonWords(locale)
    heading = words("rating-clubs-heading", title=escape(view.title))
    if not view.clubs:
        return heading + "\n" + words("rating-clubs-empty")
    lines = [
        words(
            "rating-club-line",
            place=club.place,
            club=escape(club.club),
            rating=rating_number(club.rating),
            members=club.members,
        )
        for club in view.clubs[:RATING_ROWS]
    ]
    return heading + "\n" + "\n".join(lines)


def merge_side(person: PlayerProfile, locale: str) -> str:
    """One of two persons a merge shows side by side, with his tournaments' titles."""
    words = SeasonWords(locale)
    line = words(
        "merge-side",
        nickname=escape(person.nickname),
        club=escape(person.club or "—"),
        tournaments=len(person.tournaments),
        games=person.games,
        rating=words.rating(person.rating.overall if person.rating else None),
    )
    titles = [f"• {escape(t.title)}" for t in person.tournaments[:PROFILE_TOURNAMENTS]]
    return "\n".join([line, *titles])
