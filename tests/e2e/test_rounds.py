"""The organizer seats a stage, edits it and publishes a round through the real bot."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass, replace

import pytest

from bot.app import Application
from domain.actor import Actor
from domain.rounds import move_player, swap_players
from harness.fake_telegram import ChatMessage, FakeTelegram
from harness.fake_telegram.people import FakeChannel, FakeUser
from harness.sandbox import running_bot, sandbox_settings
from harness.simulation.screens import WAIT, containing, press, with_button
from tests.factories import (
    CHANNEL,
    FIRST_PLAYER,
    NOW,
    ORGANIZER,
    Seeded,
    seed_tournament,
)


@dataclass
class Stage:
    app: Application
    fake: FakeTelegram
    seeded: Seeded
    organizer: FakeUser
    channel: FakeChannel


@pytest.fixture
async def stage(
    fake_telegram: FakeTelegram, migrated_sqlite_url: str, request: pytest.FixtureRequest
) -> AsyncIterator[Stage]:
    channel = fake_telegram.channel(CHANNEL, "Кубок Ворона")
    async with running_bot(sandbox_settings(fake_telegram, migrated_sqlite_url)) as app:
        # A test asks for another number of players by parametrizing the fixture.
        seeded = await seed_tournament(app.uow_factory, players=getattr(request, "param", 20))
        organizer = fake_telegram.user(ORGANIZER, "Организатор")
        yield Stage(app, fake_telegram, seeded, organizer, channel)


async def seat(stage: Stage) -> None:
    tournament = stage.seeded.tournament.id
    stage.organizer.send(f"/rounds {tournament}")
    offer = await stage.organizer.wait_for(lambda m: "Составить рассадку" in str(m.buttons))
    await stage.organizer.press(offer, button_text="Составить рассадку")
    await stage.organizer.wait_for(lambda m: "Повторные встречи" in (m.text or ""))


async def test_the_organizer_seats_previews_and_publishes_a_round(stage: Stage) -> None:
    player = stage.fake.user(FIRST_PLAYER, "Игрок")
    player.send("/start")
    await player.wait_for()
    await seat(stage)
    preview = stage.organizer.messages[-1]
    assert "Тур 1: не опубликован" in (preview.text or "")
    assert "Ключ рассадки (seed)" in (preview.text or "")
    # The stage's name, never its id; every player has six games, so that line is left out.
    assert "этап Отборочные игры" in (preview.text or "")
    assert "qualifying" not in (preview.text or "")
    assert "Игр у игрока" not in (preview.text or "")
    await stage.organizer.press(preview, button_text="Опубликовать тур 1")
    published = await stage.organizer.wait_for(lambda m: "Тур 1: опубликован" in (m.text or ""))
    assert "Опубликовать тур 2" in str(published.buttons)
    seat_message = await player.wait_for(lambda m: "Тур 1" in (m.text or ""))
    assert "стол" in (seat_message.text or "") and "место" in (seat_message.text or "")
    heading = "Рассадка · Отборочные игры · тур 1"
    post = await stage.channel.wait_for(lambda m: heading in (m.text or ""))
    assert "Ник01" in (post.text or "")


async def test_a_swap_and_a_judge_change_show_in_the_round(stage: Stage) -> None:
    await seat(stage)
    tournament = stage.seeded.tournament.id
    before = await stage.app.services.rounds_preview.stage_preview(
        Actor(ORGANIZER, NOW), tournament
    )
    first_round = before.stage.rounds[0]
    a, b = first_round.games[0].players[0], first_round.games[1].players[0]
    stage.organizer.send(f"/swap {tournament} 1 1.1 2.1")
    shown = await stage.organizer.wait_for(lambda m: "Тур 1" in (m.text or ""))
    table_2 = (shown.text or "").split("Стол 2")[1]
    assert f"1. {stage.seeded.nickname(a)}" in table_2
    judge_button = next(
        text for row in shown.buttons for text, _ in row if text.startswith("Стол 1:")
    )
    await stage.organizer.press(shown, button_text=judge_button)
    changed = await stage.organizer.wait_for(lambda m: "Стол 1:" in str(m.buttons))
    assert judge_button not in str(changed.buttons)
    after = await stage.app.services.rounds_preview.stage_preview(Actor(ORGANIZER, NOW), tournament)
    assert after.stage.rounds[0].seating.position(b) == (1, 1)
    assert after.stage.rounds[0].games[0].judge_id != first_round.games[0].judge_id


async def test_teammates_cannot_be_seated_together_and_strangers_cannot_seat(
    stage: Stage,
) -> None:
    stranger = stage.fake.user(FIRST_PLAYER, "Игрок")
    stranger.send(f"/rounds {stage.seeded.tournament.id}")
    refusal = await stranger.wait_for()
    assert "нет прав" in (refusal.text or "")
    stage.organizer.send("/swap 1 Ник01")
    usage = await stage.organizer.wait_for()
    assert "/swap [турнир] <тур>" in (usage.text or "")


async def test_the_tournament_card_leads_to_the_rounds_screen(stage: Stage) -> None:
    title = stage.seeded.tournament.title
    stage.organizer.send("/tournaments")
    listing = await stage.organizer.wait_for(lambda m: title in str(m.buttons))
    button = next(text for row in listing.buttons for text, _ in row if text.startswith(title))
    await stage.organizer.press(listing, button_text=button)
    card = await stage.organizer.wait_for(lambda m: "Туры: рассадка" in str(m.buttons))
    await stage.organizer.press(card, button_text="Туры: рассадка, судьи, публикация")
    offer = await stage.organizer.wait_for(lambda m: "Составить рассадку" in str(m.buttons))
    assert offer.message_id != card.message_id  # the card stays as it was


@pytest.mark.parametrize("stage", [21], indirect=True)
async def test_a_no_show_after_seating_is_reseated_from_the_rounds_screen(stage: Stage) -> None:
    await seat(stage)
    organizer, tournament = stage.organizer, stage.seeded.tournament.id
    preview = organizer.messages[-1]
    assert "Чаще всех встречаются: " in (preview.text or "")
    assert "Больше всех повторных встреч: " in (preview.text or "")
    await press(organizer, preview, "Опубликовать тур 1", "Тур 1: опубликован")
    seating = await stage.app.services.rounds_preview.stage_preview(
        Actor(ORGANIZER, NOW), tournament
    )
    missing = seating.stage.rounds[1].games[0].players[0]
    nickname = stage.seeded.nickname(missing)

    # The organizer marks him on the check-in screen of the tournament card.
    title = stage.seeded.tournament.title
    organizer.send("/tournaments")
    # Pushes of the published round may reach the organizer meanwhile: wait for the list.
    listing = await organizer.wait_for(lambda m: title in str(m.buttons))
    button = next(text for row in listing.buttons for text, _ in row if text.startswith(title))
    await organizer.press(listing, button_text=button)
    card = await organizer.wait_for(lambda m: "Отметка о прибытии" in str(m.buttons))
    screen = await press(organizer, card, "Отметка о прибытии", "не отметились: 21")
    person = await press(organizer, screen, nickname, nickname)
    await press(organizer, person, "Не пришёл", "не пришёл")

    organizer.send(f"/rounds {tournament}")
    warned = await organizer.wait_for(containing("выбыли без замены"))
    assert nickname in (warned.text or "")
    buttons = str(warned.buttons)
    assert "Опубликовать тур 2" not in buttons
    assert "Пересоставить неопубликованные туры" not in buttons
    reseat = "Пересадить без выбывших (меньше всего перемен)"
    await organizer.press(warned, button_text=reseat)
    done = await organizer.wait_for(containing("Пересадка сделана"))
    played = sum(1 for r in seating.stage.rounds[1:] if r.seating.position(missing))
    assert f"изменилось мест — {played}." in (done.text or "")
    assert "выбыли без замены" not in (done.text or "")
    assert "Чаще всех встречаются: " in (done.text or "")
    assert with_button("Опубликовать тур 2")(done)
    after = await stage.app.services.rounds_preview.stage_preview(Actor(ORGANIZER, NOW), tournament)
    assert f"Ключ рассадки (seed): {after.stage.seed}" in (done.text or "")
    assert after.stage.rounds[0].games == seating.stage.rounds[0].games
    assert all(not r.seating.position(missing) for r in after.stage.rounds[1:])


async def test_the_card_names_the_tournament_number_and_an_individual_cup_no_teams(
    stage: Stage,
) -> None:
    title = stage.seeded.tournament.title
    stage.organizer.send("/tournaments")
    listing = await stage.organizer.wait_for(lambda m: title in str(m.buttons))
    button = next(text for row in listing.buttons for text, _ in row if text.startswith(title))
    await stage.organizer.press(listing, button_text=button)
    card = await stage.organizer.wait_for(lambda m: "Туры: рассадка" in str(m.buttons))
    number = stage.seeded.tournament.id
    assert f"Турнир № {number}. Состояние" in (card.text or "")
    assert "для команд вида" not in (card.text or "") and "Команды:" not in (card.text or "")


async def test_an_english_tournaments_channel_gets_the_seating_in_english(stage: Stage) -> None:
    tournament = stage.seeded.tournament
    async with stage.app.uow_factory() as uow:
        stored = await uow.tournaments.get(tournament.id)
        assert stored is not None
        await uow.tournaments.save(replace(stored, locale="en"))
        await uow.commit()
    player = stage.fake.user(FIRST_PLAYER, "Игрок")
    player.send("/start")
    await player.wait_for()
    await stage.app.services.rounds_seating.start_stage(
        Actor(ORGANIZER, NOW), tournament.id, seed=3, swaps=2_000
    )
    await stage.app.services.rounds_publication.publish_round(
        Actor(ORGANIZER, NOW), tournament.id, 1
    )
    heading = "Seating · Qualifying · round 1"
    post = await stage.channel.wait_for(lambda m: heading in (m.text or ""), 120)
    assert "Table 1 · judge" in (post.text or "") and "Стол" not in (post.text or "")
    # A player still reads his own seat in his own language.
    seat = await player.wait_for(lambda m: "Тур 1" in (m.text or ""), 120)
    assert "стол" in (seat.text or "")


async def test_rounds_needs_no_number_for_one_tournament_and_offers_a_choice_of_several(
    stage: Stage,
) -> None:
    stage.organizer.send("/rounds")
    await stage.organizer.wait_for(lambda m: "Составить рассадку" in str(m.buttons), 120)
    tournament = stage.seeded.tournament
    async with stage.app.uow_factory() as uow:
        await uow.tournaments.add(replace(tournament, id=0, title="Второй кубок"))
        await uow.commit()
    stage.organizer.send("/rounds")
    choice = await stage.organizer.wait_for(containing("Туры какого турнира"), 120)
    assert {label for row in choice.buttons for label, _ in row} == {
        tournament.title,
        "Второй кубок",
    }
    await stage.organizer.press(choice, button_text=tournament.title).answer(120)
    await stage.organizer.wait_for(
        lambda m: m.message_id > choice.message_id and "Составить рассадку" in str(m.buttons), 120
    )
    stranger = stage.fake.user(FIRST_PLAYER, "Игрок")
    stranger.send("/rounds")
    assert "нет идущих турниров" in ((await stranger.wait_for(None, 120)).text or "")


def _button(message: ChatMessage, text: str) -> str:
    """The callback data of the button labelled `text` on `message`."""
    return next(data for row in message.buttons for label, data in row if label == text)


@pytest.mark.parametrize("stage", [21], indirect=True)
async def test_a_swap_and_a_move_done_by_buttons_change_the_seating_as_the_commands_would(
    stage: Stage,
) -> None:
    await seat(stage)
    organizer, tournament = stage.organizer, stage.seeded.tournament.id
    before = await stage.app.services.rounds_preview.stage_preview(
        Actor(ORGANIZER, NOW), tournament
    )
    seating = before.stage.rounds[0].seating
    mover, taken = seating.tables[0][0], seating.tables[1][2]
    nick = stage.seeded.nickname
    view = await press(organizer, organizer.messages[-1], "Тур 1", "Стол 2")
    tables = await press(organizer, view, "🔁 Поменять местами / пересадить", "кого пересадить")
    table = await press(organizer, tables, "Стол 1", "стол 1: кого пересадить")
    target = await press(
        organizer, table, f"1. {nick(mover)}", f"куда пересадить игрока {nick(mover)}"
    )
    seats = await press(organizer, target, "Стол 2", f"куда сядет {nick(mover)}")
    stale = _button(seats, f"3. {nick(taken)}")
    await organizer.press(seats, button_text=f"3. {nick(taken)}").answer(WAIT)
    moved = await organizer.wait_for(containing("Тур 1"), WAIT)
    # As `/move <t> 1 <mover> 2.3`: the mover sits at 2.3, the one who sat there at 1.1.
    expected = move_player(seating, mover, 2, 3, {})
    after = await stage.app.services.rounds_preview.stage_preview(Actor(ORGANIZER, NOW), tournament)
    assert after.stage.rounds[0].seating == expected
    assert f"3. {nick(mover)}" in (moved.text or "").split("Стол 2")[1]
    # The same press once more comes from a screen that is gone.
    again = await organizer.forge_press(moved, stale).answer(WAIT)
    assert again.show_alert and "устарела" in (again.text or "")

    # A seated player and one who sits out change places.
    seated, out = expected.tables[0][1], expected.sit_outs[0]
    tables = await press(organizer, moved, "🔁 Поменять местами / пересадить", "кого пересадить")
    table = await press(organizer, tables, "Стол 1", "стол 1: кого пересадить")
    target = await press(organizer, table, f"2. {nick(seated)}", "куда пересадить")
    outs = await press(organizer, target, "Не играют", "не играют: куда сядет")
    await organizer.press(outs, button_text=nick(out)).answer(WAIT)
    await organizer.wait_for(containing("Тур 1"), WAIT)
    final = await stage.app.services.rounds_preview.stage_preview(Actor(ORGANIZER, NOW), tournament)
    # As `/swap <t> 1 1.2 <out>`.
    assert final.stage.rounds[0].seating == swap_players(expected, seated, out, {})


async def test_swap_without_a_number_offers_the_tournaments_then_swaps(stage: Stage) -> None:
    await seat(stage)
    tournament = stage.seeded.tournament
    async with stage.app.uow_factory() as uow:
        await uow.tournaments.add(replace(tournament, id=0, title="Второй кубок"))
        await uow.commit()
    before = await stage.app.services.rounds_preview.stage_preview(
        Actor(ORGANIZER, NOW), tournament.id
    )
    seating = before.stage.rounds[0].seating
    stage.organizer.send("/swap 1 1.1 2.1")
    choice = await stage.organizer.wait_for(containing("В каком турнире изменить рассадку"), WAIT)
    assert {label for row in choice.buttons for label, _ in row} == {
        tournament.title,
        "Второй кубок",
    }
    await stage.organizer.press(choice, button_text=tournament.title).answer(WAIT)
    await stage.organizer.wait_for(containing("Тур 1"), WAIT)
    after = await stage.app.services.rounds_preview.stage_preview(
        Actor(ORGANIZER, NOW), tournament.id
    )
    first, second = seating.tables[0][0], seating.tables[1][0]
    assert after.stage.rounds[0].seating == swap_players(seating, first, second, {})
    # The choice was used: pressing it again changes nothing.
    again = await stage.organizer.forge_press(choice, _button(choice, tournament.title)).answer(
        WAIT
    )
    assert again.show_alert and "устарела" in (again.text or "")
