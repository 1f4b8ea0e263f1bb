"""The stage's seating as PDF sheets and as a CSV file, and the command that writes them."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pypdf

from bot.cli import main
from bot.rendering.seating_sheets import seating_csv, seating_pdf
from domain.seating.sheets import stage_sheet

NAMES = {f"p{i}": (f"Игрок {i}", "Клуб «Ворон»" if i % 2 else "") for i in range(1, 22)}


def sheet():  # type: ignore[no-untyped-def]
    players = list(NAMES)
    rounds = [[players[0:10], players[10:20]], [players[11:21], players[0:10]]]
    return stage_sheet(
        title="Кубок Ворона",
        stage="Отбор",
        rounds=rounds,
        sit_outs=[[players[20]], [players[10]]],
        judges=[["Судья Анна", None], ["Судья Анна", "Судья Борис"]],
        times=["10:00"],
        name=lambda player: NAMES[player],
    )


def test_the_pdf_has_a_page_per_table_and_round_then_the_poster_with_cyrillic() -> None:
    reader = pypdf.PdfReader(io.BytesIO(seating_pdf(sheet(), "ru")))
    texts = [page.extract_text() for page in reader.pages]
    assert len(texts) >= 5
    first = texts[0]
    assert "Кубок Ворона" in first and "Тур 1 · 10:00" in first and "Стол 1" in first
    assert "Судья: Судья Анна" in first and "Игрок 1" in first and "Клуб «Ворон»" in first
    for column in ("Роль", "Фолы", "Лучший", "Доп. баллы", "Победа"):
        assert column in first
    assert "Судья: —" in texts[1]
    assert "Тур 2" in texts[2] and "Стол 2" in texts[3] and "Судья Борис" in texts[3]
    poster = "".join(texts[4:])
    assert (
        "Рассадка: Кубок Ворона" in poster
        and "Не играют" in poster.replace("\n", " ")
        and "Игрок 21" in poster
    )
    # A4 portrait for the judges, landscape for the poster.
    assert round(float(reader.pages[0].mediabox.width)) == 595
    assert round(float(reader.pages[-1].mediabox.width)) == 842


def test_the_csv_has_every_seat_with_its_judge_under_a_localized_header() -> None:
    rows = list(csv.reader(io.StringIO(seating_csv(sheet(), "en").decode("utf-8-sig"))))
    assert rows[0] == ["Round", "Table", "Seat", "Player", "Club", "Judge"]
    assert len(rows) == 1 + 40
    assert rows[1] == ["1", "1", "1", "Игрок 1", "Клуб «Ворон»", "Судья Анна"]
    assert rows[11][:3] == ["1", "2", "1"] and rows[11][5] == ""
    assert rows[-1] == ["2", "2", "10", "Игрок 10", "", "Судья Борис"]


def test_the_seating_command_writes_the_pdf_and_the_csv(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    pdf, table = tmp_path / "sheets.pdf", tmp_path / "seating.csv"
    code = main(
        [
            "seating",
            "--players",
            "20",
            "--rounds",
            "2",
            "--swaps",
            "20000",
            "--pdf",
            str(pdf),
            "--csv",
            str(table),
        ]
    )
    assert code == 0
    assert len(pypdf.PdfReader(pdf).pages) == 2 * 2 + 1
    rows = list(csv.reader(io.StringIO(table.read_text("utf-8-sig"))))
    assert rows[0][0] == "Тур" and len(rows) == 41
    assert {row[5] for row in rows[1:]} == {"j1", "j2"}
    assert '"most_with_judge"' in capsys.readouterr().out


def test_an_unwritable_file_is_refused_with_a_message(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    code = main(
        [
            "seating",
            "--players",
            "10",
            "--rounds",
            "1",
            "--swaps",
            "1000",
            "--csv",
            str(tmp_path / "missing" / "seating.csv"),
        ]
    )
    assert code == 2
    assert "cannot write the file" in capsys.readouterr().err
