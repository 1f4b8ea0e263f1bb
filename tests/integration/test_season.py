"""The season on both databases: persons linked on registration, ratings kept current by
confirmations, corrections, rated on/off and merges (always equal to a recompute from
scratch), a series' tables, profiles, hidden profiles, points tables, clubs."""

from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path

import pytest

from bot.db.repositories.ratings import SqlRatingRepository
from bot.db.uow import SqlUnitOfWorkFactory
from domain.actor import Actor
from domain.lifecycle import Move
from domain.permissions import Forbidden
from domain.protocol_screen import Act, Mode, Press
from domain.season.rating import RatedGame, compute_ratings
from domain.services.catalog import Services, build_services
from domain.services.rating_sync import after_game as rating_after_game
from domain.services.rating_sync import ordered_games
from domain.tournament import Tournament, TournamentState
from domain.validation import Invalid
from tests.factories import CHIEF_JUDGE, FIRST_PLAYER, NOW, ORGANIZER, seed_tournament
from tests.integration.test_protocols import Judge, _published_game, mode
from tests.integration.test_rounds import seated

CUP_FILE = Path(__file__).parents[1] / "data" / "black-raven-cup.tournament.json"
ADMIN = Actor(ORGANIZER, NOW, is_admin=True)


async def _from_scratch(uow_factory: SqlUnitOfWorkFactory) -> dict[int, object]:
    """The ratings a recompute from scratch gives, computed here from the stored games."""
    async with uow_factory() as uow:
        ordered = await ordered_games(uow)
        seats = await uow.ratings.game_seats([place.game_id for _, place in ordered])
    games = [
        RatedGame(key, p.game_id, p.tournament_id, seats[p.game_id][0], seats[p.game_id][1])
        for key, p in ordered
    ]
    return dict(compute_ratings(games).ratings)


async def _stored(uow_factory: SqlUnitOfWorkFactory) -> dict[int, object]:
    async with uow_factory() as uow:
        return dict(await uow.ratings.all_ratings())


async def _imported(uow_factory: SqlUnitOfWorkFactory, title: str) -> int:
    services = build_services(uow_factory)
    await services.users.remember_user(
        telegram_id=ORGANIZER,
        first_name="Org",
        last_name=None,
        username=None,
        default_locale="ru",
    )
    text = CUP_FILE.read_text(encoding="utf-8")
    return (await services.exports.import_tournament(Actor(ORGANIZER, NOW), text, title)).id


async def test_registration_links_every_participant_to_his_person(
    uow_factory: SqlUnitOfWorkFactory,
    services: Services,
) -> None:
    seeded, _, _ = await _published_game(uow_factory, services)
    player = seeded.players[0]
    assert player.person_id is not None
    person = await services.profiles.my_person(Actor(FIRST_PLAYER, NOW))
    assert person == player.person_id
    async with uow_factory() as uow:
        stored = await uow.season.person(person)
    assert stored is not None and stored.telegram_id == FIRST_PLAYER
    assert stored.nickname == player.nickname and stored.club == "Ворон"
    found = await services.profiles.find_players("ник0")
    assert len(found) == 9 and all(club == "Ворон" for _, _, club in found)
    # A second account merged into him: its later registrations are his.
    async with uow_factory() as uow:
        other = await uow.season.person_for_account(5555, "Второй", None, None, NOW)
        await uow.commit()
    await services.merging.merge_persons(ADMIN, person, other)
    async with uow_factory() as uow:
        again = await uow.season.person_for_account(5555, "Ник01", "Ворон", "Омск", NOW)
        mine = await uow.season.person_of_account(FIRST_PLAYER)
    assert again == person and mine is not None and mine.id == person
    assert await services.profiles.my_person(Actor(5555, NOW)) == person


async def test_a_confirmation_a_correction_and_rated_off_keep_ratings_as_from_scratch(
    uow_factory: SqlUnitOfWorkFactory,
    services: Services,
) -> None:
    seeded, game_id, judge_id = await _published_game(uow_factory, services)
    tid = seeded.tournament.id
    await services.series.mark_rated(Actor(ORGANIZER, NOW), tid, True)
    judge = Judge(services, game_id, judge_id)
    await judge.fill_red_win()
    confirmed = await judge.confirm()
    ratings = await _stored(uow_factory)
    assert len(ratings) == 10
    assert math.isclose(sum(r.overall - 1000 for r in ratings.values()), 0.0, abs_tol=1e-9)
    assert ratings == await _from_scratch(uow_factory)
    seat_one = confirmed.game.game.players[0]
    red = next(p.person_id for p in seeded.players if p.id == seat_one)
    assert red is not None and ratings[red].overall > 1000
    chief = Judge(services, game_id, CHIEF_JUDGE)
    await services.protocols.start_correction(Actor(CHIEF_JUDGE, NOW), game_id)
    chief.view = await chief.open()
    await chief.press(mode(Mode.WINNER))
    await chief.press(Press(Act.WINNER, value=1))
    await chief.confirm()
    corrected = await _stored(uow_factory)
    assert corrected[red].overall < 1000
    assert corrected == await _from_scratch(uow_factory)
    rating, stars = await services.profiles.person_rating(red)
    assert rating == corrected[red] and stars == 1
    assert await services.series.recompute_ratings() == 1
    assert await _stored(uow_factory) == corrected
    await services.series.mark_rated(Actor(ORGANIZER, NOW), tid, False)
    assert await _stored(uow_factory) == {}
    assert await services.profiles.person_rating(red) == (None, None)


async def test_tournaments_rated_in_any_order_give_the_ratings_of_their_date_order(
    uow_factory: SqlUnitOfWorkFactory,
    services: Services,
) -> None:
    first, second = await _imported(uow_factory, "Осень"), await _imported(uow_factory, "Зима")
    owner = Actor(ORGANIZER, NOW)
    await services.series.mark_rated(owner, second, True)
    await services.series.mark_rated(owner, first, True)
    assert await _stored(uow_factory) == await _from_scratch(uow_factory)
    async with uow_factory() as uow:
        events = await uow.ratings.event_games()
        ordered = await ordered_games(uow)
    assert events == [place.game_id for _, place in ordered]
    assert ordered[0][1].tournament_id == first
    # A person of the first tournament merged into one of the second is refused if both
    # played in one tournament, and recomputed otherwise.
    async with uow_factory() as uow:
        a = next(p for p in await uow.participants.of_tournament(first) if p.nickname == "Ворон")
        b = next(p for p in await uow.participants.of_tournament(second) if p.nickname == "Ворон")
        c = next(p for p in await uow.participants.of_tournament(second) if p.nickname == "Сова")
    assert a.person_id and b.person_id and c.person_id
    preview = await services.merging.merge_preview(ADMIN, b.person_id, c.person_id)
    assert preview.overlap == ("Зима",) and not preview.allowed
    with pytest.raises(Invalid) as refused:
        await services.merging.merge_persons(ADMIN, b.person_id, c.person_id)
    assert refused.value.code == "season-merge-overlap"
    with pytest.raises(Invalid):
        await services.merging.merge_persons(ADMIN, b.person_id, b.person_id)
    await services.merging.merge_persons(ADMIN, b.person_id, a.person_id)
    merged = await _stored(uow_factory)
    assert a.person_id not in merged and merged == await _from_scratch(uow_factory)
    kept = await services.profiles.profile(a.person_id)
    assert kept.person_id == b.person_id and len(kept.tournaments) == 2
    assert kept.games == sum(line.games for line in kept.tournaments) > 0
    assert sum(role.games for role in kept.roles) == kept.games
    assert len(kept.history) == kept.games and kept.rank is not None
    async with uow_factory() as uow:
        audit = await uow.season.audit(b.person_id)
    assert [kind for _, kind, _ in audit] == ["merge"]


async def test_a_series_shows_its_calendar_players_and_clubs(
    uow_factory: SqlUnitOfWorkFactory,
    services: Services,
) -> None:
    seeded, game_id, judge_id = await _published_game(uow_factory, services)
    tid = seeded.tournament.id
    series_id = await services.series.create_series(ADMIN, "Сезон 2026")
    assert await services.series.series_list() == [(series_id, "Сезон 2026")]
    await services.series.attach_tournament(Actor(ORGANIZER, NOW), tid, series_id)
    await services.series.mark_rated(Actor(ORGANIZER, NOW), tid, True)
    judge = Judge(services, game_id, judge_id)
    await judge.fill_red_win()
    confirmed = await judge.confirm()
    view = await services.series.series_view(series_id)
    assert [event.tournament_id for event in view.running] == [tid]
    assert len(view.players) == 10 and [row.place for row in view.players] == list(range(1, 11))
    assert view.players[0].rating > view.players[-1].rating
    assert [(club.club, club.members) for club in view.clubs] == [("Ворон", 10)]
    # A hidden profile shows only its nickname, to everyone but its owner.
    owner = Actor(seeded.user_of(confirmed.game.game.players[0]), NOW)
    await services.profiles.hide_profile(owner, True)
    person = await services.profiles.my_person(owner)
    assert person is not None
    hidden = await services.profiles.profile(person)
    assert hidden.hidden and hidden.rating is None and hidden.tournaments == ()
    own = await services.profiles.profile(person, viewer=owner)
    assert own.rating is not None and own.games == 1
    row = next(
        r for r in (await services.series.series_view(series_id)).players if r.person_id == person
    )
    assert row.hidden and row.club is None and row.rating == 0.0
    club = await services.clubs.club_profile("ворон")
    assert club.club == "Ворон" and len(club.members) == 20


async def test_points_tables_and_clubs_refuse_bad_input_and_change_nothing(
    uow_factory: SqlUnitOfWorkFactory,
    services: Services,
) -> None:
    await _imported(uow_factory, "Осень")
    series_id = await services.series.create_series(ADMIN, "Лига")
    with pytest.raises(Invalid) as refused:
        await services.series.set_points_table(ADMIN, series_id, '{"format": 1}')
    assert refused.value.code == "season-points-table-invalid"
    with pytest.raises(Invalid):
        await services.series.set_points_table(ADMIN, series_id, " " * 200_000)
    with pytest.raises(Forbidden):
        await services.series.set_points_table(Actor(5, NOW), series_id, "{}")
    async with uow_factory() as uow:
        stored = await uow.season.series(series_id)
    assert stored is not None and stored.points_table is None
    text = (Path(__file__).parents[2] / "domain/presets/series_points/fiim.json").read_text()
    await services.series.set_points_table(ADMIN, series_id, text)
    async with uow_factory() as uow:
        stored = await uow.season.series(series_id)
    assert stored is not None and stored.points_table is not None
    await services.clubs.join_clubs(ADMIN, "Чёрный ворон", "black raven")
    with pytest.raises(Invalid):
        await services.clubs.join_clubs(ADMIN, "Чёрный ворон", "ЧЕРНЫЙ ВОРОН")
    async with uow_factory() as uow:
        assert (await uow.season.aliases())["black raven"] == "Чёрный ворон"


async def test_a_recompute_cut_short_changes_nothing_and_runs_again(
    uow_factory: SqlUnitOfWorkFactory, monkeypatch: pytest.MonkeyPatch, services: Services
) -> None:
    tournament = await _imported(uow_factory, "Осень")
    await services.series.mark_rated(Actor(ORGANIZER, NOW), tournament, True)
    before = await _stored(uow_factory)
    async with uow_factory() as uow:
        events = await uow.ratings.event_games()
    original = SqlRatingRepository.add_events

    async def cut_short(self: SqlRatingRepository, events: object) -> None:
        raise ConnectionResetError("the process stopped")

    monkeypatch.setattr(SqlRatingRepository, "add_events", cut_short)
    with pytest.raises(ConnectionResetError):
        await services.series.recompute_ratings()
    assert await _stored(uow_factory) == before
    async with uow_factory() as uow:
        assert await uow.ratings.event_games() == events
    monkeypatch.setattr(SqlRatingRepository, "add_events", original)
    assert await services.series.recompute_ratings() == 27
    assert await _stored(uow_factory) == before


async def test_an_annulled_game_leaves_the_ratings(
    uow_factory: SqlUnitOfWorkFactory, services: Services
) -> None:
    # What `annul_game` does after the protest's decision, in its own transaction.
    seeded, game_id, judge_id = await _published_game(uow_factory, services)
    tid = seeded.tournament.id
    await services.series.mark_rated(Actor(ORGANIZER, NOW), tid, True)
    judge = Judge(services, game_id, judge_id)
    await judge.fill_red_win()
    await judge.confirm()
    assert len(await _stored(uow_factory)) == 10
    async with uow_factory() as uow:
        await uow.protocols.lock_standings(tid)
        assert await uow.annulments.annul(tid, game_id, CHIEF_JUDGE, NOW)
        await rating_after_game(uow, tid, game_id)
        await uow.commit()
    assert await _stored(uow_factory) == {} == await _from_scratch(uow_factory)


async def test_closing_the_registration_sets_the_tournament_s_category(
    uow_factory: SqlUnitOfWorkFactory,
    services: Services,
) -> None:
    seeded, _, _ = await _published_game(uow_factory, services)
    async with uow_factory() as uow:
        await uow.tournaments.save(
            replace(seeded.tournament, state=TournamentState.REGISTRATION_OPEN, current_stage=None)
        )
        await uow.commit()
    tid = seeded.tournament.id
    assert await services.series.tournament_category(tid) is None
    moved = await services.tournaments.move_tournament(ADMIN, tid, Move.CLOSE_REGISTRATION)
    assert isinstance(moved, Tournament)
    assert await services.series.tournament_category(tid) == 1
    async with uow_factory() as uow:
        season = await uow.season.tournament(tid)
    assert season is not None and season.category_rating == 1000.0


async def test_a_game_confirmed_after_a_later_one_takes_its_place_in_the_order(
    uow_factory: SqlUnitOfWorkFactory,
    services: Services,
) -> None:
    seeded = await seed_tournament(uow_factory)
    preview = await seated(services, seeded)
    tid = seeded.tournament.id
    await services.rounds_publication.publish_round(Actor(ORGANIZER, NOW), tid, 1)
    await services.series.mark_rated(Actor(ORGANIZER, NOW), tid, True)
    first, second = preview.stage.rounds[0].games[:2]
    assert first.judge_id is not None and second.judge_id is not None
    later = Judge(services, second.id, second.judge_id)
    await later.fill_red_win()
    await later.confirm()
    earlier = Judge(services, first.id, first.judge_id)
    await earlier.fill_red_win()
    await earlier.confirm()
    async with uow_factory() as uow:
        assert await uow.ratings.event_games() == [first.id, second.id]
    assert len(await _stored(uow_factory)) == 20
    assert await _stored(uow_factory) == await _from_scratch(uow_factory)
