"""Clubs are names players give: spellings are joined by aliases, a club's rating is its best
members' mean (docs/ratings.md, "Clubs").

A name is compared normalized (`normalize_name`): case-folded, "ё" read as "е", quotes dropped,
runs of spaces made one. Imported players are matched to persons by their nickname the same way.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from urllib.parse import quote, unquote

# The club's rating is the mean overall rating of its best members, at most this many.
CLUB_TOP_MEMBERS = 5
_QUOTES = re.compile(r"[\"'«»“”„`]")
_SPACES = re.compile(r"\s+")


def normalize_name(name: str) -> str:
    """A nickname or club name as compared: case-insensitive, ё = е, quotes and extra spaces
    ignored."""
    text = _QUOTES.sub("", name).casefold().replace("ё", "е")
    return _SPACES.sub(" ", text).strip()


def canonical_club(club: str | None, aliases: Mapping[str, str]) -> str | None:
    """The club `club` counts for: the canonical name its normalized spelling is joined to,
    else the name as given (trimmed); None for no club."""
    if club is None or not club.strip():
        return None
    return aliases.get(normalize_name(club), _SPACES.sub(" ", club).strip())


def club_key(club: str | None, aliases: Mapping[str, str]) -> str | None:
    """What two spellings of one club share: the normalized canonical name."""
    canonical = canonical_club(club, aliases)
    return normalize_name(canonical) if canonical is not None else None


def shown_name(spellings: Iterable[str]) -> str:
    """The name a club is shown under: its members' most common spelling (the first of
    those in alphabetical order on a tie)."""
    counted: dict[str, int] = {}
    for spelling in spellings:
        counted[spelling] = counted.get(spelling, 0) + 1
    return min(counted, key=lambda name: (-counted[name], name))


def club_rating(member_ratings: Iterable[float], top: int = CLUB_TOP_MEMBERS) -> float:
    """The mean of the best `top` ratings (0 for a club without rated members)."""
    best = sorted(member_ratings, reverse=True)[:top]
    return sum(best) / len(best) if best else 0.0


def club_slug(club: str) -> str:
    """The club's id on the web: its canonical name, URL-quoted."""
    return quote(club, safe="")


def club_from_slug(slug: str) -> str:
    """The club's canonical name from its web id."""
    return unquote(slug)
