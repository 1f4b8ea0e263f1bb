"""The simulation's cast: an organizer, a chief judge, table judges, players and their teams,
named from the seed (the same seed gives the same people)."""

from __future__ import annotations

import random
from dataclasses import dataclass

ORGANIZER_ID = 100
CHIEF_JUDGE_ID = 200
FIRST_JUDGE_ID = 300
FIRST_PLAYER_ID = 10_000

_FIRST_NAMES = (
    "Анна", "Борис", "Вера", "Глеб", "Дарья", "Егор", "Жанна", "Зоя", "Илья", "Ксения",
    "Лев", "Мария", "Никита", "Ольга", "Павел", "Рита", "Семён", "Таисия", "Фёдор", "Юлия",
)  # fmt: skip
_NICK_WORDS = (
    "Ворон", "Шторм", "Лис", "Барон", "Туман", "Гром", "Сова", "Кедр", "Волк", "Рысь",
    "Маяк", "Клён", "Север", "Граф", "Факел", "Омут", "Пламя", "Тень", "Янтарь", "Бриз",
)  # fmt: skip
_CLUBS = ("Ворон", "Полночь", "Сибирь", "Урал", "Байкал", "Омск-Мафия", "Енисей", "Тайга")
_CITIES = ("Омск", "Новосибирск", "Томск", "Тюмень", "Екатеринбург", "Барнаул")
_TEAM_WORDS = ("Стая", "Клан", "Дружина", "Артель", "Гильдия", "Орден", "Бригада", "Экипаж")


@dataclass(frozen=True)
class Person:
    """Someone on the staff side: a Telegram account and the name it shows."""

    telegram_id: int
    first_name: str


@dataclass(frozen=True)
class Player:
    """A player as he registers: account, nickname, club, city and team (an index), if any."""

    telegram_id: int
    first_name: str
    nickname: str
    club: str
    city: str
    team: int | None


@dataclass(frozen=True)
class Cast:
    organizer: Person
    chief_judge: Person
    judges: tuple[Person, ...]
    players: tuple[Player, ...]
    teams: tuple[str, ...]

    def team_members(self, team: int) -> tuple[Player, ...]:
        """The players of a team, the captain first."""
        return tuple(player for player in self.players if player.team == team)


def _nicknames(rng: random.Random, count: int) -> list[str]:
    taken: set[str] = set()
    names: list[str] = []
    while len(names) < count:
        name = f"{rng.choice(_NICK_WORDS)} {rng.randint(1, 99)}"
        if name not in taken:
            taken.add(name)
            names.append(name)
    return names


def cast_of(seed: int, players: int, judges: int, team_size: int | None) -> Cast:
    """The people of a tournament of `players`, with `judges` table judges; teams of
    `team_size` consecutive players when the regulation has teams."""
    rng = random.Random(f"cast:{seed}")
    nicknames = _nicknames(rng, players)
    team_count = players // team_size if team_size else 0
    teams = tuple(f"{rng.choice(_TEAM_WORDS)} {number + 1}" for number in range(team_count))
    team_clubs = [rng.choice(_CLUBS) for _ in teams]
    cast_players = []
    for number, nickname in enumerate(nicknames):
        team = number // team_size if team_size else None
        cast_players.append(
            Player(
                telegram_id=FIRST_PLAYER_ID + number,
                first_name=rng.choice(_FIRST_NAMES),
                nickname=nickname,
                # Teammates come from one club, as teams usually do.
                club=team_clubs[team] if team is not None else rng.choice(_CLUBS),
                city=rng.choice(_CITIES),
                team=team,
            )
        )
    staff = [f"{rng.choice(_FIRST_NAMES)} (судья {n + 1})" for n in range(judges)]
    return Cast(
        organizer=Person(ORGANIZER_ID, "Организатор"),
        chief_judge=Person(CHIEF_JUDGE_ID, "Главный судья"),
        judges=tuple(Person(FIRST_JUDGE_ID + n, name) for n, name in enumerate(staff)),
        players=tuple(cast_players),
        teams=teams,
    )
