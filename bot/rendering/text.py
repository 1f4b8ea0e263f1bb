"""Telegram HTML: escaping user-supplied strings and splitting long texts into messages."""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from domain.outgoing import TEXT_LIMIT

# A tag, an entity, a run of spaces, a run of other characters, or a stray "<" or "&".
_TOKEN = re.compile(r"<[^<>]*>|&#?\w+;|\s+|[^<&\s]+|[<&]")
_TAG = re.compile(r"<(/?)([a-zA-Z][\w-]*)[^>]*>")
_MARKUP = re.compile(r"<[^<>]*>")
# Between the pages of a text drawn as several messages (a standings table cut between rows):
# each page is sent as a message of its own.
PAGE_BREAK = "\f"


def escape(value: str) -> str:
    """A user-supplied string made safe for Telegram's HTML parse mode."""
    return html.escape(value, quote=True)


def telegram_length(text: str) -> int:
    """The length Telegram measures: UTF-16 code units (an emoji counts twice)."""
    return len(text.encode("utf-16-le")) // 2


def _lines(text: str) -> list[str]:
    return text.splitlines(keepends=True)


def _words(text: str) -> list[str]:
    # Each word keeps the spaces after it, so joining the words gives the text back.
    words: list[str] = []
    for token in _TOKEN.findall(text):
        if words and (token.isspace() or not words[-1][-1:].isspace()):
            words[-1] += token
        else:
            words.append(token)
    return words


def _atoms(text: str) -> list[str]:
    atoms: list[str] = []
    for token in _TOKEN.findall(text):
        atoms.extend([token] if token.startswith(("<", "&")) else list(token))
    return atoms


# Finer and finer ways to cut a piece that does not fit into one message.
_CUTS: tuple[Callable[[str], list[str]], ...] = (_lines, _words, _atoms)


@dataclass
class _Packer:
    limit: int
    chunks: list[str] = field(default_factory=list)
    body: str = ""
    # Tags open at the end of `body`, each as (name, opening tag); reopened in the next chunk.
    open_tags: list[tuple[str, str]] = field(default_factory=list)
    prefix: str = ""

    def add(self, piece: str, level: int = 0) -> None:
        if self._fits(piece):
            self._append(piece)
            return
        if _visible(self.body):
            self.flush()
            if self._fits(piece):
                self._append(piece)
                return
        if level + 1 >= len(_CUTS):
            raise ValueError(f"a message limit of {self.limit} is too small for the markup")
        for smaller in _CUTS[level + 1](piece):
            self.add(smaller, level + 1)

    def flush(self) -> None:
        if _visible(self.body):
            self.chunks.append(self.prefix + self.body.rstrip() + _closing(self.open_tags))
        self.prefix = "".join(tag for _, tag in self.open_tags)
        self.body = ""

    def _fits(self, piece: str) -> bool:
        after = _track(self.open_tags, piece)
        text = self.prefix + self.body + piece
        return telegram_length(text.rstrip()) + telegram_length(_closing(after)) <= self.limit

    def _append(self, piece: str) -> None:
        self.body += piece
        self.open_tags = _track(self.open_tags, piece)


def _track(open_tags: list[tuple[str, str]], piece: str) -> list[tuple[str, str]]:
    tags = list(open_tags)
    for match in _TAG.finditer(piece):
        closing, name = match.group(1), match.group(2).lower()
        if not closing:
            tags.append((name, match.group(0)))
        elif tags and tags[-1][0] == name:
            tags.pop()
    return tags


def _closing(open_tags: list[tuple[str, str]]) -> str:
    return "".join(f"</{name}>" for name, _ in reversed(open_tags))


def _visible(body: str) -> bool:
    return bool(_MARKUP.sub("", body).strip())


def split_text(text: str, limit: int = TEXT_LIMIT) -> list[str]:
    """Cut an HTML text into messages of at most `limit` characters (as Telegram counts them).

    Cuts fall on line ends where possible, then between words, then anywhere outside a tag or
    an entity; a tag open at a cut is closed before it and reopened after it, so every part
    is valid HTML on its own. Blank parts are dropped. A `PAGE_BREAK` always starts a new
    message.
    """
    if PAGE_BREAK in text:
        return [part for page in text.split(PAGE_BREAK) for part in split_text(page, limit)]
    if telegram_length(text) <= limit:
        return [text] if text.strip() else []
    packer = _Packer(limit)
    for line in _lines(text):
        packer.add(line)
    packer.flush()
    return packer.chunks
