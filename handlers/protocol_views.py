"""The protocol screen's views: the judge's protocol as text (seats, roles, fouls, the end,
the scores) and its keyboard of tools, and the words the buttons' `act` carries.
"""

from __future__ import annotations

import functools
from datetime import datetime
from decimal import Decimal
from zoneinfo import ZoneInfo

from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup
from aiogram.utils.keyboard import InlineKeyboardBuilder

from bot.i18n import format_points
from domain.cards import Side
from domain.game_end import GameEnd
from domain.layout import argument, joined, lines
from domain.outgoing import ArgumentValue, Lines, Phrase
from domain.protocol import FirstKill, ProtocolError, Removal, SeatDraft
from domain.protocol_screen import (
    END_CHOICES,
    MODES,
    NIGHTS,
    ROLE_TOOLS,
    WINNERS,
    Act,
    Mode,
    Press,
    Screen,
    end_choices,
    end_time_presses,
    extra_steps,
    extra_values,
    seat_press,
)
from domain.rounds import GameInRound, GameState
from domain.scoring import SeatScore
from domain.services.protocols import ProtocolView
from handlers.callbacks import ProtocolAction, ProtocolButton
from handlers.keyboards import RowsKeyboard, callback_button
from handlers.middlewares import Texts

# A button's callback data and label are the same for the same press and words: kept, a
# screen of some thirty buttons is drawn at every press (the judges' most frequent update).
_KEPT_BUTTONS = 4096


@functools.lru_cache(maxsize=_KEPT_BUTTONS)
def _button(game_id: int, press: Press | None) -> str:
    if press is None:
        return ProtocolButton(game_id=game_id, action=ProtocolAction.REFRESH).pack()
    return ProtocolButton(
        game_id=game_id, action=press.act, seat=press.seat, value=press.value
    ).pack()


def _points(value: Decimal, texts: Texts) -> str:
    # Points the person's way: "0,3" and "−1" in Russian.
    return format_points(value, texts.locale)


def _seat_line(view: ProtocolView, screen: Screen, seat: int) -> Phrase:
    return _seat_line_of(seat, view.nicknames[seat - 1], screen.draft.seats[seat - 1])


# A seat's line is a function of the seat, its player's nickname and its record alone: kept,
# as a press changes one seat at most and the screen shows all ten.
@functools.lru_cache(maxsize=_KEPT_BUTTONS)
def _seat_line_of(seat: int, nickname: str, record: SeatDraft) -> Phrase:
    parts = [Phrase.of("protocol-screen-role", role=record.role.value if record.role else "none")]
    if record.fouls:
        parts.append(Phrase.of("protocol-screen-fouls", fouls=record.fouls))
    if record.removed is not None:
        parts.append(Phrase.of("protocol-screen-removed", removed=record.removed.value))
    if record.extra:
        parts.append(Phrase.of("protocol-screen-extra", extra=record.extra))
    return joined(f"{seat}. {nickname} — ", joined(*parts, separator=", "))


def _breakdown(score: SeatScore) -> Phrase | None:
    """What the total is made of; None when it is nothing but a loss worth 0 ("0", not
    "0 (loss 0)")."""
    parts = []
    if score.won or score.win:
        key = "protocol-screen-part-win" if score.won else "protocol-screen-part-loss"
        parts.append(Phrase.of(key, points=score.win))
    for key, points in (
        ("protocol-screen-part-best-move", score.best_move),
        ("protocol-screen-part-extra", score.extra),
        ("protocol-screen-part-penalty", score.penalty),
    ):
        if points:
            parts.append(Phrase.of(key, points=points))
    return joined(*parts, separator=", ") if parts else None


def _scores(view: ProtocolView, scores: tuple[SeatScore, ...]) -> list[Phrase]:
    shown = []
    for score in scores:
        breakdown = _breakdown(score)
        shown.append(
            Phrase.of(
                "protocol-screen-score" if breakdown else "protocol-screen-score-alone",
                seat=score.seat,
                nickname=view.nicknames[score.seat - 1],
                total=score.total,
                breakdown=breakdown or "",
            )
        )
    return shown


def _end_lines(
    timezone: str, winner: Side | None, end: GameEnd | None, ended_at: datetime | None
) -> list[Phrase]:
    """How and when the game ended, once the winner is entered."""
    shown: list[Phrase] = []
    if winner is not None and end is not None:
        shown.append(Phrase.of("protocol-screen-end", end=end.value, winner=winner.value))
    if ended_at is not None:
        local = ended_at.astimezone(ZoneInfo(timezone))
        shown.append(Phrase.of("protocol-screen-ended-at", time=local.strftime("%H:%M")))
    return shown


def _outcome_lines(view: ProtocolView, screen: Screen) -> tuple[Phrase, ...]:
    draft = screen.draft
    return _outcome_of(
        view.timezone, draft.winner, draft.end, draft.ended_at, draft.first_kill, draft.best_move
    )


# The outcome's lines, kept by everything they show: the same on most presses.
@functools.lru_cache(maxsize=_KEPT_BUTTONS)
def _outcome_of(
    timezone: str,
    winner: Side | None,
    end: GameEnd | None,
    ended_at: datetime | None,
    kill: FirstKill | None,
    best_move: tuple[int, ...] | None,
) -> tuple[Phrase, ...]:
    shown = [Phrase.of("protocol-screen-winner", winner=winner.value if winner else "none")]
    shown.extend(_end_lines(timezone, winner, end, ended_at))
    if kill is None:
        shown.append(Phrase.of("protocol-screen-first-kill-unknown"))
    elif kill.seat is None:
        shown.append(Phrase.of("protocol-screen-no-first-kill"))
    else:
        shown.append(Phrase.of("protocol-screen-first-kill", seat=kill.seat, night=kill.night))
    if best_move == ():
        shown.append(Phrase.of("protocol-screen-best-move-nobody"))
    elif best_move:
        named = ", ".join(str(seat) for seat in best_move)
        shown.append(Phrase.of("protocol-screen-best-move", seats=named))
    return tuple(shown)


def error_text(view: ProtocolView, error: ProtocolError) -> Phrase:
    """A refused press (an alert says it as plain text, the screen as a line); a moment in it
    reads as the tournament's clock, HH:MM."""
    args: dict[str, ArgumentValue] = {}
    for name, value in error.args.items():
        if isinstance(value, datetime):
            args[name] = value.astimezone(ZoneInfo(view.timezone)).strftime("%H:%M")
        else:
            args[name] = argument(value)
    return Phrase.of(error.code, seat=error.seat if error.seat is not None else "", **args)


def render_text(view: ProtocolView) -> Lines:
    """The protocol message: what is entered, what is missing, why a press was refused."""
    game = view.game
    title = Phrase.of("protocol-screen-title", game=game.round_number, table=game.game.table)
    screen = view.screen
    if screen is None:
        return lines([title, *_confirmed_lines(view)])
    return lines([title, *_draft_lines(view, screen)])


def _confirmed_lines(view: ProtocolView) -> list[Phrase]:
    game = view.game
    shown = [Phrase.of("protocol-screen-confirmed"), *_scores(view, view.scores or ())]
    confirmed = view.confirmed
    if confirmed is not None:
        shown.extend(_end_lines(view.timezone, confirmed.winner, confirmed.end, confirmed.ended_at))
    if game.game.protest_until is not None:
        local = game.game.protest_until.astimezone(ZoneInfo(view.timezone))
        shown.append(Phrase.of("protocol-screen-protest-until", time=local.strftime("%H:%M")))
    return shown


def _draft_lines(view: ProtocolView, screen: Screen) -> list[Phrase | str]:
    shown: list[Phrase | str] = []
    if view.correcting:
        shown.append(Phrase.of("protocol-screen-correcting"))
    step = view.regulation.extra_points.step
    shown.append(Phrase.of("protocol-screen-hint", mode=screen.mode.value, step=step))
    if screen.mode is Mode.EXTRA and screen.extra_seat is not None:
        nickname = view.nicknames[screen.extra_seat - 1]
        shown.append(
            Phrase.of("protocol-screen-extra-pick", seat=screen.extra_seat, nickname=nickname)
        )
    if screen.mode is Mode.BEST_MOVE and (
        screen.draft.first_kill is None or screen.draft.first_kill.seat is None
    ):
        shown.append(Phrase.of("protocol-screen-best-move-needs-victim"))
    shown.append("")
    summary = view.scores if screen.mode is Mode.SUMMARY else None
    if summary:
        shown.extend(_scores(view, summary))
    else:
        shown.extend(_seat_line(view, screen, seat) for seat in range(1, 11))
    shown.append("")
    shown.extend(_outcome_lines(view, screen))
    if view.missing:
        shown.append(Phrase.of("protocol-screen-missing"))
        shown.extend(joined("• ", Phrase(code)) for code in view.missing)
    elif screen.mode is not Mode.SUMMARY:
        shown.append(Phrase.of("protocol-screen-ready"))
    if view.refused:
        shown.append(Phrase.of("protocol-screen-refused"))
        shown.extend(joined("⛔ ", error_text(view, error)) for error in view.refused)
    return shown


def _seat_button(
    view: ProtocolView, screen: Screen, seat: int, texts: Texts
) -> InlineKeyboardButton:
    draft = screen.draft
    kill = draft.first_kill
    return _seat_button_of(
        texts.locale,
        view.game.game.id,
        seat,
        view.nicknames[seat - 1],
        draft.seats[seat - 1],
        (kill is not None and kill.seat == seat, seat in (draft.best_move or ())),
        seat == screen.extra_seat,
        seat_press(screen, seat, view.regulation),
    )


# A seat's button is a function of its language, game, seat, player, record, marks (the
# first victim, the best move, picked) and press alone: kept, as most seats keep their button
# from one press to the next.
@functools.lru_cache(maxsize=_KEPT_BUTTONS)
def _seat_button_of(
    locale: str,
    game_id: int,
    seat: int,
    nickname: str,
    record: SeatDraft,
    marks: tuple[bool, bool],
    picked: bool,
    press: Press | None,
) -> InlineKeyboardButton:
    text = _seat_label(Texts(locale), seat, nickname, record, marks, picked)
    return callback_button(text, _button(game_id, press))


def _seat_label(
    texts: Texts,
    seat: int,
    nickname: str,
    record: SeatDraft,
    marks: tuple[bool, bool],
    picked: bool,
) -> str:
    killed, best_move = marks
    label = f"{seat} {nickname} · "
    label += _word(texts, "protocol-screen-mark", role=record.role.value if record.role else "none")
    if record.removed is Removal.DISQUALIFIED:
        label += " ✖"
    elif record.fouls:
        label += " " + "!" * record.fouls
    if killed:
        label += " ☠"
    if best_move:
        label += " ✓"
    if record.extra:
        label += f" +{_points(record.extra, texts)}"
    return _marked(label, picked)


def _word(texts: Texts, key: str, **args: str | int) -> str:
    """A button's label in the person's language (kept: see `_KEPT_BUTTONS`)."""
    return _label(texts.locale, key, tuple(sorted(args.items())))


@functools.lru_cache(maxsize=_KEPT_BUTTONS)
def _label(locale: str, key: str, args: tuple[tuple[str, str | int], ...]) -> str:
    return Texts(locale)(key, **dict(args))


def _marked(text: str, active: bool) -> str:
    return f"• {text} •" if active else text


Tools = list[list[tuple[str, Press]]]


def _tools(view: ProtocolView, screen: Screen, texts: Texts) -> Tools:
    """The rows of buttons above the seats: the current mode's tools."""
    if screen.mode is Mode.ROLES:
        return _role_tools(screen, texts)
    if screen.mode is Mode.FOULS:
        return _foul_tools(screen, texts)
    if screen.mode is Mode.KILL:
        nights = [
            (
                _marked(
                    _word(texts, "protocol-screen-tool-night", night=night), night == screen.night
                ),
                Press(Act.NIGHT, value=night),
            )
            for night in NIGHTS
        ]
        return [nights, [(_word(texts, "protocol-screen-tool-no-kill"), Press(Act.NO_KILL))]]
    if screen.mode is Mode.BEST_MOVE:
        return [[(_word(texts, "protocol-screen-tool-no-best-move"), Press(Act.NO_BEST_MOVE))]]
    if screen.mode is Mode.EXTRA and screen.extra_seat is not None:
        return _extra_tools(view, screen, screen.extra_seat, texts)
    if screen.mode is Mode.EXTRA:
        # The winner is the step after the extra points: it is entered from here too.
        return _winner_tools(screen, texts)
    if screen.mode is Mode.WINNER:
        return [*_winner_tools(screen, texts), *_end_tools(view, screen, texts)]
    if screen.mode is Mode.SUMMARY:
        # The end of the game, correctable: the protest window may run from it.
        times = [
            (_word(texts, "protocol-screen-tool-end-time", minutes=step), press)
            for step, press in end_time_presses(screen.draft)
        ]
        return [times] if times else []
    return []


def _role_tools(screen: Screen, texts: Texts) -> Tools:
    roles = [
        (
            _marked(
                _word(texts, "protocol-screen-tool-role", role=role.value if role else "none"),
                role is screen.role_tool,
            ),
            Press(Act.ROLE_TOOL, value=index),
        )
        for index, role in enumerate(ROLE_TOOLS)
    ]
    rest = (_word(texts, "protocol-screen-rest-civilians"), Press(Act.REST_CIVILIANS))
    return [roles[1:3], [roles[3], roles[4], roles[0]], [rest]]


def _foul_tools(screen: Screen, texts: Texts) -> Tools:
    return [
        [
            (
                _marked(
                    _word(texts, "protocol-screen-tool-add-foul"),
                    not screen.subtract and not screen.disqualify,
                ),
                Press(Act.SUBTRACT, value=0),
            ),
            (
                _marked(_word(texts, "protocol-screen-tool-remove-foul"), screen.subtract),
                Press(Act.SUBTRACT, value=1),
            ),
        ],
        [
            (
                _marked(_word(texts, "protocol-screen-tool-disqualify"), screen.disqualify),
                Press(Act.DISQUALIFY_TOOL, value=1),
            )
        ],
    ]


def _extra_tools(view: ProtocolView, screen: Screen, seat: int, texts: Texts) -> Tools:
    """The extra points a seat may get, five a row, the chosen one marked."""
    chosen = extra_steps(screen.draft.seats[seat - 1].extra, view.regulation)
    values = [
        (
            _marked(_points(steps * view.regulation.extra_points.step, texts), steps == chosen),
            Press(Act.EXTRA, seat, steps),
        )
        for steps in extra_values(view.regulation)
    ]
    return [values[start : start + 5] for start in range(0, len(values), 5)]


def _end_tools(view: ProtocolView, screen: Screen, texts: Texts) -> Tools:
    """How the game ended, one button a row: each sets the end and the winner it gives."""
    draft = screen.draft
    rows = []
    for index in end_choices(view.regulation):
        end, winner = END_CHOICES[index]
        label = _word(texts, "protocol-screen-tool-end", end=end.value, winner=winner.value)
        chosen = draft.end is end and draft.winner is winner
        rows.append([(_marked(label, chosen), Press(Act.END, value=index))])
    return rows


def _winner_tools(screen: Screen, texts: Texts) -> Tools:
    return [
        [
            (
                _marked(
                    _word(texts, "protocol-screen-tool-winner", winner=side.value),
                    screen.draft.winner is side,
                ),
                Press(Act.WINNER, value=WINNERS.index(side)),
            )
            for side in (Side.RED, Side.BLACK)
        ]
    ]


@functools.lru_cache(maxsize=_KEPT_BUTTONS)
def _mode_buttons(locale: str, game_id: int, shown: Mode) -> tuple[InlineKeyboardButton, ...]:
    """The modes' row, the shown one marked: the same at every press within a mode."""
    texts = Texts(locale)
    return tuple(
        callback_button(
            _marked(_word(texts, "protocol-screen-mode", mode=mode.value), mode is shown),
            _button(game_id, Press(Act.MODE, value=index)),
        )
        for index, mode in enumerate(MODES)
    )


def render_keyboard(
    view: ProtocolView, texts: Texts, live_url: str | None = None
) -> InlineKeyboardMarkup | None:
    """Seats, the mode's tools, the modes, and confirm (or correct) where it applies; on top,
    "Run the game" opens the live game in the Mini App (`live_url`, where there is one)."""
    game_id = view.game.game.id
    keyboard = RowsKeyboard()
    screen = view.screen
    if screen is None:
        if view.chief_judge and view.game.game.state is GameState.CONFIRMED:
            keyboard.button(
                text=_word(texts, "protocol-screen-correct"),
                callback_data=ProtocolButton(game_id=game_id, action=ProtocolAction.CORRECT),
            )
            return keyboard.as_markup()
        return None
    sizes: list[int] = []
    if live_url is not None and not view.correcting:
        keyboard.web_app(text=_word(texts, "miniapp-open"), url=live_url)
        sizes.append(1)
    if screen.mode not in (Mode.WINNER, Mode.SUMMARY):
        for seat in range(1, 11):
            keyboard.add(_seat_button(view, screen, seat, texts))
        sizes += [2] * 5
    for row in _tools(view, screen, texts):
        for text, press in row:
            keyboard.button(text=text, callback_data=_button(game_id, press))
        sizes.append(len(row))
    for button in _mode_buttons(texts.locale, game_id, screen.mode):
        keyboard.add(button)
    sizes += [4, 3]
    if screen.mode is Mode.SUMMARY and not view.missing:
        keyboard.button(
            text=_word(texts, "protocol-screen-confirm"),
            callback_data=ProtocolButton(game_id=game_id, action=ProtocolAction.CONFIRM),
        )
        sizes.append(1)
    if view.correcting:
        keyboard.button(
            text=_word(texts, "protocol-screen-cancel-correction"),
            callback_data=ProtocolButton(game_id=game_id, action=ProtocolAction.CANCEL),
        )
        sizes.append(1)
    keyboard.adjust(*sizes)
    return keyboard.as_markup()


def games_keyboard(
    games: list[GameInRound], titles: dict[int, str], texts: Texts
) -> InlineKeyboardMarkup:
    """/protocol: a button per game; `titles` names the tournament of a judge of several."""
    keyboard = InlineKeyboardBuilder()
    for game in games:
        label = texts(
            "protocol-screen-game-button",
            game=game.round_number,
            table=game.game.table,
            confirmed="yes" if game.game.state is GameState.CONFIRMED else "no",
        )
        if game.tournament_id in titles:
            label = texts(
                "protocol-screen-game-of", tournament=titles[game.tournament_id], game=label
            )
        keyboard.button(
            text=label,
            callback_data=ProtocolButton(game_id=game.game.id, action=ProtocolAction.OPEN),
        )
    keyboard.adjust(1)
    return keyboard.as_markup()
