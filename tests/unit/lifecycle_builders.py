"""Builders for the lifecycle tests: small tournaments, participants and teams."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from typing import Any

from domain.registration import Participant, ParticipantStatus
from domain.teams import Team
from domain.tournament import Tournament, TournamentState

T0 = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


def tournament(**changes: Any) -> Tournament:
    values: dict[str, Any] = {
        "id": 1,
        "title": "Кубок",
        "regulation_id": "black-raven-cup",
        "state": TournamentState.REGISTRATION_OPEN,
        "timezone": "Europe/Moscow",
        "created_by": 100,
        "created_at": T0,
        "venue": "Клуб",
        "starts_on": date(2026, 12, 20),
        "capacity": 20,
    }
    values.update(changes)
    return Tournament(**values)


def player(
    number: int,
    status: ParticipantStatus = ParticipantStatus.REGISTERED,
    **changes: Any,
) -> Participant:
    values: dict[str, Any] = {
        "id": number,
        "tournament_id": 1,
        "user_id": 1000 + number,
        "nickname": f"Игрок {number}",
        "club": "Ворон",
        "city": "Омск",
        "status": status,
        "registered_at": T0 + timedelta(minutes=number),
    }
    values.update(changes)
    return Participant(**values)


def team(number: int, captain: int, **changes: Any) -> Team:
    values: dict[str, Any] = {"name": f"Команда {number}"}
    values.update(changes)
    return Team(number, 1, captain_id=captain, **values)
