"""The organizer's side of protests: the tournament's window (the regulation's, or his
switch), the switch itself, and the tournament's audit log."""

from __future__ import annotations

from dataclasses import dataclass

from domain.actor import Actor
from domain.permissions import Action
from domain.protests import AuditEntry, AuditKind, window_minutes
from domain.registration import Participant, ParticipantStatus
from domain.services.access import authorize
from domain.services.ports import UnitOfWork, UnitOfWorkFactory
from domain.services.protests.summary import judge_name
from domain.tournament import Tournament


async def window_of(uow: UnitOfWork, tournament: Tournament) -> int | None:
    """The tournament's protest window in minutes (the regulation's, or the organizer's
    switch); None when protests are off."""
    switch = await uow.protests.switch(tournament.id)
    return window_minutes(tournament.regulation.protest_window_minutes, switch)


@dataclass(frozen=True)
class ProtestSettings:
    """A tournament's protest window: the regulation's, the switch, what applies."""

    tournament: Tournament
    regulation_minutes: int | None
    switch: bool | None
    minutes: int | None


class ProtestOrganizerService:
    """The organizer's protest window switch and the tournament's audit log."""

    def __init__(self, uow: UnitOfWorkFactory) -> None:
        self._uow = uow

    async def protest_settings(
        self,
        actor: Actor,
        tournament_id: int,
    ) -> ProtestSettings:
        """What protests the tournament takes, for its organizer."""
        async with self._uow() as uow:
            tournament = await authorize(uow, actor, tournament_id, Action.EDIT_SETTINGS)
            return await _settings(uow, tournament)

    async def switch_protests(
        self,
        actor: Actor,
        tournament_id: int,
        enabled: bool | None,
    ) -> ProtestSettings:
        """The organizer switches protests on or off for the games confirmed from now on (None:
        back to the regulation's window); windows already open stay as they are."""
        async with self._uow() as uow:
            tournament = await authorize(uow, actor, tournament_id, Action.EDIT_SETTINGS)
            await uow.protests.set_switch(tournament.id, enabled)
            settings = await _settings(uow, tournament)
            state = "regulation" if enabled is None else ("on" if enabled else "off")
            await uow.protests.log(
                AuditEntry(
                    tournament.id,
                    actor.now,
                    actor.user_id,
                    AuditKind.PROTESTS_SWITCHED,
                    f"{state}: {settings.minutes if settings.minutes is not None else '—'}",
                )
            )
            await uow.commit()
            return settings

    async def audit_log(
        self,
        actor: Actor,
        tournament_id: int,
    ) -> AuditLog:
        """The tournament's audit log, for its organizer (and its chief judge)."""
        async with self._uow() as uow:
            tournament = await authorize(uow, actor, tournament_id, Action.EXPORT)
            entries = await uow.protests.audit(tournament.id)
            excluded = tuple(
                p
                for p in await uow.participants.of_tournament(tournament.id)
                if p.status is ParticipantStatus.EXCLUDED
            )
            names = {}
            for person in {e.actor_id for e in entries if e.actor_id is not None}:
                names[person] = await judge_name(uow, person)
            minutes = await window_of(uow, tournament)
            return AuditLog(tournament, tuple(entries), excluded, minutes, names)

    async def audited_tournaments(self, person: int) -> list[Tournament]:
        """The tournaments the person organizes or judges, whose audit log /audit offers."""
        async with self._uow() as uow:
            return await uow.tournaments.of_person(person)


async def _settings(uow: UnitOfWork, tournament: Tournament) -> ProtestSettings:
    switch = await uow.protests.switch(tournament.id)
    regulation = tournament.regulation.protest_window_minutes
    return ProtestSettings(tournament, regulation, switch, window_minutes(regulation, switch))


@dataclass(frozen=True)
class AuditLog:
    """A tournament's audit log, with the players the judges excluded and why."""

    tournament: Tournament
    entries: tuple[AuditEntry, ...]
    excluded: tuple[Participant, ...]
    # The protest window of games confirmed from now on; None when protests are off.
    minutes: int | None
    # Everyone named in the log by Telegram id: their display names.
    names: dict[int, str]
