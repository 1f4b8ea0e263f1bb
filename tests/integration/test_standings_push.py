"""The standings pushes on both databases: what the outbox holds after a protocol or a round."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

from bot.db.uow import SqlUnitOfWorkFactory
from bot.delivery.drawers import ClosingStandingsText, LiveStandingsText, StandingsAlbum
from bot.delivery.render import render
from bot.i18n import translator
from bot.rendering.pictures import StandingsPainter
from bot.rendering.standings_posts import live_post
from domain.actor import Actor
from domain.outgoing import Drawing, OutgoingMessage, ScheduledPush
from domain.registration import Participant, ParticipantStatus
from domain.services.catalog import Services, build_services
from domain.services.standings import load_board
from domain.services.standings_posts import (
    STANDINGS_ALBUM,
    closing_standings,
    live_key,
    live_standings,
    publish_closing_standings,
    publish_live_standings,
)
from domain.standings import GameRecord
from domain.standings_board import PlayedGame, RoundClosed, StageClosed, participant_key
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


async def _live_text(
    uow_factory: SqlUnitOfWorkFactory, tournament_id: int, games: list[PlayedGame]
) -> str:
    """The live table as the channel shows it over `games`, in Russian."""
    async with uow_factory() as uow:
        tournament = await uow.tournaments.get(tournament_id)
        assert tournament is not None
        return live_post(await load_board(uow, tournament, games, None, NOW), "ru")


async def test_a_confirmed_protocol_records_one_pinned_live_edit_of_the_channel_table(
    uow_factory: SqlUnitOfWorkFactory,
) -> None:
    tournament, keys = await _tournament(uow_factory)
    games = [_game(keys, protest_closes_at=NOW + timedelta(minutes=10))]
    async with uow_factory() as uow:
        assert await publish_live_standings(
            uow, tournament.id, games, protocol_key="game-1", now=NOW
        )
        await uow.commit()
    (message,) = await _pending(uow_factory)
    assert (message.chat_id, message.edit_key, message.pin) == (
        CHANNEL,
        live_key(tournament.id),
        True,
    )
    assert message.tournament_id == tournament.id
    # Drawn when it is sent, in the channel's language, from the standings as they stand then.
    assert (message.text, message.text_drawing) == (None, live_standings(tournament.id, NOW))
    drawn = await LiveStandingsText(build_services(uow_factory).standings)(
        message.text_drawing.arguments, "ru", NOW
    )
    assert "Кубок &lt;Ворона&gt;" in drawn
    assert "Standings" in await LiveStandingsText(build_services(uow_factory).standings)(
        message.text_drawing.arguments, "en", NOW
    )
    text = await _live_text(uow_factory, tournament.id, games)
    assert "Кубок &lt;Ворона&gt;" in text
    assert "Игрок 6 &lt;b&gt; 2*" in text
    assert "предварительный" in text


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
        await publish_live_standings(uow, tournament.id, first, protocol_key="game-1", now=NOW)
        await uow.commit()
    (scheduled,) = await _refreshes(uow_factory, tournament.id)
    async with uow_factory() as uow:
        await publish_live_standings(uow, tournament.id, both, protocol_key="game-2", now=NOW)
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
    services: Services,
) -> None:
    seeded = await seed_tournament(uow_factory)
    preview = await seated(services, seeded)
    await services.rounds_publication.publish_round(
        Actor(SEATING_ORGANIZER, SEATED), seeded.tournament.id, 1
    )
    for minute, game in enumerate(preview.stage.rounds[0].games):
        assert game.judge_id is not None
        ended = SEATED + timedelta(minutes=minute)  # each game ends a minute after the last
        await Judge(services, game.id, game.judge_id, ended).fill_red_win()
        confirmed = await services.protocols.confirm_protocol(Actor(game.judge_id, ended), game.id)
        assert confirmed.notice == "protocol-screen-confirmed"
    midway, final = await _refreshes(uow_factory, seeded.tournament.id)
    draw = LiveStandingsText(build_services(uow_factory).standings)
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
            await publish_live_standings(uow, tournament.id, games, protocol_key="game-1", now=NOW)
            await uow.commit()
    async with uow_factory() as uow:
        again = await publish_live_standings(
            uow, tournament.id, games, protocol_key="game-1", now=NOW
        )
        assert again is False
        assert await publish_live_standings(
            uow, tournament.id, [*games, _game(keys, 2)], protocol_key="game-2", now=NOW
        )
        await uow.commit()
    messages = await _pending(uow_factory)
    assert [m.edit_key for m in messages] == [live_key(tournament.id)] * 2
    assert [m.text_drawing for m in messages] == [live_standings(tournament.id, NOW)] * 2


async def test_nothing_is_recorded_when_the_use_case_does_not_commit(
    uow_factory: SqlUnitOfWorkFactory,
) -> None:
    tournament, keys = await _tournament(uow_factory)
    async with uow_factory() as uow:
        await publish_live_standings(uow, tournament.id, [_game(keys)], protocol_key="g", now=NOW)
    assert await _pending(uow_factory) == []


async def test_a_tournament_without_a_channel_pushes_nothing(
    uow_factory: SqlUnitOfWorkFactory,
) -> None:
    tournament, keys = await _tournament(uow_factory, channel=None)
    async with uow_factory() as uow:
        live = await publish_live_standings(
            uow, tournament.id, [_game(keys)], protocol_key="g", now=NOW
        )
        closing = await publish_closing_standings(
            uow,
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
            await publish_closing_standings(uow, tournament.id, games, None, closing, now=NOW)
            for closing in closings
        ]
        await uow.commit()
    assert recorded == [True, False, True]
    messages = await _pending(uow_factory)
    kinds = [(m.attachment.kind if m.attachment else "text") for m in messages]
    assert kinds == ["album", "text", "album", "text"]
    assert all(m.edit_key is None and m.chat_id == CHANNEL for m in messages)
    round_picture, round_table, stage_picture, stage_table = messages
    assert round_picture.attachment is not None
    # The picture is drawn when it is sent, from the standings of that moment.
    drawing = round_picture.attachment.drawing
    assert drawing == Drawing.of(STANDINGS_ALBUM, tournament=tournament.id)
    assert stage_picture.attachment is not None and stage_picture.attachment.drawing is not None
    painter = StandingsPainter()
    try:
        pictures = StandingsAlbum(build_services(uow_factory).standings, painter)
        drawn = await pictures(drawing.arguments, "ru", NOW)
        # The stage closes with the round: the same standings are drawn once.
        again = await pictures(stage_picture.attachment.drawing.arguments, "ru", NOW)
    finally:
        await painter.close()
    assert len(drawn) == 1 and drawn[0].startswith(b"\x89PNG") and again == drawn
    assert (painter.figures.drawn, painter.figures.reused) == (1, 1)
    assert painter.figures.cpu_total > 0
    # The heading and the table are written when they are sent, in the channel's language.
    assert round_table.text_drawing == closing_standings(tournament.id, closings[0], NOW)
    assert stage_table.text_drawing == closing_standings(tournament.id, closings[2], NOW)
    round_caption = render(translator(), "ru", round_picture).caption
    assert round_caption == "<b>Кубок &lt;Ворона&gt;: тур 1 завершён</b> (Отборочные игры)"
    round_text = await _drawn(uow_factory, round_table)
    assert round_text.startswith(round_caption)
    assert "Игрок 0 &lt;b&gt;" in round_text
    assert "этап «Отборочные игры» завершён" in (
        render(translator(), "ru", stage_picture).caption or ""
    )
    assert "этап «Отборочные игры» завершён" in await _drawn(uow_factory, stage_table)
    assert ": stage “" in await _drawn(uow_factory, stage_table, "en")


async def _drawn(
    uow_factory: SqlUnitOfWorkFactory, message: OutgoingMessage, locale: str = "ru"
) -> str:
    assert message.text_drawing is not None
    return await ClosingStandingsText(build_services(uow_factory).standings)(
        message.text_drawing.arguments, locale, NOW
    )


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
        await publish_live_standings(uow, tournament.id, [_game(keys)], protocol_key="g", now=NOW)
        await uow.commit()
    text = await _live_text(uow_factory, tournament.id, [_game(keys)])
    assert extra.nickname not in text
    # A replaced player keeps the points of the game he played.
    assert "Игрок 0 &lt;b&gt; 2" in text
