"""The organizer takes the seated stage out of the bot: sheets to print, CSV, schedules."""

from __future__ import annotations

import csv
import io

import pypdf

from domain.actor import Actor
from domain.registration import Participant, ParticipantStatus
from harness.simulation.screens import current
from tests.e2e.test_rounds import Stage, stage  # noqa: F401  (the fixture)
from tests.factories import FIRST_PLAYER, NOW, ORGANIZER

# The search and the PDF are seconds of CPU: on a loaded machine they take far longer.
WAIT = 120


async def seat(stage: Stage) -> None:  # noqa: F811
    """Seat the stage from the rounds screen, waiting as long as a loaded machine needs."""
    stage.organizer.send(f"/rounds {stage.seeded.tournament.id}")
    offer = await stage.organizer.wait_for(
        lambda m: "Составить рассадку" in str(m.buttons), timeout=WAIT
    )
    await stage.organizer.press(offer, button_text="Составить рассадку").answer(WAIT)
    await stage.organizer.wait_for(lambda m: "Повторные встречи" in (m.text or ""), timeout=WAIT)


async def test_the_sheets_and_the_csv_come_from_the_rounds_screen(stage: Stage) -> None:  # noqa: F811
    await seat(stage)
    preview = stage.organizer.messages[-1]
    # Two judges rotate over the two tables: the report gives both figures beside their bounds.
    assert "Больше всех игр за одним столом" in (preview.text or "")
    assert "Больше всех игр у одного судьи" in (preview.text or "")
    pressed = await stage.organizer.press(preview, button_text="🖨 Листы (PDF)").answer(WAIT)
    # Answered at once, the screen showing the work until the file comes.
    assert pressed.text == "⏳ Готовлю… Результат придёт следующим сообщением."
    sheets = await stage.organizer.wait_for(
        lambda m: m.document is not None and (m.document.file_name or "").endswith(".pdf"),
        timeout=WAIT,
    )
    await stage.fake.wait_idle(timeout=WAIT)
    assert current(stage.organizer, preview).buttons == preview.buttons
    assert sheets.document is not None and sheets.document.content is not None
    pdf = pypdf.PdfReader(io.BytesIO(sheets.document.content))
    # 20 players at 2 tables: a page per table and round, then the poster.
    rounds = len([line for line in (preview.text or "").splitlines() if line.startswith("Тур ")])
    assert len(pdf.pages) >= rounds * 2 + 1
    first = pdf.pages[0].extract_text()
    assert "Стол 1" in first and "Лучший" in first and "Ник" in first
    assert "Рассадка" in pdf.pages[-1].extract_text()
    await stage.organizer.press(preview, button_text="📄 Рассадка (CSV)").answer(WAIT)
    table = await stage.organizer.wait_for(
        lambda m: m.document is not None and (m.document.file_name or "").endswith(".csv"),
        timeout=WAIT,
    )
    assert table.document is not None and table.document.content is not None
    lines = list(csv.reader(io.StringIO(table.document.content.decode("utf-8-sig"))))
    assert lines[0] == ["Тур", "Стол", "Место", "Игрок", "Клуб", "Судья"]
    assert len(lines) == 1 + rounds * 20
    assert {line[2] for line in lines[1:]} == {str(s) for s in range(1, 11)}


async def test_every_player_gets_his_schedule_and_a_correction_when_it_changes(
    stage: Stage,  # noqa: F811
) -> None:
    player = stage.fake.user(FIRST_PLAYER, "Игрок")
    player.send("/start")
    await player.wait_for(timeout=WAIT)
    await seat(stage)
    preview = stage.organizer.messages[-1]
    await stage.organizer.press(preview, button_text="📬 Разослать расписание игрокам").answer(WAIT)
    schedule = await player.wait_for(lambda m: "Ваше расписание" in (m.text or ""), timeout=WAIT)
    text = schedule.text or ""
    rounds = len([line for line in (preview.text or "").splitlines() if line.startswith("Тур ")])
    games = [line for line in text.splitlines() if line[:1].isdigit()]
    assert len(games) == rounds
    assert all(" · " in line for line in games)
    # Moving him in round 1 sends his corrected schedule; the round messages are not sent yet.
    tournament = stage.seeded.tournament.id
    first_line = games[0].split(" · ")
    place = first_line[2]
    target = "2.1" if not place.startswith("2/") else "1.1"
    stage.organizer.send(f"/move {tournament} 1 {place.replace('/', '.')} {target}")
    corrected = await player.wait_for(
        lambda m: "Расписание изменилось" in (m.text or ""), timeout=WAIT
    )
    assert (corrected.text or "") != text


async def test_a_substitute_gets_the_schedule_of_the_games_he_takes_over(
    stage: Stage,  # noqa: F811
) -> None:
    replaced = stage.fake.user(FIRST_PLAYER, "Игрок")
    replaced.send("/start")
    await replaced.wait_for(timeout=WAIT)
    newcomer_id = FIRST_PLAYER + 500
    newcomer = stage.fake.user(newcomer_id, "Запасной")
    newcomer.send("/start")
    await newcomer.wait_for(timeout=WAIT)
    await seat(stage)
    preview = stage.organizer.messages[-1]
    await stage.organizer.press(preview, button_text="📬 Разослать расписание игрокам").answer(WAIT)
    schedule = await replaced.wait_for(lambda m: "Ваше расписание" in (m.text or ""), timeout=WAIT)
    games = [line for line in (schedule.text or "").splitlines() if line[:1].isdigit()]
    async with stage.app.uow_factory() as uow:
        waiting = await uow.participants.add(
            Participant(
                id=0,
                tournament_id=stage.seeded.tournament.id,
                user_id=newcomer_id,
                nickname="Запасной",
                club="Ворон",
                city="Омск",
                status=ParticipantStatus.WAITING,
                registered_at=NOW,
            )
        )
        await uow.commit()
    first = stage.seeded.players[0]
    # He did not come: marked a no-show, his games go to the waiting player.
    await stage.app.services.checkin.mark_no_show(Actor(ORGANIZER, NOW), first.id)
    await stage.app.services.checkin.substitute(
        Actor(ORGANIZER, NOW), first.id, waiting_id=waiting.id
    )
    # No game is played yet: the substitute takes over every game, table, seat and judge.
    his = await newcomer.wait_for(lambda m: "Ваше расписание" in (m.text or ""), timeout=WAIT)
    assert [line for line in (his.text or "").splitlines() if line[:1].isdigit()] == games
