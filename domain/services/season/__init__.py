"""The season's use cases (#28), one module a job: `profiles` (a person's profile, finding a
person, hiding one's profile, a person's rating), `merging` (two accounts of one person),
`series` (series, attaching and rating tournaments, points tables, the series' view),
`clubs` (a club's page, joining spellings), `history` (files imported into a series,
the series exported), `places` (a tournament's places, kept per
standings version). Keeping the ratings current is `domain/services/rating_sync.py`, which
the protocol, annulment and import use cases call in their own transactions."""

from domain.services.season.clubs import club_profile, join_clubs
from domain.services.season.history import import_into_series, series_csv, series_export
from domain.services.season.merging import merge_persons, merge_preview
from domain.services.season.profiles import (
    find_players,
    hide_profile,
    my_person,
    person_rating,
    profile,
)
from domain.services.season.series import (
    attach_tournament,
    create_series,
    mark_rated,
    recompute_ratings,
    series_list,
    series_view,
    set_points_table,
    tournament_category,
)

__all__ = [
    "attach_tournament",
    "club_profile",
    "create_series",
    "find_players",
    "hide_profile",
    "import_into_series",
    "join_clubs",
    "mark_rated",
    "merge_persons",
    "merge_preview",
    "my_person",
    "person_rating",
    "profile",
    "recompute_ratings",
    "series_csv",
    "series_export",
    "series_list",
    "series_view",
    "set_points_table",
    "tournament_category",
]
