"""Every use case, built once: the composition root makes one `Services` over its unit of
work factory and hands it to the handlers, the web pages and the commands (aiogram injects it
as `services`), so no caller passes the unit of work to a use case."""

from __future__ import annotations

from dataclasses import dataclass

from domain.services.checkin import CheckinService
from domain.services.ports import UnitOfWorkFactory
from domain.services.season.clubs import ClubService
from domain.services.season.history import SeriesHistoryService
from domain.services.season.merging import MergeService
from domain.services.season.profiles import ProfileService
from domain.services.season.series import SeriesService
from domain.services.season_screens import SeasonScreenService


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


def build_services(uow: UnitOfWorkFactory) -> Services:
    """The one set of services of a running bot (or of a test) over `uow`."""
    series = SeriesService(uow)
    return Services(
        checkin=CheckinService(uow),
        clubs=ClubService(uow),
        merging=MergeService(uow),
        profiles=ProfileService(uow),
        season_screens=SeasonScreenService(uow),
        series=series,
        series_history=SeriesHistoryService(uow, series),
    )
