"""The substitute's buttons on the tournament day: a player already replaced is offered no
second substitute, and a press for one (an old copy of the keyboard) is refused with why."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from domain.actor import Actor
from domain.registration import Participant, ParticipantStatus
from domain.tournament import TournamentState
from handlers.callbacks import CheckinScreen, PersonAction, PersonButton, SubstitutePick
from harness.fake_telegram import ChatMessage, FakeTelegram
from harness.sandbox import running_bot, sandbox_settings
from harness.simulation.screens import containing
from tests.factories import CHIEF_JUDGE, NOW, ORGANIZER, seed_tournament

TIMEOUT = 60.0


def _buttons(shown: ChatMessage) -> list[str]:
    return [text for row in shown.buttons for text, _ in row]


async def test_an_excluded_player_once_replaced_is_offered_no_second_substitute(
    fake_telegram: FakeTelegram, tmp_path: Path
) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'bot.sqlite3'}"
    async with running_bot(sandbox_settings(fake_telegram, url)) as app:
        seeded = await seed_tournament(app.uow_factory, players=10, judges=1)
        closed = replace(
            seeded.tournament, state=TournamentState.REGISTRATION_CLOSED, current_stage=None
        )
        async with app.uow_factory() as uow:
            await uow.tournaments.save(closed)
            waiting = [
                await uow.participants.add(
                    Participant(
                        0, closed.id, None, name, "Ворон", "Омск", ParticipantStatus.WAITING, NOW
                    )
                )
                for name in ("Запасной", "Второй")
            ]
            await uow.commit()
        excluded, absent = seeded.players[3], seeded.players[4]
        await app.services.checkin.exclude(Actor(CHIEF_JUDGE, NOW), excluded.id, "подсказки")
        await app.services.checkin.substitute(
            Actor(ORGANIZER, NOW), excluded.id, waiting_id=waiting[0].id
        )
        await app.services.checkin.mark_no_show(Actor(ORGANIZER, NOW), absent.id)

        organizer = fake_telegram.user(ORGANIZER, "Организатор")
        organizer.send("/start")
        start = await organizer.wait_for(None, TIMEOUT)
        organizer.forge_press(start, CheckinScreen(tournament_id=closed.id).pack())
        screen = await organizer.wait_for(containing("Отметка о прибытии"), TIMEOUT)
        # Only the no-show awaits a substitute now.
        assert "места для замены: 1" in (screen.text or "")
        assert absent.nickname in _buttons(screen)
        assert excluded.nickname not in _buttons(screen)

        offered = []
        for person in (absent, excluded):
            press = PersonAction(participant_id=person.id, action=PersonButton.SHOW)
            organizer.forge_press(screen, press.pack())
            shown = await organizer.wait_for(containing(person.nickname), TIMEOUT)
            offered.append("Замена" in _buttons(shown))
        assert offered == [True, False]

        pick = SubstitutePick(participant_id=excluded.id, waiting_id=waiting[1].id)
        refused = await organizer.forge_press(screen, pick.pack()).answer(TIMEOUT)
        assert refused.text is not None and "уже есть замена — Запасной" in refused.text
        listed = await app.services.registration.roster(Actor(ORGANIZER, NOW), closed.id)
        second = next(p for p in listed.participants if p.id == waiting[1].id)
        assert second.status is ParticipantStatus.WAITING
