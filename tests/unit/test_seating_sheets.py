"""The stage's seating as PDF sheets and as a CSV file, and the command that writes them."""

from __future__ import annotations

import csv
import io
import re
import shutil
import subprocess
from dataclasses import dataclass
from html import unescape
from pathlib import Path

import pypdf
from PIL import Image

from bot.cli import main
from bot.rendering.seating_sheets import seating_csv, seating_pdf
from domain.seating.sheets import stage_sheet

NAMES = {f"p{i}": (f"Игрок {i}", "Клуб «Ворон»" if i % 2 else "") for i in range(1, 22)}


def sheet():  # type: ignore[no-untyped-def]
    players = list(NAMES)
    rounds = [[players[0:10], players[10:20]], [players[11:21], players[0:10]]]
    return stage_sheet(
        title="Кубок Ворона",
        stage="qualifying",
        rounds=rounds,
        sit_outs=[[players[20]], [players[10]]],
        judges=[["Судья Анна", None], ["Судья Анна", "Судья Борис"]],
        times=["10:00"],
        name=lambda player: NAMES[player],
    )


@dataclass(frozen=True)
class Word:
    text: str
    left: float
    top: float
    right: float
    bottom: float


@dataclass(frozen=True)
class Page:
    """A PDF page rendered by poppler: its words with their boxes (pt), and its pixels in
    grey at `SCALE` pixels a point."""

    words: list[Word]
    pixels: Image.Image

    def word(self, text: str) -> Word:
        return next(word for word in self.words if word.text == text)

    def ink_height(self, word: Word) -> float:
        """Height (pt) of the dark pixels inside a word's box: the glyphs as printed."""
        box = (word.left + 0.5, word.top, word.right - 0.5, word.bottom)
        crop = self.pixels.crop(tuple(round(v * SCALE) for v in box))
        dark = [
            y for y in range(crop.height) for x in range(crop.width) if crop.getpixel((x, y)) < 128
        ]
        return (max(dark) - min(dark) + 1) / SCALE

    def dark_runs(self, y: float, left: float, right: float) -> int:
        """Dark lines crossed along a row of pixels from `left` to `right` (pt)."""
        row = [
            self.pixels.getpixel((x, round(y * SCALE))) < 128
            for x in range(round(left * SCALE), round(right * SCALE))
        ]
        return sum(1 for k, dark in enumerate(row) if dark and (k == 0 or not row[k - 1]))


SCALE = 2
WORD = re.compile(
    r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)</word>'
)


def rendered(pdf: bytes, tmp_path: Path) -> list[Page]:
    """Every page as pdftoppm draws it (poppler-utils: scripts/ensure-services installs it)."""
    assert shutil.which("pdftoppm") and shutil.which("pdftotext"), "install poppler-utils"
    source = tmp_path / "sheets.pdf"
    source.write_bytes(pdf)
    subprocess.run(
        ["pdftoppm", "-gray", "-r", str(72 * SCALE), "-png", str(source), str(tmp_path / "page")],
        check=True,
    )
    layout = subprocess.run(
        ["pdftotext", "-bbox", str(source), "-"], check=True, capture_output=True, text=True
    ).stdout
    pages = []
    for k, html in enumerate(layout.split("<page ")[1:], start=1):
        words = [Word(unescape(m[4]), *(float(v) for v in m[:4])) for m in WORD.findall(html)]
        png = sorted(tmp_path.glob("page-*.png"))[k - 1]
        pages.append(Page(words, Image.open(png).convert("L")))
    return pages


def test_the_judges_blank_is_the_protocol_form_in_the_tournaments_language(tmp_path: Path) -> None:
    pages = rendered(seating_pdf(sheet(), "ru"), tmp_path)
    assert len(pages) == 4 + 2
    first = pages[0]
    text = " ".join(word.text for word in first.words)
    assert "Протокол игры · Кубок Ворона — отборочный тур" in text
    assert "Тур 1 · 10:00 · Стол 1 · Судья: Судья Анна" in text
    assert "Игрок 1" in text and "Клуб «Ворон»" in text
    for words in (
        "Место",
        "Роль",
        "Фолы",
        "Доп.",
        "Баллы",
        "День 1",
        "День 6",
        "Выставлены",
        "Голоса",
        "Ночь: отстрел",
        "Проверка дона",
        "Проверка шерифа",
        "Лучший ход: первый убитый",
        "Победа:",
        "красные",
        "чёрные",
        "Подпись судьи",
    ):
        assert words in text, words
    # Nothing English in a Russian sheet (the stage's id is named in Russian), no word broken.
    assert not [word.text for word in first.words if re.fullmatch(r"[A-Za-z]{2,}", word.text)]
    assert "Мест" not in [word.text for word in first.words]
    # Four foul boxes to every seat: five lines cross seat 1's row from role to extra points.
    role, extra = first.word("Роль"), first.word("Доп.")
    seat = next(word for word in first.words if word.text == "1" and word.top > role.bottom)
    middle = (seat.top + seat.bottom) / 2
    assert (
        first.dark_runs(middle, (role.left + role.right) / 2, (extra.left + extra.right) / 2) == 5
    )
    assert "Судья: —" in " ".join(word.text for word in pages[1].words)


def test_the_hall_poster_has_a_page_per_round_with_nicknames_readable_from_afar(
    tmp_path: Path,
) -> None:
    pages = rendered(seating_pdf(sheet(), "ru"), tmp_path)
    first, second = (" ".join(word.text for word in page.words) for page in pages[4:])
    assert "Рассадка: Кубок Ворона — отборочный тур" in first
    assert "Тур 1 · 10:00" in first and "Тур 2" not in first and "Тур 2" in second
    assert "Стол 1 · Судья Анна" in first and "Стол 2 · Судья Борис" in second
    assert "Не играют: Игрок 21" in first and "Не играют: Игрок 11" in second
    # A nickname's capital letters as printed stand at least 0.7 of 14 pt (DejaVu's capital
    # height is 0.73 of the type size): the 16 pt nicknames, not the 7 pt of before.
    nickname = next(word for word in pages[4].words if word.text == "Игрок")
    assert pages[4].ink_height(nickname) >= 0.7 * 14
    # A4 portrait for the judges, landscape for the poster.
    assert pages[0].pixels.width < pages[0].pixels.height
    assert pages[-1].pixels.width > pages[-1].pixels.height


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
    # A blank per table and round, then a poster page per round; titled in Russian.
    reader = pypdf.PdfReader(pdf)
    assert len(reader.pages) == 2 * 2 + 2
    assert "Игроков: 20, столов: 2 — туров: 2" in (reader.pages[0].extract_text() or "")
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
