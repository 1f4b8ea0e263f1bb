"""The live game's log as the chief judge reads it when deciding a protest: one line per
action with its time and where in the game it happened (day, night, phase)."""

from __future__ import annotations

from zoneinfo import ZoneInfo

from domain.cards import Role
from domain.game_log import (
    AllOrNobody,
    CastVotes,
    Check,
    DealRoles,
    Disqualify,
    Entry,
    Extra,
    Finish,
    Foul,
    GameLogRefused,
    LiveGame,
    NameBestMove,
    Nominate,
    Phase,
    Proceed,
    Shoot,
    TechnicalFoul,
    Withdraw,
    apply,
)
from domain.layout import joined, lines
from domain.outgoing import Lines, Phrase
from domain.regulation import Regulation

_NIGHT = (Phase.SHOT, Phase.DON_CHECK, Phase.SHERIFF_CHECK, Phase.BEST_MOVE)


def _seats_of(roles: tuple[Role | None, ...], role: Role) -> str:
    return ", ".join(str(seat) for seat, dealt in enumerate(roles, 1) if dealt is role) or "—"


def _line(entry: Entry, before: LiveGame, after: LiveGame) -> Phrase | None:
    action = entry.action
    if isinstance(action, DealRoles):
        return Phrase.of(
            "game-log-line-roles",
            don=_seats_of(action.roles, Role.DON),
            sheriff=_seats_of(action.roles, Role.SHERIFF),
            mafia=_seats_of(action.roles, Role.MAFIA),
        )
    if isinstance(action, Nominate):
        return Phrase.of("game-log-line-nominate", by=action.by, target=action.target)
    if isinstance(action, Withdraw):
        return Phrase.of("game-log-line-withdraw", by=action.by)
    if isinstance(action, CastVotes):
        counts = ", ".join(
            f"{seat}: {count}" for seat, count in zip(before.candidates, action.counts, strict=True)
        )
        line = Phrase.of("game-log-line-votes", votes=counts)
        if action.ballots:
            who = ", ".join(f"{b.voter}→{b.target}" for b in action.ballots)
            return joined(line, f" ({who})")
        return line
    if isinstance(action, AllOrNobody):
        return Phrase.of("game-log-line-all-or-nobody", votes=action.votes)
    if isinstance(action, Shoot):
        if action.target is None:
            return Phrase.of("game-log-line-miss")
        return Phrase.of("game-log-line-shot", seat=action.target)
    if isinstance(action, Check):
        by = "don" if before.phase is Phase.DON_CHECK else "sheriff"
        return Phrase.of("game-log-line-check", by=by, seat=action.seat)
    if isinstance(action, NameBestMove):
        return Phrase.of("game-log-line-best-move", seats=", ".join(map(str, action.seats)))
    if isinstance(action, Foul):
        fouls = after.fouls[action.seat - 1]
        return Phrase.of("game-log-line-foul", seat=action.seat, fouls=fouls)
    if isinstance(action, TechnicalFoul):
        count = after.technical[action.seat - 1]
        return Phrase.of("game-log-line-technical-foul", seat=action.seat, fouls=count)
    if isinstance(action, Disqualify):
        return Phrase.of("game-log-line-disqualify", seat=action.seat)
    if isinstance(action, Finish):
        end = action.end.value if action.end else "none"
        line = Phrase.of("game-log-line-finish", winner=action.winner.value, end=end)
        return joined(line, " — ", action.comment) if action.comment else line
    if isinstance(action, Extra):
        line = Phrase.of("game-log-line-extra", seat=action.seat, points=action.points)
        return joined(line, " — ", action.comment) if action.comment else line
    assert isinstance(action, Proceed)
    return None


def _where(game: LiveGame) -> Phrase:
    if game.phase is Phase.INTRODUCTION:
        return Phrase.of("game-log-where-introduction")
    if game.phase in _NIGHT:
        return Phrase.of("game-log-where-night", night=game.night)
    if game.phase in (Phase.END_DETECTED, Phase.FINISHED):
        return Phrase.of("game-log-where-end")
    return Phrase.of("game-log-where-day", day=game.day)


def game_log_text(
    entries: tuple[Entry, ...], regulation: Regulation, zone: ZoneInfo
) -> Phrase | Lines:
    """The log, line by line (a game entered afterwards has none: one line says so)."""
    if not entries:
        return Phrase.of("game-log-none")
    shown = [Phrase.of("game-log-title")]
    game = LiveGame()
    for entry in entries:
        try:
            after = apply(game, entry.action, regulation)
        except GameLogRefused:
            # A log stored under an older regulation's settings: shown as far as it replays.
            break
        line = _line(entry, game, after)
        if line is not None:
            moment = entry.at.astimezone(zone).strftime("%H:%M:%S")
            shown.append(joined(moment, _where(game), line, separator=" · "))
        game = after
    return lines(shown)
