"""The protests screens' views: the correction's keyboard, the audit log as text, keyboard and
CSV, and the words of the audit's protest switch.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from zoneinfo import ZoneInfo

from aiogram.types import InlineKeyboardMarkup
from aiogram.utils.keyboard import InlineKeyboardBuilder

from domain.intents import ProtestChoice
from domain.layout import lines
from domain.outgoing import Lines, Phrase
from domain.registration import Participant
from domain.services.protests import AuditLog, ProtestTarget
from domain.tournament import Tournament
from handlers.callbacks import (
    AuditAction,
    AuditButton,
    DecisionButton,
    PersonAction,
    PersonButton,
    ProtestButton,
)
from handlers.keyboards import tournament_choice
from handlers.middlewares import Texts

# How many audit entries the screen shows (newest first); the CSV holds them all.
AUDIT_SHOWN = 15


def correct_keyboard(protest_id: int, texts: Texts) -> InlineKeyboardMarkup:
    keyboard = InlineKeyboardBuilder()
    keyboard.button(
        text=texts("protest-correct"),
        callback_data=DecisionButton(protest_id=protest_id, action=ProtestChoice.CORRECT),
    )
    return keyboard.as_markup()


# The organizer's switches of protests: on, off, or as the regulation says.
SWITCHES = {AuditAction.ON: True, AuditAction.OFF: False, AuditAction.REGULATION: None}


def audit_text(log: AuditLog) -> Lines:
    zone = ZoneInfo(log.tournament.timezone)
    shown = [Phrase.of("audit-title", tournament=log.tournament.title)]
    shown.append(Phrase.of("audit-window", minutes=log.minutes or 0))
    entries = sorted(log.entries, key=lambda e: e.at, reverse=True)[:AUDIT_SHOWN]
    if not entries:
        shown.append(Phrase.of("audit-empty"))
    for entry in entries:
        shown.append(
            Phrase.of(
                "audit-entry",
                time=entry.at.astimezone(zone).strftime("%d.%m %H:%M"),
                kind=entry.kind.value,
                who=log.names.get(entry.actor_id, "—") if entry.actor_id else "—",
                text=entry.text,
            )
        )
    for player in log.excluded:
        shown.append(
            Phrase.of("audit-excluded", nickname=player.nickname, reason=player.reason or "")
        )
    return lines(shown)


def audit_keyboard(tournament_id: int, organizer: bool, texts: Texts) -> InlineKeyboardMarkup:
    keyboard = InlineKeyboardBuilder()
    if organizer:
        for action in SWITCHES:
            keyboard.button(
                text=texts("audit-switch", state=action.value),
                callback_data=AuditButton(tournament_id=tournament_id, action=action),
            )
    keyboard.button(
        text=texts("audit-csv"),
        callback_data=AuditButton(tournament_id=tournament_id, action=AuditAction.CSV),
    )
    keyboard.adjust(3 if organizer else 1, 1)
    return keyboard.as_markup()


def audit_csv(log: AuditLog) -> bytes:
    """The whole audit log as CSV (UTC times), exclusions last."""
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(["at", "kind", "actor_id", "actor", "game_id", "protest_id", "text"])
    for entry in log.entries:
        writer.writerow(
            [
                entry.at.isoformat(),
                entry.kind.value,
                entry.actor_id or "",
                log.names.get(entry.actor_id, "") if entry.actor_id else "",
                entry.game_id or "",
                entry.protest_id or "",
                entry.text,
            ]
        )
    for player in log.excluded:
        writer.writerow(
            ["", "player_excluded", "", "", "", "", f"{player.nickname}: {player.reason}"]
        )
    return buffer.getvalue().encode("utf-8-sig")


def targets_keyboard(targets: list[ProtestTarget], texts: Texts) -> InlineKeyboardMarkup:
    """/protest: a button per game whose protest window is open, with when it closes."""
    keyboard = InlineKeyboardBuilder()
    for target in targets:
        keyboard.button(
            text=texts(
                "protest-game-button",
                game=target.game.round_number,
                table=target.game.game.table,
                time=target.closes_at,
            ),
            callback_data=ProtestButton(game_id=target.game.game.id),
        )
    keyboard.adjust(1)
    return keyboard.as_markup()


def players_keyboard(players: Sequence[Participant], texts: Texts) -> InlineKeyboardMarkup:
    """The protested game's players; a press opens the tournament day's exclusion (11.3.3)."""
    keyboard = InlineKeyboardBuilder()
    for seat, player in enumerate(players, start=1):
        keyboard.button(
            text=texts("protest-exclude-player", seat=seat, nickname=player.nickname),
            callback_data=PersonAction(participant_id=player.id, action=PersonButton.EXCLUDE),
        )
    keyboard.adjust(1)
    return keyboard.as_markup()


def tournaments_keyboard(tournaments: Sequence[Tournament]) -> InlineKeyboardMarkup:
    """/audit of a person running several tournaments: a button per tournament."""
    return tournament_choice(
        tournaments,
        lambda tournament: AuditButton(tournament_id=tournament.id, action=AuditAction.VIEW),
    )
