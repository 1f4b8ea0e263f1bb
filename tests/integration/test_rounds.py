"""Seating a stage, editing the preview, judges and publishing, on SQLite and PostgreSQL."""

from __future__ import annotations

from collections import Counter

import pytest

from bot.db.uow import SqlUnitOfWorkFactory
from domain.actor import Actor
from domain.outgoing import OutgoingMessage
from domain.permissions import Forbidden
from domain.rounds import fill_freed_seats
from domain.services import rounds
from domain.services.catalog import Services
from domain.validation import Invalid
from tests.factories import (
    CHANNEL,
    CHIEF_JUDGE,
    FIRST_PLAYER,
    NOW,
    ORGANIZER,
    Seeded,
    seed_tournament,
)

SWAPS = 20_000


async def sent_messages(uow_factory: SqlUnitOfWorkFactory) -> list[OutgoingMessage]:
    """Everything recorded in the outbox so far (claimed, so the next call sees only news)."""
    async with uow_factory() as uow:
        waiting = await uow.outbox.waiting(10_000)
        claimed = await uow.outbox.claim([item.id for item in waiting], "test")
        await uow.commit()
    return [item.message for item in claimed]


async def seated(services: Services, seeded: Seeded) -> rounds.StagePreview:
    return await services.rounds_seating.start_stage(
        Actor(ORGANIZER, NOW), seeded.tournament.id, seed=7, swaps=SWAPS
    )


async def test_a_stage_is_seated_for_every_round_with_its_judges_spread(
    uow_factory: SqlUnitOfWorkFactory,
    services: Services,
) -> None:
    seeded = await seed_tournament(uow_factory, players=20, judges=2)
    preview = await seated(services, seeded)
    stage = preview.stage
    # 20 players at 2 tables play the qualifying's 6 games each in 6 rounds.
    assert len(stage.rounds) == 6
    games = Counter(p for r in stage.rounds for game in r.games for p in game.players)
    assert set(games.values()) == {6}
    assert preview.quality.hard_violations == ()
    for round_ in stage.rounds:
        assert sorted(game.judge_id for game in round_.games) == list(seeded.judges)
    # The judges' schedule is chosen with the seating (rotating, or staying at their tables
    # when the rotation would leave a player more than one game above his bound with a judge).
    quality = preview.quality
    assert quality.most_with_judge is not None
    assert quality.most_with_judge[1] <= quality.most_with_judge_bound + 1
    again = await seated(services, seeded)
    assert again.stage == stage


async def test_only_the_organizer_seats_a_stage(
    uow_factory: SqlUnitOfWorkFactory, services: Services
) -> None:
    seeded = await seed_tournament(uow_factory)
    with pytest.raises(Forbidden):
        await services.rounds_seating.start_stage(
            Actor(FIRST_PLAYER, NOW), seeded.tournament.id, seed=1, swaps=SWAPS
        )


async def test_too_few_players_for_a_table_are_refused(
    uow_factory: SqlUnitOfWorkFactory, services: Services
) -> None:
    seeded = await seed_tournament(uow_factory, players=9)
    with pytest.raises(Invalid) as refused:
        await seated(services, seeded)
    assert refused.value.code == "stage-too-few-players"


async def test_publishing_tells_each_player_each_judge_and_the_channel_once(
    uow_factory: SqlUnitOfWorkFactory,
    services: Services,
) -> None:
    seeded = await seed_tournament(uow_factory)
    preview = await seated(services, seeded)
    await services.rounds_publication.publish_round(Actor(ORGANIZER, NOW), seeded.tournament.id, 1)
    messages = await sent_messages(uow_factory)
    seat_messages = [m for m in messages if m.phrase and m.phrase.key == "round-seat-player"]
    assert len(seat_messages) == 20
    first = preview.stage.rounds[0].games[0]
    to_first_player = next(
        m for m in seat_messages if m.chat_id == seeded.user_of(first.players[0])
    )
    assert to_first_player.phrase is not None
    assert to_first_player.phrase.arguments["table"] == 1
    assert to_first_player.phrase.arguments["seat"] == 1
    assert to_first_player.phrase.arguments["time"] == "none"  # no time set: the text drops it
    judge_lists = [m for m in messages if m.phrase and m.phrase.key == "round-judge-list"]
    assert sorted(m.chat_id for m in judge_lists) == list(seeded.judges)
    assert all(m.buttons and m.buttons[0][0].intent for m in judge_lists)
    posts = [m for m in messages if m.chat_id == CHANNEL]
    assert len(posts) == 1
    assert posts[0].phrase is not None
    assert seeded.nickname(first.players[0]) in str(posts[0].phrase.arguments["tables"])
    with pytest.raises(Invalid) as refused:
        await services.rounds_publication.publish_round(
            Actor(ORGANIZER, NOW), seeded.tournament.id, 1
        )
    assert refused.value.code == "round-already-published"
    assert await sent_messages(uow_factory) == []


async def test_a_swap_after_publishing_corrects_only_the_people_concerned(
    uow_factory: SqlUnitOfWorkFactory,
    services: Services,
) -> None:
    seeded = await seed_tournament(uow_factory)
    preview = await seated(services, seeded)
    await services.rounds_publication.publish_round(Actor(ORGANIZER, NOW), seeded.tournament.id, 1)
    await sent_messages(uow_factory)
    table_1, table_2 = preview.stage.rounds[0].games
    a, b = table_1.players[0], table_2.players[4]
    edited = await services.rounds_edits.swap(Actor(ORGANIZER, NOW), seeded.tournament.id, 1, a, b)
    assert edited.stage.rounds[0].seating.position(a) == (2, 5)
    assert edited.stage.rounds[0].seating.position(b) == (1, 1)
    messages = await sent_messages(uow_factory)
    corrections = {
        m.chat_id: m for m in messages if m.phrase and m.phrase.key == "round-correction-player"
    }
    assert set(corrections) == {seeded.user_of(a), seeded.user_of(b)}
    judges = sorted(
        m.chat_id for m in messages if m.phrase and m.phrase.key == "round-judge-list-corrected"
    )
    assert judges == sorted([table_1.judge_id, table_2.judge_id])
    assert [m.chat_id for m in messages if m.chat_id == CHANNEL] == [CHANNEL]


async def test_a_move_that_seats_teammates_together_is_refused(
    uow_factory: SqlUnitOfWorkFactory,
    services: Services,
) -> None:
    seeded = await seed_tournament(uow_factory, players=20, team_size=2)
    preview = await seated(services, seeded)
    round_ = preview.stage.rounds[0]
    player = round_.games[0].players[0]
    mate = next(
        p.id
        for p in seeded.players
        if p.team_id == next(q.team_id for q in seeded.players if q.id == player) and p.id != player
    )
    mate_table = round_.seating.position(mate)
    assert mate_table is not None and mate_table[0] == 2
    with pytest.raises(Invalid) as refused:
        await services.rounds_edits.move(
            Actor(ORGANIZER, NOW),
            seeded.tournament.id,
            1,
            player,
            2,
            mate_table[1] % 10 + 1,
        )
    assert refused.value.code == "round-edit-teammates"
    team_of = {p.nickname: p.team_id for p in seeded.players}
    first, second = refused.value.args_["first"], refused.value.args_["second"]
    assert team_of[first] == team_of[second]
    unchanged = await services.rounds_preview.stage_preview(
        Actor(ORGANIZER, NOW), seeded.tournament.id
    )
    assert unchanged.stage.rounds[0] == round_


async def test_regenerating_keeps_the_published_rounds(
    uow_factory: SqlUnitOfWorkFactory, services: Services
) -> None:
    seeded = await seed_tournament(uow_factory)
    before = await seated(services, seeded)
    await services.rounds_publication.publish_round(Actor(ORGANIZER, NOW), seeded.tournament.id, 1)
    after = await services.rounds_seating.regenerate_stage(
        Actor(ORGANIZER, NOW), seeded.tournament.id, seed=99, swaps=SWAPS
    )
    assert after.stage.seed == 99
    assert after.stage.rounds[0].seating == before.stage.rounds[0].seating
    assert [r.seating for r in after.stage.rounds[1:]] != [
        r.seating for r in before.stage.rounds[1:]
    ]
    assert after.quality.hard_violations == ()


async def test_a_judge_is_assigned_to_one_table_of_a_round(
    uow_factory: SqlUnitOfWorkFactory,
    services: Services,
) -> None:
    seeded = await seed_tournament(uow_factory, judges=3)
    preview = await seated(services, seeded)
    round_ = preview.stage.rounds[0]
    busy = round_.games[1].judge_id
    assert busy is not None
    with pytest.raises(Invalid) as refused:
        await services.rounds_judges.assign_judge(
            Actor(ORGANIZER, NOW), seeded.tournament.id, 1, 1, busy
        )
    assert refused.value.code == "round-judge-busy"
    spare = next(j for j in seeded.judges if j not in {g.judge_id for g in round_.games})
    done = await services.rounds_judges.assign_judge(
        Actor(ORGANIZER, NOW), seeded.tournament.id, 1, 1, spare
    )
    assert done.stage.rounds[0].games[0].judge_id == spare


async def test_a_no_show_after_seating_is_reseated_changing_few_places(
    uow_factory: SqlUnitOfWorkFactory,
    services: Services,
) -> None:
    # 21 players at 2 tables: one sits out each round, so a freed seat has a taker.
    seeded = await seed_tournament(uow_factory, players=21)
    before = await seated(services, seeded)
    tournament = seeded.tournament.id
    await services.rounds_publication.publish_round(Actor(ORGANIZER, NOW), tournament, 1)
    missing = before.stage.rounds[1].games[0].players[3]
    await services.checkin.mark_no_show(Actor(ORGANIZER, NOW), missing)
    waiting = await services.rounds_preview.stage_preview(Actor(ORGANIZER, NOW), tournament)
    assert waiting.gone == (missing,)
    with pytest.raises(Invalid) as refused:
        await services.rounds_publication.publish_round(Actor(ORGANIZER, NOW), tournament, 2)
    assert refused.value.code == "round-player-gone"
    assert refused.value.args_["players"] == seeded.nickname(missing)

    after = await services.rounds_seating.reseat_stage(Actor(ORGANIZER, NOW), tournament, seed=5)
    assert after.stage.seed == 5
    assert after.gone == ()
    assert after.stage.rounds[0].games == before.stage.rounds[0].games
    free = after.stage.rounds[1:]
    assert all(missing not in r.seating.sit_outs and not r.seating.position(missing) for r in free)
    rounds_he_played = sum(1 for r in before.stage.rounds[1:] if r.seating.position(missing))
    # One place per round he played: the player sitting out takes his seat, nobody else moves.
    assert after.changed_seats == rounds_he_played
    assert after.quality.hard_violations == ()
    assert after.quality.sit_out_unfairness == 0
    # The recorded seed reproduces the re-seating.
    still_in = [p.id for p in seeded.players if p.id != missing]
    sat_out = dict.fromkeys(still_in, 0) | dict.fromkeys(before.stage.rounds[0].sit_outs, 1)
    again = fill_freed_seats(
        [r.seating for r in before.stage.rounds[1:]], {missing}, 2, {}, sat_out, after.stage.seed
    )
    assert again == tuple(r.seating for r in free)
    await services.rounds_publication.publish_round(Actor(ORGANIZER, NOW), tournament, 2)


async def test_an_exclusion_that_empties_a_table_reseats_the_rest_at_fewer_tables(
    uow_factory: SqlUnitOfWorkFactory,
    services: Services,
) -> None:
    seeded = await seed_tournament(uow_factory, players=20)
    before = await seated(services, seeded)
    tournament = seeded.tournament.id
    await services.rounds_publication.publish_round(Actor(ORGANIZER, NOW), tournament, 1)
    leaver = before.stage.rounds[0].games[1].players[0]
    await services.checkin.exclude(Actor(CHIEF_JUDGE, NOW), leaver, "Неспортивное поведение")
    after = await services.rounds_seating.reseat_stage(
        Actor(ORGANIZER, NOW), tournament, seed=8, swaps=SWAPS
    )
    assert after.stage.rounds[0].games == before.stage.rounds[0].games
    for round_ in after.stage.rounds[1:]:
        assert len(round_.games) == 1
        assert len(round_.sit_outs) == 9
        assert leaver not in round_.sit_outs and not round_.seating.position(leaver)
    assert after.quality.hard_violations == ()
    assert after.changed_seats is not None and after.changed_seats >= 9 * 5
    # Nothing left to re-seat: the screen offers the fresh draw again.
    with pytest.raises(Invalid) as refused:
        await services.rounds_seating.reseat_stage(Actor(ORGANIZER, NOW), tournament, seed=9)
    assert refused.value.code == "stage-players-unchanged"
