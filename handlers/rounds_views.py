"""The rounds screens' views: the stage's overview, a round's pages, the seat editor's steps
(texts and keyboards).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from aiogram.filters.callback_data import CallbackData
from aiogram.types import InlineKeyboardMarkup
from aiogram.utils.keyboard import InlineKeyboardBuilder

from domain.layout import joined, lines
from domain.outgoing import TEXT_LIMIT, Lines, Localized, Phrase
from domain.rounds import Round, TableGame
from domain.services.rounds import StagePreview
from domain.table_listing import in_parts, listing_length, table_listing
from domain.tournament import Tournament
from handlers.callbacks import (
    RoundAction,
    SeatEdit,
    SeatStep,
    StageButton,
    StreamAction,
    StreamButton,
)
from handlers.keyboards import tournament_choice
from handlers.middlewares import Texts

# Room on each page of a round's view for its title and which tables the page shows.
PAGE_HEADING_ROOM = 200
# Sitting-out players are listed ten to a line, so that no line outgrows a page.
SIT_OUTS_PER_LINE = 10


# Table buttons on one row of the picker (Telegram shows at most 8).
TABLES_PER_ROW = 5


@dataclass(frozen=True)
class RoundPage:
    """One message of a round's view: the tables it shows, and its text below the title."""

    games: tuple[TableGame, ...]
    body: Lines

    def shows(self, table: int) -> bool:
        return any(game.table == table for game in self.games)


def rounds_button(tournament_id: int) -> StageButton:
    """The tournament card's way into the rounds screens."""
    return StageButton(tournament_id=tournament_id, action=RoundAction.OPEN)


def _quality_lines(preview: StagePreview) -> list[Phrase]:
    """The seating's quality report: a figure at its best (nothing repeated, every player
    with as many games) is left out, so what is shown is what the organizer may weigh."""
    quality = preview.quality
    if quality.s2:
        meetings = Phrase.of(
            "rounds-quality-meetings",
            max_meet=quality.max_meet,
            max_meet_bound=quality.max_meet_bound,
            s2=quality.s2,
            s2_bound=quality.s2_bound,
        )
    else:
        meetings = Phrase.of("rounds-quality-no-repeats")
    shown = [meetings]
    if quality.players_with_repeated_seats or quality.seat_zone_unbalanced:
        shown.append(
            Phrase.of(
                "rounds-quality-seats",
                repeated=quality.players_with_repeated_seats,
                unbalanced=quality.seat_zone_unbalanced,
            )
        )
    if quality.games_min != quality.games_max:
        shown.append(
            Phrase.of("rounds-quality-games", low=quality.games_min, high=quality.games_max)
        )
    if preview.tournament.is_team_tournament and quality.teammates_together:
        shown.append(Phrase.of("rounds-quality-teammates", together=quality.teammates_together))
    if quality.worst_pair is not None:
        first, second, games = quality.worst_pair
        shown.append(
            Phrase.of(
                "rounds-quality-worst-pair",
                first=_name(preview, first),
                second=_name(preview, second),
                games=games,
            )
        )
    if quality.most_repeats is not None:
        player, repeats = quality.most_repeats
        shown.append(
            Phrase.of("rounds-quality-most-repeats", player=_name(preview, player), repeats=repeats)
        )
    for key, most, bound in (
        ("seating-quality-most-at-table", quality.most_at_table, quality.most_at_table_bound),
        ("seating-quality-most-with-judge", quality.most_with_judge, quality.most_with_judge_bound),
    ):
        if most is not None:
            player, games = most
            shown.append(Phrase.of(key, player=_name(preview, player), games=games, bound=bound))
    shown.extend(joined("⛔ ", problem) for problem in quality.hard_violations)
    return shown


def _name(preview: StagePreview, player: int) -> str:
    """A participant's nickname."""
    return preview.nicknames.get(player, str(player))


def overview_text(preview: StagePreview) -> Lines:
    """The stage's preview: seed, quality report, rounds and whether each is published."""
    stage = preview.stage
    name = preview.tournament.regulation.stage(stage.stage).name
    shown: list[Phrase | str] = [
        Phrase.of(
            "rounds-title",
            title=preview.tournament.title,
            stage=Localized(name.ru, name.en),
            rounds=len(stage.rounds),
            tables=len(stage.rounds[0].games) if stage.rounds else 0,
            seed=str(stage.seed),
        ),
        *_quality_lines(preview),
    ]
    if preview.changed_seats is not None:
        shown.append(Phrase.of("rounds-changed-seats", changed=preview.changed_seats))
    shown.append("")
    if preview.gone:
        names = ", ".join(_name(preview, p) for p in preview.gone)
        shown.extend([Phrase.of("rounds-gone", players=names), ""])
    for round_ in stage.rounds:
        missing = sum(1 for game in round_.games if game.judge_id is None)
        shown.append(
            Phrase.of(
                "rounds-round-line",
                round=round_.number,
                published="yes" if round_.published_at else "no",
                missing=missing,
            )
        )
    shown.append("")
    shown.append(Phrase.of("rounds-edit-help", tournament=preview.tournament.id))
    return lines(shown)


def overview_keyboard(preview: StagePreview, texts: Texts) -> InlineKeyboardMarkup:
    tournament = preview.tournament.id
    keyboard = InlineKeyboardBuilder()
    for round_ in preview.stage.rounds:
        keyboard.button(
            text=texts("rounds-round-button", round=round_.number),
            callback_data=StageButton(
                tournament_id=tournament, action=RoundAction.ROUND, round=round_.number
            ),
        )
    sizes = [4] * (len(preview.stage.rounds) // 4) + [len(preview.stage.rounds) % 4]
    following = preview.stage.next_unpublished
    if following is not None:
        if following.publishable(preview.gone):
            keyboard.button(
                text=texts("rounds-publish-button", round=following.number),
                callback_data=StageButton(
                    tournament_id=tournament, action=RoundAction.PUBLISH, round=following.number
                ),
            )
            sizes.append(1)
        # Players who left: the fewest changes first; a fresh draw only for unchanged players.
        reseat = ("rounds-reseat-button", RoundAction.RESEAT) if preview.gone else None
        text, act = reseat or ("rounds-regenerate-button", RoundAction.REGENERATE)
        keyboard.button(
            text=texts(text), callback_data=StageButton(tournament_id=tournament, action=act)
        )
        sizes.append(1)
    for text, act in (
        ("seating-pdf-button", RoundAction.PDF),
        ("seating-csv-button", RoundAction.CSV),
        ("seating-schedules-button", RoundAction.SCHEDULES),
    ):
        keyboard.button(
            text=texts(text), callback_data=StageButton(tournament_id=tournament, action=act)
        )
    sizes.extend([2, 1])
    keyboard.adjust(*[size for size in sizes if size])
    return keyboard.as_markup()


def round_pages(preview: StagePreview, round_: Round) -> list[RoundPage]:
    """A round's tables with seats, nicknames and judges, then who sits out, in as few pages
    as fit one Telegram message each (a table is never cut), listed and cut as the channel's
    post is (`domain.table_listing`)."""
    blocks: list[tuple[Phrase, int]] = []
    for game in round_.games:
        # The organizer's screen shows a table still without a judge, to be given one.
        judge = preview.judge_name(game.judge_id) or "—"
        listing = table_listing(game, preview.nicknames, judge=judge)
        blocks.append((listing, listing_length(game, preview.nicknames, judge)))
    names = [preview.nicknames.get(p, str(p)) for p in round_.sit_outs]
    for start in range(0, len(names), SIT_OUTS_PER_LINE):
        players = ", ".join(names[start : start + SIT_OUTS_PER_LINE])
        blocks.append((Phrase.of("rounds-sit-outs", players=players), len(players) * 2 + 40))
    pages: list[RoundPage] = []
    games = list(round_.games)
    for part in in_parts(blocks, TEXT_LIMIT - PAGE_HEADING_ROOM):
        shown, games = games[: len(part)], games[len(part) :]
        pages.append(RoundPage(tuple(shown), Lines(part, separator="\n\n")))
    return pages


def page_of_table(pages: Sequence[RoundPage], table: int) -> int:
    """The page (from 0) showing `table`; the first page when no page shows it."""
    return next((n for n, page in enumerate(pages) if page.shows(table)), 0)


def round_text(round_: Round, pages: Sequence[RoundPage], page: int) -> Lines:
    """One page of a round's view: the round's title, which tables the page shows, its body."""
    shown: list[Phrase | Lines | str] = [
        Phrase.of(
            "rounds-round-title",
            round=round_.number,
            published="yes" if round_.published_at else "no",
        )
    ]
    current = pages[page]
    if len(pages) > 1:
        shown.append(
            Phrase.of(
                "rounds-round-page",
                page=page + 1,
                pages=len(pages),
                what=_page_label(current),
                tables=len(round_.games),
            )
        )
    if current.body.phrases:
        shown += ["", current.body]
    return lines(shown)


def round_keyboard(
    preview: StagePreview,
    round_: Round,
    pages: Sequence[RoundPage],
    page: int,
    texts: Texts,
) -> InlineKeyboardMarkup:
    """The page's judge buttons, the way to the pages beside it, publishing and the way back."""
    tournament = preview.tournament.id
    keyboard = InlineKeyboardBuilder()
    sizes = _table_buttons(keyboard, preview, round_, pages[page].games, texts)
    turns = [(page - 1, "rounds-page-back"), (page + 1, "rounds-page-forward")]
    beside = [(n, key) for n, key in turns if 0 <= n < len(pages)]
    for n, key in beside:
        keyboard.button(
            text=texts.plain(Phrase.of(key, what=_page_label(pages[n]))),
            callback_data=StageButton(
                tournament_id=tournament, action=RoundAction.ROUND, round=round_.number, value=n
            ),
        )
    sizes.append(len(beside))
    keyboard.button(
        text=texts("rounds-edit-button"),
        callback_data=SeatEdit(
            tournament_id=tournament, round=round_.number, action=SeatStep.TABLES
        ),
    )
    sizes.append(1)
    if round_.publishable(preview.gone):
        keyboard.button(
            text=texts("rounds-publish-button", round=round_.number),
            callback_data=StageButton(
                tournament_id=tournament, action=RoundAction.PUBLISH, round=round_.number
            ),
        )
        sizes.append(1)
    keyboard.button(
        text=texts("rounds-back-button"),
        callback_data=StageButton(tournament_id=tournament, action=RoundAction.OVERVIEW),
    )
    sizes.append(1)
    keyboard.adjust(*[size for size in sizes if size])
    return keyboard.as_markup()


def _table_buttons(
    keyboard: InlineKeyboardBuilder,
    preview: StagePreview,
    round_: Round,
    games: Sequence[TableGame],
    texts: Texts,
) -> list[int]:
    """Each table's judge button, and once the round is published its stream's; the rows."""
    tournament = preview.tournament.id
    for game in games:
        keyboard.button(
            text=texts(
                "rounds-judge-button",
                table=game.table,
                judge=preview.judge_name(game.judge_id) or "—",
            ),
            callback_data=StageButton(
                tournament_id=tournament,
                action=RoundAction.JUDGE,
                round=round_.number,
                table=game.table,
                value=round_.next_judge(game, preview.judges) or 0,
            ),
        )
        if round_.published_at is not None:
            # A published table's game can be streamed: its stream view's screen.
            keyboard.button(
                text=texts("rounds-stream-button", table=game.table),
                callback_data=StreamButton(game_id=game.id, action=StreamAction.SHOW),
            )
    per_table = 2 if round_.published_at is not None else 1
    return [per_table] * len(games)


def _page_label(page: RoundPage) -> Phrase:
    """What a page shows: its tables, or only who sits out."""
    if not page.games:
        return Phrase.of("rounds-page-sit-outs")
    first, last = page.games[0].table, page.games[-1].table
    if first == last:
        return Phrase.of("rounds-page-table", table=first)
    return Phrase.of("rounds-page-tables", first=first, last=last)


def _seat_edit_step(preview: StagePreview, round_: Round, press: SeatEdit) -> Phrase:
    """What the seat editor asks at this step: a table to pick, or a seat at the table."""
    name = preview.nicknames.get(press.player, str(press.player))
    picked = "yes" if press.player else "no"
    if press.action is SeatStep.TABLES:
        return Phrase.of("rounds-edit-pick-table", round=round_.number, picked=picked, player=name)
    return Phrase.of(
        "rounds-edit-pick-seat", round=round_.number, table=press.table, picked=picked, player=name
    )


def seat_edit_screen(
    preview: StagePreview, round_: Round, press: SeatEdit, texts: Texts
) -> tuple[Phrase, InlineKeyboardMarkup]:
    """A step of editing a round by buttons: the tables (and who sits out) to pick from, or
    one table's seats; first for the player to move, then for where he goes."""
    seating, moved = round_.seating, press.player or None
    text = _seat_edit_step(preview, round_, press)
    base = {"tournament_id": press.tournament_id, "round": press.round, "player": press.player}
    keyboard = InlineKeyboardBuilder()
    if press.action is SeatStep.TABLES:
        for game in round_.games:
            keyboard.button(
                text=texts("rounds-edit-table-button", table=game.table),
                callback_data=SeatEdit(**base, action=SeatStep.TABLE, table=game.table),
            )
        sizes = [TABLES_PER_ROW] * (len(round_.games) // TABLES_PER_ROW)
        sizes.append(len(round_.games) % TABLES_PER_ROW)
        # A sit-out only changes places with a seated player.
        if seating.sit_outs and (moved is None or seating.position(moved) is not None):
            keyboard.button(
                text=texts("rounds-edit-sit-outs-button"),
                callback_data=SeatEdit(**base, action=SeatStep.TABLE),
            )
            sizes.append(1)
        back: CallbackData = StageButton(
            tournament_id=press.tournament_id, action=RoundAction.ROUND, round=press.round
        )
    else:
        if press.table:
            chairs = list(enumerate(seating.tables[press.table - 1], start=1))
        else:
            chairs = [(0, player) for player in seating.sit_outs]
        sizes = []
        for seat, player in chairs:
            if player == moved:
                continue
            label = preview.nicknames.get(player, str(player))
            if moved is None:
                step = SeatEdit(**{**base, "player": player}, action=SeatStep.TABLES)
            elif seat:
                step = SeatEdit(
                    **base, action=SeatStep.MOVE, table=press.table, seat=seat, expected=player
                )
            else:
                step = SeatEdit(**base, action=SeatStep.SWAP, expected=player)
            keyboard.button(text=f"{seat}. {label}" if seat else label, callback_data=step)
            sizes.append(2)
        sizes = [2] * (len(sizes) // 2) + [len(sizes) % 2]
        back = SeatEdit(**base, action=SeatStep.TABLES)
    keyboard.button(text=texts("rounds-edit-back-button"), callback_data=back)
    sizes.append(1)
    keyboard.adjust(*[size for size in sizes if size])
    return text, keyboard.as_markup()


def tournaments_keyboard(running: list[Tournament], action: RoundAction) -> InlineKeyboardMarkup:
    """A button per running tournament; its press does `action` for that tournament."""
    return tournament_choice(
        running[:30], lambda tournament: StageButton(tournament_id=tournament.id, action=action)
    )


def not_seated_keyboard(tournament_id: int, texts: Texts) -> InlineKeyboardMarkup:
    """The offer to seat a stage not seated yet."""
    keyboard = InlineKeyboardBuilder()
    keyboard.button(
        text=texts("rounds-seat-button"),
        callback_data=StageButton(tournament_id=tournament_id, action=RoundAction.SEAT),
    )
    return keyboard.as_markup()
