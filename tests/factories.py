"""Builders the tests share: a running tournament straight in the database (organizer,
chief judge, table judges, registered players, a channel), for integration and end-to-end
tests alike.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import UTC, datetime

from domain.permissions import StaffRole
from domain.registration import Participant, ParticipantStatus
from domain.services.ports import UnitOfWorkFactory
from domain.teams import Team
from domain.tournament import Tournament, TournamentState
from domain.users import User

NOW = datetime(2026, 12, 20, 12, 0, tzinfo=UTC)
ORGANIZER = 1
CHIEF_JUDGE = 2
# Table judges are 11, 12, ...; players' Telegram ids are 1001, 1002, ...
FIRST_JUDGE = 11
FIRST_PLAYER = 1001
CHANNEL = -100777


@dataclass(frozen=True)
class Seeded:
    tournament: Tournament
    players: tuple[Participant, ...]
    judges: tuple[int, ...]

    def nickname(self, participant_id: int) -> str:
        return next(p.nickname for p in self.players if p.id == participant_id)

    def user_of(self, participant_id: int) -> int:
        user_id = next(p.user_id for p in self.players if p.id == participant_id)
        assert user_id is not None
        return user_id


async def seed_tournament(
    uow_factory: UnitOfWorkFactory,
    *,
    players: int = 20,
    judges: int = 2,
    regulation: str = "black-raven-cup",
    team_size: int = 0,
    channel: int | None = CHANNEL,
) -> Seeded:
    """A tournament in its first stage with registered players, table judges and a chief judge."""
    async with uow_factory() as uow:
        people = [ORGANIZER, CHIEF_JUDGE, *range(FIRST_JUDGE, FIRST_JUDGE + judges)]
        people += list(range(FIRST_PLAYER, FIRST_PLAYER + players))
        for telegram_id in people:
            await uow.users.save(User(telegram_id, f"U{telegram_id}", None, None, "ru"))
        tournament = await uow.tournaments.add(
            Tournament(
                id=0,
                title="Кубок Ворона",
                regulation_id=regulation,
                state=TournamentState.RUNNING,
                timezone="Asia/Omsk",
                created_by=ORGANIZER,
                created_at=NOW,
                channel_id=channel,
                current_stage="qualifying",
            )
        )
        await uow.staff.appoint(tournament.id, CHIEF_JUDGE, StaffRole.CHIEF_JUDGE)
        for judge in range(FIRST_JUDGE, FIRST_JUDGE + judges):
            await uow.staff.appoint(tournament.id, judge, StaffRole.TABLE_JUDGE)
        teams: list[Team] = []
        if team_size:
            for number in range(players // team_size):
                team = Team(0, tournament.id, f"Команда {number + 1}", FIRST_PLAYER)
                teams.append(await uow.teams.add(team))
        added = []
        for number in range(players):
            team_id = teams[number // team_size].id if team_size else None
            added.append(
                await uow.participants.add(
                    Participant(
                        id=0,
                        tournament_id=tournament.id,
                        user_id=FIRST_PLAYER + number,
                        nickname=f"Ник{number + 1:02d}",
                        club="Ворон",
                        city="Омск",
                        status=ParticipantStatus.REGISTERED,
                        registered_at=NOW,
                        team_id=team_id,
                    )
                )
            )
        await uow.commit()
    judge_ids = tuple(range(FIRST_JUDGE, FIRST_JUDGE + judges))
    return Seeded(tournament, tuple(added), judge_ids)


async def long_nicknames(uow_factory: UnitOfWorkFactory, tournament_id: int) -> None:
    """Nicknames of the 32 characters registration allows, as in a real tournament's worst case."""
    async with uow_factory() as uow:
        for player in await uow.participants.of_tournament(tournament_id):
            nickname = f"{player.nickname}-Чёрный-Ворон-из-Омска".ljust(32, "!")
            await uow.participants.save(replace(player, nickname=nickname[:32]))
        await uow.commit()
