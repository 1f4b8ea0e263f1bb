"""Every use case, built once: the composition root makes one `Services` over its unit of
work factory and hands it to the handlers, the web pages and the commands (aiogram injects it
as `services`), so no caller passes the unit of work to a use case."""

from __future__ import annotations

from dataclasses import dataclass

from domain.services.card_updates import CardUpdateService
from domain.services.checkin import CheckinService
from domain.services.exports import ExportService
from domain.services.ports import UnitOfWorkFactory
from domain.services.public import PublicService
from domain.services.registration import RegistrationService
from domain.services.reminders import TimetableService
from domain.services.staff import StaffService
from domain.services.standings import StandingsService
from domain.services.teams import TeamService
from domain.services.tie_decisions import TieDecisionService
from domain.services.tournaments import TournamentService
from domain.services.users import UserService


@dataclass(frozen=True)
class Services:
    """The use cases by topic, each a service object holding the unit of work factory."""

    checkin: CheckinService
    registration: RegistrationService
    staff: StaffService
    teams: TeamService
    users: UserService
    tournaments: TournamentService
    timetables: TimetableService
    exports: ExportService
    public: PublicService
    card_updates: CardUpdateService
    tie_decisions: TieDecisionService
    standings: StandingsService


def build_services(uow: UnitOfWorkFactory) -> Services:
    """The one set of services of a running bot (or of a test) over `uow`."""
    return Services(
        checkin=CheckinService(uow),
        registration=RegistrationService(uow),
        staff=StaffService(uow),
        teams=TeamService(uow),
        users=UserService(uow),
        tournaments=TournamentService(uow),
        timetables=TimetableService(uow),
        exports=ExportService(uow),
        public=PublicService(uow),
        card_updates=CardUpdateService(uow),
        tie_decisions=TieDecisionService(uow),
        standings=StandingsService(uow),
    )
