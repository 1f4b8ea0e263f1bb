"""The lifecycle use cases on both databases: create, register, wait, teams, staff, the day."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest

from bot.db.uow import SqlUnitOfWorkFactory
from domain.actor import Actor
from domain.invites import InviteKind
from domain.lifecycle import Move, Refusal
from domain.permissions import Forbidden, StaffRole
from domain.registration import Application, ParticipantStatus
from domain.services.catalog import Services, build_services
from domain.tournament import Tournament, TournamentState
from domain.users import User
from domain.validation import Invalid

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
ADMIN = 1
ADMINS = frozenset({ADMIN})


async def _people(uow_factory: SqlUnitOfWorkFactory, *ids: int) -> None:
    async with uow_factory() as uow:
        for telegram_id in ids:
            await uow.users.save(User(telegram_id, f"P{telegram_id}", None, None, "ru"))
        await uow.commit()


async def _open_tournament(
    uow_factory: SqlUnitOfWorkFactory, regulation: str = "black-raven-cup", **settings: object
) -> Tournament:
    services = build_services(uow_factory)
    await _people(uow_factory, ADMIN)
    values: dict[str, object] = {
        "id": 0,
        "title": "Кубок",
        "regulation_id": regulation,
        "state": TournamentState.DRAFT,
        "timezone": "Asia/Omsk",
        "created_by": ADMIN,
        "created_at": NOW,
        "venue": "Клуб",
        "starts_on": date(2026, 12, 20),
        "capacity": 10,
    }
    values.update(settings)
    created = await services.tournaments.create_tournament(
        Actor.of(ADMIN, NOW, ADMINS), Tournament(**values)
    )
    opened = await services.tournaments.move_tournament(
        Actor.of(ADMIN, NOW, ADMINS), created.id, Move.OPEN_REGISTRATION
    )
    assert isinstance(opened, Tournament)
    return opened


def _form(number: int, club: str = "Ворон") -> Application:
    return Application(f"Игрок {number}", club, "Омск")


async def _register(
    uow_factory: SqlUnitOfWorkFactory,
    tournament: Tournament,
    number: int,
    **kwargs: object,
):  # type: ignore[no-untyped-def]
    services = build_services(uow_factory)
    await _people(uow_factory, 1000 + number)
    mine = await services.registration.register(
        Actor.of(1000 + number, NOW, ADMINS), tournament.id, _form(number, **kwargs)
    )
    return mine.participant


async def test_the_eleventh_player_waits_and_moves_up_when_a_place_frees(
    uow_factory: SqlUnitOfWorkFactory,
    services: Services,
) -> None:
    tournament = await _open_tournament(uow_factory)
    for number in range(10):
        assert (
            await _register(uow_factory, tournament, number)
        ).status is ParticipantStatus.REGISTERED
    late = await _register(uow_factory, tournament, 10)
    assert late.status is ParticipantStatus.WAITING
    notices = await services.registration.withdraw(Actor(1003, NOW), tournament.id)
    assert [(n.chat_id, n.phrase.key if n.phrase else None) for n in notices] == [
        (1010, "notice-promoted")
    ]
    mine = await services.registration.registration_of(Actor(1010, NOW), tournament.id)
    assert mine.participant is not None and mine.participant.status is ParticipantStatus.REGISTERED


async def test_a_taken_nickname_a_full_quota_and_a_second_registration_change_nothing(
    uow_factory: SqlUnitOfWorkFactory,
    services: Services,
) -> None:
    tournament = await _open_tournament(uow_factory, club_quota=1)
    await _register(uow_factory, tournament, 1)
    await _people(uow_factory, 2001, 2002)
    with pytest.raises(Invalid, match="nickname-taken"):
        await services.registration.register(
            Actor.of(2001, NOW, ADMINS),
            tournament.id,
            Application("игрок 1", "Сова", "Омск"),
        )
    with pytest.raises(Invalid, match="club-quota-full"):
        await services.registration.register(
            Actor.of(2002, NOW, ADMINS),
            tournament.id,
            Application("Новый", "ворон", "Омск"),
        )
    with pytest.raises(Invalid, match="already-registered"):
        await services.registration.register(
            Actor.of(1001, NOW, ADMINS),
            tournament.id,
            Application("Другой", "Сова", "Омск"),
        )
    people = (
        await services.registration.roster(Actor.of(ADMIN, NOW, ADMINS), tournament.id)
    ).participants
    assert [p.nickname for p in people] == ["Игрок 1"]


async def test_registration_closes_by_itself_at_the_deadline(
    uow_factory: SqlUnitOfWorkFactory,
    services: Services,
) -> None:
    tournament = await _open_tournament(uow_factory, registration_deadline=NOW + timedelta(hours=1))
    await _people(uow_factory, 1001)
    later = NOW + timedelta(hours=1)
    with pytest.raises(Invalid, match="registration-deadline-passed"):
        await services.registration.register(Actor.of(1001, later, ADMINS), tournament.id, _form(1))
    mine = await services.registration.registration_of(Actor(1001, later), tournament.id)
    assert mine.tournament.state is TournamentState.REGISTRATION_CLOSED


async def test_a_stranger_cannot_mark_fees_or_move_the_tournament(
    uow_factory: SqlUnitOfWorkFactory,
    services: Services,
) -> None:
    tournament = await _open_tournament(uow_factory)
    player = await _register(uow_factory, tournament, 1)
    with pytest.raises(Forbidden):
        await services.registration.mark_paid(Actor.of(1001, NOW, ADMINS), player.id, True)
    with pytest.raises(Forbidden):
        await services.tournaments.move_tournament(
            Actor.of(1001, NOW, ADMINS), tournament.id, Move.CLOSE_REGISTRATION
        )
    paid = await services.registration.mark_paid(Actor.of(ADMIN, NOW, ADMINS), player.id, True)
    assert paid.paid


async def test_judges_join_by_one_time_links_and_get_their_powers(
    uow_factory: SqlUnitOfWorkFactory,
    services: Services,
) -> None:
    tournament = await _open_tournament(uow_factory)
    player = await _register(uow_factory, tournament, 1)
    await _people(uow_factory, 501, 502)
    chief = await services.staff.invite_judge(
        Actor.of(ADMIN, NOW, ADMINS), tournament.id, StaffRole.CHIEF_JUDGE
    )
    assert chief.kind is InviteKind.CHIEF_JUDGE
    await services.staff.accept_staff_invite(Actor(501, NOW), chief.token)
    with pytest.raises(LookupError):
        await services.staff.accept_staff_invite(Actor(502, NOW), chief.token)
    excluded, notices = await services.checkin.exclude(
        Actor.of(501, NOW, ADMINS), player.id, "неэтичное поведение"
    )
    assert excluded.status is ParticipantStatus.EXCLUDED
    assert notices[0].chat_id == 1001
    with pytest.raises(Forbidden):
        await services.checkin.exclude(
            Actor.of(ADMIN, NOW, ADMINS), player.id, "организатор не может"
        )


async def test_a_no_show_is_replaced_by_a_waiting_player_who_plays_for_his_team(
    uow_factory: SqlUnitOfWorkFactory,
    services: Services,
) -> None:
    # siberia-ural-teams seats its qualifying at 6 tables: 20 teams of 3.
    tournament = await _open_tournament(uow_factory, "siberia-ural-teams", capacity=60)
    for number in range(60):
        await _register(uow_factory, tournament, number)
    for captain in range(0, 60, 3):
        view = await services.teams.create_team(
            Actor(1000 + captain, NOW), tournament.id, f"T{captain}"
        )
        for member in (captain + 1, captain + 2):
            await services.teams.join_team(Actor(1000 + member, NOW), view.team.id)
    spare = await _register(uow_factory, tournament, 60)
    assert spare.status is ParticipantStatus.WAITING
    await services.tournaments.move_tournament(
        Actor.of(ADMIN, NOW, ADMINS), tournament.id, Move.CLOSE_REGISTRATION
    )
    await services.checkin.check_in(Actor(1000, NOW), tournament.id)
    people = (
        await services.registration.roster(Actor.of(ADMIN, NOW, ADMINS), tournament.id)
    ).participants
    missing = next(p for p in people if p.user_id == 1004)
    with pytest.raises(Invalid):
        await services.checkin.mark_no_show(Actor.of(ADMIN, NOW, ADMINS), people[0].id)
    # A player still registered is not replaced: he is marked a no-show first.
    with pytest.raises(Invalid, match="substitute-not-replaceable"):
        await services.checkin.substitute(
            Actor.of(ADMIN, NOW, ADMINS), missing.id, waiting_id=spare.id
        )
    await services.checkin.mark_no_show(Actor.of(ADMIN, NOW, ADMINS), missing.id)
    started = await services.tournaments.move_tournament(
        Actor.of(ADMIN, NOW, ADMINS), tournament.id, Move.START_STAGE
    )
    assert isinstance(started, Refusal) and started.code == "move-incomplete-teams"
    substitute, notices = await services.checkin.substitute(
        Actor.of(ADMIN, NOW, ADMINS), missing.id, waiting_id=spare.id
    )
    assert substitute.team_id == missing.team_id and substitute.substitute_for == missing.id
    assert notices[0].phrase is not None and notices[0].phrase.key == "notice-substitute"
    # The captain (1003) hears of the substitute joining: his team is complete again.
    told = [n.phrase.key for n in notices if n.chat_id == 1003 and n.phrase is not None]
    assert told == ["notice-team-complete"]
    started = await services.tournaments.move_tournament(
        Actor.of(ADMIN, NOW, ADMINS), tournament.id, Move.START_STAGE
    )
    assert isinstance(started, Tournament) and started.current_stage == "qualifying"
    with pytest.raises(Invalid, match="team-withdraw-after-start"):
        await services.teams.withdraw_team(Actor(1003, NOW), substitute.team_id)
    # An excluded member leaves the team: its captain is told, with how many still play.
    await _people(uow_factory, 501)
    chief = await services.staff.invite_judge(
        Actor.of(ADMIN, NOW, ADMINS), tournament.id, StaffRole.CHIEF_JUDGE
    )
    await services.staff.accept_staff_invite(Actor(501, NOW), chief.token)
    member = next(p for p in people if p.user_id == 1007)
    _, notices = await services.checkin.exclude(Actor.of(501, NOW, ADMINS), member.id, "подсказки")
    told = [n.phrase for n in notices if n.chat_id == 1006 and n.phrase is not None]
    assert [(p.key, p.arguments["count"]) for p in told] == [("notice-team-member-excluded", 2)]


async def test_a_player_edits_his_details_but_not_into_a_taken_nickname(
    uow_factory: SqlUnitOfWorkFactory,
    services: Services,
) -> None:
    tournament = await _open_tournament(uow_factory)
    await _register(uow_factory, tournament, 1)
    await _register(uow_factory, tournament, 2)
    with pytest.raises(Invalid, match="nickname-taken"):
        await services.registration.edit_registration(
            Actor(1002, NOW), tournament.id, Application("ИГРОК 1", "Сова", "Томск")
        )
    edited = await services.registration.edit_registration(
        Actor(1002, NOW), tournament.id, Application("Дон", "Сова", "Томск")
    )
    assert (edited.nickname, edited.club, edited.city) == ("Дон", "Сова", "Томск")


async def test_the_captain_removes_a_member_and_his_withdrawal_takes_the_team_out(
    uow_factory: SqlUnitOfWorkFactory,
    services: Services,
) -> None:
    tournament = await _open_tournament(uow_factory, "siberia-ural-teams", capacity=3)
    for number in range(4):
        await _register(uow_factory, tournament, number)
    view = await services.teams.create_team(Actor(1000, NOW), tournament.id, "Сибирь")
    with pytest.raises(Invalid, match="team-name-taken"):
        await services.teams.create_team(Actor(1001, NOW), tournament.id, "СИБИРЬ")
    joined, told = await services.teams.join_team(Actor(1001, NOW), view.team.id)
    assert [m.user_id for m in joined.members] == [1000, 1001]
    assert told[0].chat_id == 1000
    member = joined.members[1]
    after, told = await services.teams.remove_member(Actor(1000, NOW), view.team.id, member.id)
    assert [m.user_id for m in after.members] == [1000] and told[0].chat_id == 1001
    with pytest.raises(Forbidden):
        await services.teams.remove_member(Actor(1001, NOW), view.team.id, after.members[0].id)
    notices = await services.registration.withdraw(Actor(1000, NOW), tournament.id)
    assert [n.chat_id for n in notices] == [1003]
    people = (await services.registration.roster(Actor.of(ADMIN, NOW, ADMINS), tournament.id)).teams
    assert people[0].withdrawn


async def test_a_replaced_player_gets_no_second_substitute(
    uow_factory: SqlUnitOfWorkFactory,
    services: Services,
) -> None:
    tournament = await _open_tournament(uow_factory, capacity=2)
    excluded, no_show, first, second = [
        await _register(uow_factory, tournament, number) for number in range(4)
    ]
    assert first.status is second.status is ParticipantStatus.WAITING
    await _people(uow_factory, 501)
    admin = Actor.of(ADMIN, NOW, ADMINS)
    chief = await services.staff.invite_judge(admin, tournament.id, StaffRole.CHIEF_JUDGE)
    await services.staff.accept_staff_invite(Actor(501, NOW), chief.token)
    await services.checkin.exclude(Actor(501, NOW), excluded.id, "подсказки")
    await services.checkin.mark_no_show(admin, no_show.id)
    await services.checkin.substitute(admin, excluded.id, waiting_id=first.id)
    await services.checkin.substitute(admin, no_show.id, newcomer=_form(90))
    before = (await services.registration.roster(admin, tournament.id)).participants
    # The excluded player stays excluded, the no-show is replaced: neither takes a second one.
    for replaced in (excluded, no_show):
        with pytest.raises(Invalid, match="substitute-already-replaced"):
            await services.checkin.substitute(admin, replaced.id, waiting_id=second.id)
        with pytest.raises(Invalid, match="substitute-already-replaced"):
            await services.checkin.substitute(admin, replaced.id, newcomer=_form(91))
    after = (await services.registration.roster(admin, tournament.id)).participants
    assert after == before


async def test_a_substitute_back_on_the_waiting_list_is_not_put_in_again(
    uow_factory: SqlUnitOfWorkFactory,
    services: Services,
) -> None:
    tournament = await _open_tournament(uow_factory, capacity=2)
    no_show, other, spare, _ = [
        await _register(uow_factory, tournament, number) for number in range(4)
    ]
    admin = Actor.of(ADMIN, NOW, ADMINS)
    await services.checkin.mark_no_show(admin, no_show.id)
    await services.checkin.substitute(admin, no_show.id, waiting_id=spare.id)
    # He withdraws while registration is open and registers again: the list is full, he waits.
    await services.registration.withdraw(Actor(1002, NOW), tournament.id)
    again = await _register(uow_factory, tournament, 2)
    assert again.id == spare.id and again.status is ParticipantStatus.WAITING
    await services.checkin.mark_no_show(admin, other.id)
    with pytest.raises(Invalid, match="substitute-already-substitutes"):
        await services.checkin.substitute(admin, other.id, waiting_id=spare.id)
    people = {
        p.id: p for p in (await services.registration.roster(admin, tournament.id)).participants
    }
    assert people[other.id].status is ParticipantStatus.NO_SHOW
    assert people[spare.id].substitute_for == no_show.id
