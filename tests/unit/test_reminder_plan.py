"""Which reminders a tournament wants, to whom, at which moment and with which words."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import UTC, date, datetime
from decimal import Decimal

from bot.i18n import translator
from domain.intents import CheckIn
from domain.outgoing import ScheduledPush
from domain.registration import ParticipantStatus
from domain.reminder_plan import ReminderFacts, plan_reminders
from domain.rounds import GameState, Round, SeatedStage, TableGame
from domain.tournament import TournamentState
from tests.unit.lifecycle_builders import player, team, tournament

OMSK_SATURDAY = date(2026, 5, 16)
CHIEF = 2
JUDGES = {11: "Анна Судья", 12: "Борис"}
PUBLISHED = datetime(2026, 5, 16, 5, 0, tzinfo=UTC)


def _utc(*parts: int) -> datetime:
    return datetime(*parts, tzinfo=UTC)  # type: ignore[misc]


def _by_key(pushes: list[ScheduledPush]) -> dict[str, ScheduledPush]:
    return {push.key.removeprefix("reminder:1:"): push for push in pushes}


def _args(push: ScheduledPush) -> dict[str, object]:
    assert push.message.phrase is not None
    return dict(push.message.phrase.arguments)


def _stage(stage: str, rounds: int, published: int, **states: GameState) -> SeatedStage:
    """Two tables of players 1-20; rounds up to `published` are published."""
    made = []
    for number in range(1, rounds + 1):
        games = tuple(
            TableGame(
                id=number * 10 + table,
                table=table,
                players=tuple(range((table - 1) * 10 + 1, table * 10 + 1)),
                judge_id=10 + table,
                state=states.get(f"g{number * 10 + table}", GameState.OPEN),
            )
            for table in (1, 2)
        )
        at = PUBLISHED if number <= published else None
        made.append(Round(id=100 + number, number=number, games=games, published_at=at))
    return SeatedStage(1, 1, stage, seed=7, rounds=tuple(made))


def _running(stage: SeatedStage, **changes: object) -> ReminderFacts:
    values: dict[str, object] = {
        "regulation_id": "siberia-ural-teams",
        "state": TournamentState.RUNNING,
        "current_stage": stage.stage,
        "timezone": "Asia/Omsk",
        "starts_on": OMSK_SATURDAY,
    }
    values.update(changes)
    return ReminderFacts(
        tournament=tournament(**values),
        participants=[player(n) for n in range(1, 21)],
        stage=stage,
        judge_names=JUDGES,
        chief_judges=(CHIEF,),
    )


def test_every_player_of_a_published_round_hears_his_table_seat_and_judge_15_minutes_before() -> (
    None
):
    plan = _by_key(plan_reminders(_running(_stage("qualifying", rounds=3, published=2))))
    round_two = {k: p for k, p in plan.items() if k.startswith("round:102:")}
    assert len(round_two) == 20
    # Game 2 is at 13:30 in Omsk (UTC+6): the reminder goes at 13:15 local, 07:15 UTC.
    seventh = round_two["round:102:17"]
    assert seventh.due_at == _utc(2026, 5, 16, 7, 15)
    assert seventh.message.chat_id == 1017
    assert _args(seventh) == {
        "tournament": "Кубок",
        "game": 2,
        "time": "13:30",
        "table": 2,
        "seat": 7,
        "judge": "Борис",
    }
    # Round 3 is not published: its seats may still change, nobody is told yet.
    assert not any(key.startswith("round:103:") for key in plan)


def test_a_substitute_gets_the_reminder_of_the_player_he_replaced() -> None:
    facts = _running(_stage("qualifying", rounds=1, published=1))
    participants = list(facts.participants)
    participants[4] = player(5, ParticipantStatus.REPLACED)
    participants[5] = player(6, ParticipantStatus.NO_SHOW)
    participants.append(player(30, substitute_for=5))
    plan = _by_key(plan_reminders(replace(facts, participants=participants)))
    assert plan["round:101:30"].message.chat_id == 1030
    assert _args(plan["round:101:30"])["seat"] == 5
    # Nobody plays for the no-show yet; the replaced player is not reminded either.
    assert {"round:101:5", "round:101:6"}.isdisjoint(plan)


def test_a_missing_protocol_reminds_its_judge_then_the_chief_judge_with_the_open_tables() -> None:
    stage = _stage("qualifying", rounds=1, published=1, g11=GameState.CONFIRMED)
    plan = _by_key(plan_reminders(_running(stage)))
    # Game 1 (12:30) ends when game 2 starts at 13:30 Omsk = 07:30 UTC.
    judge = plan["protocol:12"]
    assert (judge.message.chat_id, judge.due_at) == (12, _utc(2026, 5, 16, 7, 45))
    assert _args(judge)["table"] == 2
    assert judge.message.buttons[0][0].intent is not None
    assert "protocol:11" not in plan  # table 1 confirmed its protocol
    chief = plan["chief:101:2"]
    assert (chief.message.chat_id, chief.due_at) == (CHIEF, _utc(2026, 5, 16, 8, 0))
    assert _args(chief)["tables"] == "2"
    # A confirmed table has no seat reminders left either.
    assert not any(key.startswith("round:101:") and int(key.split(":")[2]) <= 10 for key in plan)


def test_no_chief_judge_reminder_once_every_protocol_is_in() -> None:
    stage = _stage(
        "qualifying", rounds=1, published=1, g11=GameState.CONFIRMED, g12=GameState.CONFIRMED
    )
    assert not any(key.startswith("chief:") for key in _by_key(plan_reminders(_running(stage))))


def test_the_timetable_adjusted_by_the_organizer_moves_the_reminders() -> None:
    stage = _stage("qualifying", rounds=1, published=1)
    regulation_time = _by_key(plan_reminders(_running(stage)))["round:101:1"]
    days = [
        {"day": 1, "events": [{"kind": "game", "time": "14:00", "stage": "qualifying"}] * 6},
        {"day": 2, "events": [{"kind": "game", "time": "15:00", "stage": "final"}] * 6},
    ]
    moved = _by_key(plan_reminders(_running(stage, timetable_json=json.dumps(days))))["round:101:1"]
    assert regulation_time.due_at == _utc(2026, 5, 16, 6, 15)
    assert moved.due_at == _utc(2026, 5, 16, 7, 45)
    assert _args(moved)["time"] == "14:00"


def test_the_black_raven_cup_needs_times_before_it_reminds_and_counts_hours_across_dst() -> None:
    stage = _stage("semifinal", rounds=1, published=1)
    no_times = _running(stage, regulation_id="black-raven-cup", timezone="Europe/Berlin")
    assert plan_reminders(no_times) == []
    # The organizer's times: day 1 is Saturday 28 March 2026 (CET), day 2 is after the jump.
    day_one = [{"kind": "game", "time": f"{h}:00", "stage": "qualifying"} for h in range(11, 17)]
    day_two = [{"kind": "game", "time": f"{h}:00", "stage": "semifinal"} for h in (11, 12, 13)]
    day_two += [{"kind": "game", "time": f"{h}:00", "stage": "final"} for h in (15, 16, 17)]
    timetable = json.dumps([{"day": 1, "events": day_one}, {"day": 2, "events": day_two}])
    facts = _running(
        stage,
        regulation_id="black-raven-cup",
        timezone="Europe/Berlin",
        starts_on=date(2026, 3, 28),
        timetable_json=timetable,
    )
    plan = _by_key(plan_reminders(facts))
    # 11:00 CEST (UTC+2) on Sunday: 08:45 UTC, not 09:45 as the winter offset would say.
    assert plan["round:101:1"].due_at == _utc(2026, 3, 29, 8, 45)
    assert _args(plan["round:101:1"])["time"] == "11:00"


def test_before_the_deadline_unpaid_players_captains_of_short_teams_and_the_organizer() -> None:
    deadline = _utc(2026, 5, 10, 17, 59)
    facts = ReminderFacts(
        tournament=tournament(
            regulation_id="siberia-ural-teams",
            registration_deadline=deadline,
            entry_fee=Decimal("1500.50"),
        ),
        participants=[
            player(1, team_id=1, paid=True),
            player(2, team_id=1),
            player(3, team_id=1, paid=True),
            player(4, team_id=2, paid=True),
            player(5, ParticipantStatus.WAITING, team_id=2),
        ],
        teams=[team(1, captain=1), team(2, captain=4)],
    )
    plan = _by_key(plan_reminders(facts))
    assert sorted(k for k in plan if not k.startswith("checkin:")) == [
        "deadline",
        "team:2",
        "unpaid:2",
    ]
    assert plan["unpaid:2"].due_at == _utc(2026, 5, 9, 17, 59)
    # The fee is written the reader's way when rendered: "1500,5" in Russian.
    assert _args(plan["unpaid:2"])["fee"] == Decimal("1500.50")
    unpaid = translator().get(
        "ru", "reminder-unpaid", tournament="К", deadline="d", fee=Decimal("1500.50")
    )
    assert "ваш взнос (1500,5)" in unpaid
    assert _args(plan["team:2"]) == {
        "tournament": "Кубок",
        "team": "Команда 2",
        "count": 2,
        "size": 3,
        "deadline": "10.05.2026 20:59",
    }
    assert (plan["deadline"].message.chat_id, plan["deadline"].due_at) == (100, deadline)
    # Once registration is closed nothing of this is wanted.
    closed = replace(
        facts, tournament=replace(facts.tournament, state=TournamentState.REGISTRATION_CLOSED)
    )
    assert not any(
        k.startswith(("unpaid", "team", "deadline")) for k in _by_key(plan_reminders(closed))
    )


def test_check_in_opens_with_the_first_days_start_for_players_not_checked_in() -> None:
    facts = ReminderFacts(
        tournament=tournament(
            regulation_id="siberia-ural-teams",
            state=TournamentState.REGISTRATION_CLOSED,
            timezone="Asia/Omsk",
            starts_on=OMSK_SATURDAY,
        ),
        participants=[player(1), player(2, checked_in=True), player(3, ParticipantStatus.WAITING)],
    )
    plan = _by_key(plan_reminders(facts))
    assert sorted(plan) == ["checkin:1"]
    push = plan["checkin:1"]
    assert push.due_at == _utc(2026, 5, 16, 6, 0)  # "start 12:00" in Omsk
    assert push.message.buttons[0][0].intent == CheckIn(1)
    cutoff = replace(facts.tournament, checkin_cutoff=_utc(2026, 5, 16, 5, 0))
    cut_off = replace(facts, tournament=cutoff)
    assert plan_reminders(cut_off) == []


def test_the_siberia_ural_final_day_reminds_each_of_its_six_rounds() -> None:
    plan = plan_reminders(_running(_stage("final", rounds=6, published=6)))
    rounds = sorted({p.due_at for p in plan if ":round:" in p.key})
    assert rounds == [_utc(2026, 5, 17, h - 6, 15) for h in (12, 13, 14, 16, 17, 18)]
