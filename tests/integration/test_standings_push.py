"""The standings pushes on both databases: what the outbox holds after a protocol or a round."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

from bot.db.uow import SqlUnitOfWorkFactory
from bot.rendering.pictures import StandingsPainter
from bot.rendering.standings_posts import ChannelStandings, LiveStandingsText, StandingsPictures
from domain.outgoing import Drawing, ScheduledPush
from domain.registration import Participant, ParticipantStatus
from domain.services import protocols, rounds
from domain.services.standings import (
    STANDINGS_PICTURE,
    PlayedGame,
    RoundClosed,
    StageClosed,
    live_key,
    live_standings,
    participant_key,
    publish_closing_standings,
    publish_live_standings,
)
from domain.standings import GameRecord
from domain.tournament import Tournament, TournamentState
from domain.users import User
from tests.factories import NOW as SEATED
from tests.factories import ORGANIZER as SEATING_ORGANIZER
from tests.factories import seed_tournament
from tests.integration.test_protocols import Judge
from tests.integration.test_rounds import seated
from tests.unit.protocol_builders import protocol

NOW = datetime(2026, 12, 20, 13, 0, tzinfo=UTC)
CHANNEL = -100500
ORGANIZER = 1
PRESENTER = ChannelStandings("ru")


async def _tournament(uow_factory: SqlUnitOfWorkFactory, channel: int | None = CHANNEL):
    """A running cup with ten imported players; returns it and their keys in seat order."""
    async with uow_factory() as uow:
        await uow.users.save(User(ORGANIZER, "Org", None, None, "ru"))
        tournament = await uow.tournaments.add(
            Tournament(
                id=0,
                title="Кубок <Ворона>",
                regulation_id="black-raven-cup",
                state=TournamentState.RUNNING,
                timezone="Asia/Omsk",
                created_by=ORGANIZER,
                created_at=NOW,
                channel_id=channel,
                current_stage="qualifying",
            )
        )
        keys = []
        for number in range(10):
            participant = await uow.participants.add(
                Participant(
                    id=0,
                    tournament_id=tournament.id,
                    user_id=None,
                    nickname=f"Игрок {number} <b>",
                    club="Ворон",
                    city="Омск",
                    status=ParticipantStatus.REGISTERED,
                    registered_at=NOW,
                )
            )
            keys.append(participant_key(participant.id))
        await uow.commit()
    return tournament, keys


def _game(keys: list[str], table: int = 1, winner: str = "red", **protest) -> PlayedGame:  # type: ignore[no-untyped-def]
    return PlayedGame(GameRecord("qualifying", 1, table, protocol(keys, winner=winner)), **protest)


async def _pending(uow_factory: SqlUnitOfWorkFactory):  # type: ignore[no-untyped-def]
    """The pending outbox messages, oldest first (claimed, so they are read in full)."""
    async with uow_factory() as uow:
        claimed = await uow.outbox.claim([i.id for i in await uow.outbox.waiting(100)], "test")
        await uow.commit()
    return [item.message for item in claimed]


async def test_a_confirmed_protocol_records_one_pinned_live_edit_of_the_channel_table(
    uow_factory: SqlUnitOfWorkFactory,
) -> None:
    tournament, keys = await _tournament(uow_factory)
    games = [_game(keys, protest_closes_at=NOW + timedelta(minutes=10))]
    async with uow_factory() as uow:
        assert await publish_live_standings(
            uow, PRESENTER, tournament.id, games, None, protocol_key="game-1", now=NOW
        )
        await uow.commit()
    (message,) = await _pending(uow_factory)
    assert (message.chat_id, message.edit_key, message.pin) == (
        CHANNEL,
        live_key(tournament.id),
        True,
    )
    assert message.tournament_id == tournament.id
    assert message.text is not None
    assert "Кубок &lt;Ворона&gt;" in message.text
    assert "Игрок 6 &lt;b&gt; 2*" in message.text
    assert "предварительный" in message.text


async def _refreshes(uow_factory: SqlUnitOfWorkFactory, tournament_id: int) -> list[ScheduledPush]:
    async with uow_factory() as uow:
        waiting = await uow.scheduled_pushes.waiting(f"standings-refresh:{tournament_id}:")
    return sorted(waiting.values(), key=lambda push: push.due_at)


async def test_each_window_close_schedules_one_live_edit_drawn_when_sent(
    uow_factory: SqlUnitOfWorkFactory,
) -> None:
    # The last round has no later protocol to refresh the table: the edit is scheduled, and
    # drawn when sent, so a later result neither renders nor rewrites the ones waiting.
    tournament, keys = await _tournament(uow_factory)
    closes = NOW + timedelta(minutes=10)
    later = NOW + timedelta(minutes=12)
    first = [_game(keys, protest_closes_at=closes)]
    both = [*first, _game(keys, table=2, protest_closes_at=later)]
    async with uow_factory() as uow:
        await publish_live_standings(
            uow, PRESENTER, tournament.id, first, None, protocol_key="game-1", now=NOW
        )
        await uow.commit()
    (scheduled,) = await _refreshes(uow_factory, tournament.id)
    async with uow_factory() as uow:
        await publish_live_standings(
            uow, PRESENTER, tournament.id, both, None, protocol_key="game-2", now=NOW
        )
        await uow.commit()
    refreshes = await _refreshes(uow_factory, tournament.id)
    assert [push.due_at for push in refreshes] == [closes, later]
    assert refreshes[0] == scheduled
    assert all(push.message.edit_key == live_key(tournament.id) for push in refreshes)
    assert [push.message.text_drawing for push in refreshes] == [
        live_standings(tournament.id, closes),
        live_standings(tournament.id, later),
    ]
    assert all(push.message.text is None for push in refreshes)


async def test_a_window_refresh_shows_every_result_stored_when_it_is_sent(
    uow_factory: SqlUnitOfWorkFactory,
) -> None:
    seeded = await seed_tournament(uow_factory)
    preview = await seated(uow_factory, seeded)
    await rounds.publish_round(uow_factory, seeded.tournament.id, SEATING_ORGANIZER, (), SEATED, 1)
    for minute, game in enumerate(preview.stage.rounds[0].games):
        assert game.judge_id is not None
        ended = SEATED + timedelta(minutes=minute)  # each game ends a minute after the last
        await Judge(uow_factory, game.id, game.judge_id, ended).fill_red_win()
        confirmed = await protocols.confirm_protocol(
            uow_factory, game.id, game.judge_id, ended, PRESENTER
        )
        assert confirmed.notice == "protocol-screen-confirmed"
    midway, final = await _refreshes(uow_factory, seeded.tournament.id)
    draw = LiveStandingsText(uow_factory)
    texts = []
    for push in (midway, final):
        assert push.message.text_drawing is not None
        texts.append(await draw(push.message.text_drawing.arguments, "ru", NOW))
    # When the first window closes both results show, the second still provisional.
    assert all("сыграно игр: 2" in text for text in texts)
    assert "предварительный" in texts[0] and "предварительный" not in texts[1]


async def test_a_protocol_pushes_its_edit_once_however_often_it_is_confirmed(
    uow_factory: SqlUnitOfWorkFactory,
) -> None:
    tournament, keys = await _tournament(uow_factory)
    games = [_game(keys)]
    for _ in range(2):
        async with uow_factory() as uow:
            await publish_live_standings(
                uow, PRESENTER, tournament.id, games, None, protocol_key="game-1", now=NOW
            )
            await uow.commit()
    async with uow_factory() as uow:
        again = await publish_live_standings(
            uow, PRESENTER, tournament.id, games, None, protocol_key="game-1", now=NOW
        )
        assert again is False
        assert await publish_live_standings(
            uow,
            PRESENTER,
            tournament.id,
            [*games, _game(keys, 2)],
            None,
            protocol_key="game-2",
            now=NOW,
        )
        await uow.commit()
    messages = await _pending(uow_factory)
    assert [m.edit_key for m in messages] == [live_key(tournament.id)] * 2
    assert "сыграно игр: 1" in (messages[0].text or "")
    assert "сыграно игр: 2" in (messages[1].text or "")


async def test_nothing_is_recorded_when_the_use_case_does_not_commit(
    uow_factory: SqlUnitOfWorkFactory,
) -> None:
    tournament, keys = await _tournament(uow_factory)
    async with uow_factory() as uow:
        await publish_live_standings(
            uow, PRESENTER, tournament.id, [_game(keys)], None, protocol_key="g", now=NOW
        )
    assert await _pending(uow_factory) == []


async def test_a_tournament_without_a_channel_pushes_nothing(
    uow_factory: SqlUnitOfWorkFactory,
) -> None:
    tournament, keys = await _tournament(uow_factory, channel=None)
    async with uow_factory() as uow:
        live = await publish_live_standings(
            uow, PRESENTER, tournament.id, [_game(keys)], None, protocol_key="g", now=NOW
        )
        closing = await publish_closing_standings(
            uow,
            PRESENTER,
            tournament.id,
            [_game(keys)],
            None,
            RoundClosed("qualifying", 1),
            now=NOW,
        )
        await uow.commit()
    assert (live, closing) == (False, False)
    assert await _pending(uow_factory) == []


async def test_a_round_and_a_stage_close_with_a_picture_and_the_table_once_each(
    uow_factory: SqlUnitOfWorkFactory,
) -> None:
    tournament, keys = await _tournament(uow_factory)
    games = [_game(keys)]
    closings = [
        RoundClosed("qualifying", 1),
        RoundClosed("qualifying", 1),
        StageClosed("qualifying"),
    ]
    async with uow_factory() as uow:
        recorded = [
            await publish_closing_standings(
                uow, PRESENTER, tournament.id, games, None, closing, now=NOW
            )
            for closing in closings
        ]
        await uow.commit()
    assert recorded == [True, False, True]
    messages = await _pending(uow_factory)
    kinds = [(m.attachment.kind if m.attachment else "text") for m in messages]
    assert kinds == ["photo", "text", "photo", "text"]
    assert all(m.edit_key is None and m.chat_id == CHANNEL for m in messages)
    round_picture, round_table, stage_picture, stage_table = messages
    assert round_picture.attachment is not None
    # The picture is drawn when it is sent, from the standings of that moment.
    drawing = round_picture.attachment.drawing
    assert drawing == Drawing.of(STANDINGS_PICTURE, tournament=tournament.id)
    assert stage_picture.attachment is not None and stage_picture.attachment.drawing is not None
    painter = StandingsPainter()
    try:
        pictures = StandingsPictures(uow_factory, painter)
        drawn = await pictures(drawing.arguments, "ru", NOW)
        # The stage closes with the round: the same standings are drawn once.
        again = await pictures(stage_picture.attachment.drawing.arguments, "ru", NOW)
    finally:
        await painter.close()
    assert drawn.startswith(b"\x89PNG") and again == drawn
    assert (painter.figures.drawn, painter.figures.reused) == (1, 1)
    assert painter.figures.cpu_total > 0
    assert round_picture.text == "<b>Кубок &lt;Ворона&gt;: тур 1 завершён</b> (Отборочный тур)"
    assert (round_table.text or "").startswith(round_picture.text)
    assert "Игрок 0 &lt;b&gt;" in (round_table.text or "")
    assert "этап «Отборочный тур» завершён" in (stage_picture.text or "")
    assert "этап «Отборочный тур» завершён" in (stage_table.text or "")


async def test_a_withdrawn_player_who_never_played_is_left_out_of_the_table(
    uow_factory: SqlUnitOfWorkFactory,
) -> None:
    tournament, keys = await _tournament(uow_factory)
    async with uow_factory() as uow:
        extra = await uow.participants.add(
            Participant(
                id=0,
                tournament_id=tournament.id,
                user_id=None,
                nickname="Ушедший",
                club="Ворон",
                city="Омск",
                status=ParticipantStatus.WITHDRAWN,
                registered_at=NOW,
            )
        )
        replaced = await uow.participants.get(int(keys[0]))
        assert replaced is not None
        await uow.participants.save(replace(replaced, status=ParticipantStatus.REPLACED))
        await publish_live_standings(
            uow, PRESENTER, tournament.id, [_game(keys)], None, protocol_key="g", now=NOW
        )
        await uow.commit()
    (message,) = await _pending(uow_factory)
    assert extra.nickname not in (message.text or "")
    # A replaced player keeps the points of the game he played.
    assert "Игрок 0 &lt;b&gt; 2" in (message.text or "")
