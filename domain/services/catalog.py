"""Every use case, built once: the composition root makes one `Services` over its unit of
work factory and hands it to the handlers, the web pages and the commands (aiogram injects it
as `services`), so no caller passes the unit of work to a use case."""

from __future__ import annotations

from dataclasses import dataclass

from domain.services.card_updates import CardUpdateService
from domain.services.checkin import CheckinService
from domain.services.exports import ExportService
from domain.services.live_games import LiveGameService
from domain.services.live_tables import LiveTableService
from domain.services.ports import UnitOfWorkFactory
from domain.services.protests.deciding import ProtestDecidingService
from domain.services.protests.filing import ProtestFilingService
from domain.services.protests.organizer import ProtestOrganizerService
from domain.services.protocols import ProtocolService
from domain.services.public import PublicService
from domain.services.registration import RegistrationService
from domain.services.reminders import TimetableService
from domain.services.rounds.edits import SeatEditService
from domain.services.rounds.judges import JudgeAssignmentService
from domain.services.rounds.preview import StagePreviewService
from domain.services.rounds.publication import RoundPublicationService
from domain.services.rounds.schedules import ScheduleService
from domain.services.rounds.seating import SeatingService
from domain.services.season.clubs import ClubService
from domain.services.season.history import SeriesHistoryService
from domain.services.season.merging import MergeService
from domain.services.season.profiles import ProfileService
from domain.services.season.series import SeriesService
from domain.services.season_screens import SeasonScreenService
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
    clubs: ClubService
    merging: MergeService
    profiles: ProfileService
    season_screens: SeasonScreenService
    series: SeriesService
    series_history: SeriesHistoryService
    protocols: ProtocolService
    live_games: LiveGameService
    live_tables: LiveTableService
    protests_filing: ProtestFilingService
    protests_deciding: ProtestDecidingService
    protests_organizer: ProtestOrganizerService
    rounds_preview: StagePreviewService
    rounds_seating: SeatingService
    rounds_edits: SeatEditService
    rounds_judges: JudgeAssignmentService
    rounds_publication: RoundPublicationService
    rounds_schedules: ScheduleService
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
    series = SeriesService(uow)
    protocols = ProtocolService(uow)
    return Services(
        checkin=CheckinService(uow),
        clubs=ClubService(uow),
        merging=MergeService(uow),
        profiles=ProfileService(uow),
        season_screens=SeasonScreenService(uow),
        series=series,
        series_history=SeriesHistoryService(uow, series),
        protocols=protocols,
        live_games=LiveGameService(uow, protocols),
        live_tables=LiveTableService(uow),
        protests_filing=ProtestFilingService(uow),
        protests_deciding=ProtestDecidingService(uow),
        protests_organizer=ProtestOrganizerService(uow),
        rounds_preview=StagePreviewService(uow),
        rounds_seating=SeatingService(uow),
        rounds_edits=SeatEditService(uow),
        rounds_judges=JudgeAssignmentService(uow),
        rounds_publication=RoundPublicationService(uow),
        rounds_schedules=ScheduleService(uow),
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
