"""Telegram's HTML parse mode: turn marked-up text into plain text plus message entities.

Stricter than the real server in one place on purpose: a bare `&` or an unknown named entity
is refused, because the Bot API documentation asks for them to be escaped and a bot that
forgets to escape a player's nickname should fail in tests, not render garbage in production.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

# Tag name -> entity type; `span`, `a`, `pre`, `code`, `blockquote`, `tg-emoji` need attributes.
_SIMPLE_TAGS = {
    "b": "bold",
    "strong": "bold",
    "i": "italic",
    "em": "italic",
    "u": "underline",
    "ins": "underline",
    "s": "strikethrough",
    "strike": "strikethrough",
    "del": "strikethrough",
    "tg-spoiler": "spoiler",
    "code": "code",
    "pre": "pre",
}
_SUPPORTED_TAGS = {*_SIMPLE_TAGS, "span", "a", "blockquote", "tg-emoji"}
_NAMED_ENTITIES = {"lt": "<", "gt": ">", "amp": "&", "quot": '"'}
_ENTITY = re.compile(r"&(#x[0-9a-fA-F]{1,6}|#[0-9]{1,7}|[a-zA-Z]{1,10});")
_ATTRIBUTE = re.compile(r"\s*([a-zA-Z-]+)(?:\s*=\s*(\"[^\"]*\"|'[^']*'|[^\s\"'>]+))?")
_TAG_NAME = re.compile(r"[a-zA-Z][a-zA-Z0-9-]*")
_MARKUP = re.compile(r"[<&]")
_USER_LINK = re.compile(r"tg://user\?id=(\d+)")


class HtmlError(ValueError):
    """The text is not valid Telegram HTML; the message is Telegram's wording."""


@dataclass
class _OpenTag:
    name: str
    offset: int
    attributes: dict[str, str] = field(default_factory=dict)


def utf16_length(text: str) -> int:
    """Telegram measures text and entity offsets in UTF-16 code units."""
    if text.isascii():
        return len(text)
    return len(text.encode("utf-16-le")) // 2


def parse_html(source: str) -> tuple[str, list[dict[str, Any]]]:
    """Return the plain text and the entities Telegram would show for `source`."""
    parts: list[str] = []
    length = 0  # UTF-16 length of the plain text emitted so far
    stack: list[_OpenTag] = []
    entities: list[dict[str, Any]] = []
    position = 0
    # By runs: the text up to the next markup character is emitted whole, so a screen's
    # edit costs a few regex searches rather than a Python step per character.
    for special in _MARKUP.finditer(source):
        start = special.start()
        if start < position:  # inside an entity or a tag already read
            continue
        if start > position:
            run = source[position:start]
            parts.append(run)
            length += utf16_length(run)
        if special.group() == "&":
            decoded, position = _decode_entity(source, start)
            parts.append(decoded)
            length += utf16_length(decoded)
        elif source.startswith("</", start):
            position = _close_tag(source, start, stack, entities, length)
        else:
            tag, position = _open_tag(source, start, length)
            stack.append(tag)
    parts.append(source[position:])
    if stack:
        raise HtmlError(f'Can\'t find end tag corresponding to start tag "{stack[-1].name}"')
    entities.sort(key=lambda entity: (entity["offset"], -entity["length"]))
    return "".join(parts), entities


def _byte_offset(source: str, position: int) -> int:
    return len(source[:position].encode("utf-8"))


def _decode_entity(source: str, position: int) -> tuple[str, int]:
    match = _ENTITY.match(source, position)
    if match is None:
        raise HtmlError(
            f'Unsupported HTML entity or bare "&" at byte offset {_byte_offset(source, position)}'
        )
    name = match.group(1)
    if name.startswith("#x"):
        code = int(name[2:], 16)
    elif name.startswith("#"):
        code = int(name[1:])
    elif name in _NAMED_ENTITIES:
        return _NAMED_ENTITIES[name], match.end()
    else:
        raise HtmlError(
            f'Unsupported HTML entity "&{name};" at byte offset {_byte_offset(source, position)}'
        )
    if not 0 < code <= 0x10FFFF or 0xD800 <= code <= 0xDFFF:
        raise HtmlError(f"Invalid character code at byte offset {_byte_offset(source, position)}")
    return chr(code), match.end()


def _open_tag(source: str, position: int, text_length: int) -> tuple[_OpenTag, int]:
    name_match = _TAG_NAME.match(source, position + 1)
    name = name_match.group(0).lower() if name_match else ""
    if name not in _SUPPORTED_TAGS:
        raise HtmlError(
            f'Unsupported start tag "{name}" at byte offset {_byte_offset(source, position)}'
        )
    assert name_match is not None
    cursor = name_match.end()
    attributes: dict[str, str] = {}
    while True:
        while cursor < len(source) and source[cursor].isspace():
            cursor += 1
        if cursor >= len(source):
            raise HtmlError(f"Unclosed start tag at byte offset {_byte_offset(source, position)}")
        if source[cursor] == ">":
            break
        attribute = _ATTRIBUTE.match(source, cursor)
        if attribute is None or attribute.end() == cursor:
            raise HtmlError(
                f"Expected equal sign in declaration of an attribute of the tag at byte offset "
                f"{_byte_offset(source, position)}"
            )
        value = attribute.group(2) or ""
        if value[:1] in {'"', "'"}:
            value = value[1:-1]
        attributes[attribute.group(1).lower()] = _unescape_attribute(value)
        cursor = attribute.end()
    if name == "span" and attributes.get("class") != "tg-spoiler":
        raise HtmlError('Tag "span" must have class "tg-spoiler"')
    if name == "tg-emoji" and not attributes.get("emoji-id", "").isdigit():
        raise HtmlError('Tag "tg-emoji" must have attribute "emoji-id" with a custom emoji id')
    return _OpenTag(name, text_length, attributes), cursor + 1


def _unescape_attribute(value: str) -> str:
    return _ENTITY.sub(lambda m: _decode_entity(m.group(0), 0)[0], value)


def _close_tag(
    source: str,
    position: int,
    stack: list[_OpenTag],
    entities: list[dict[str, Any]],
    text_length: int,
) -> int:
    end = source.find(">", position)
    if end == -1:
        raise HtmlError(f"Unclosed end tag at byte offset {_byte_offset(source, position)}")
    name = source[position + 2 : end].strip().lower()
    if not stack:
        raise HtmlError(f"Unexpected end tag at byte offset {_byte_offset(source, position)}")
    tag = stack.pop()
    if name != tag.name:
        raise HtmlError(
            f"Unmatched end tag at byte offset {_byte_offset(source, position)}, "
            f'expected "</{tag.name}>", found "</{name}>"'
        )
    entity = _entity_for(tag, stack, text_length)
    if entity is not None:
        entities.append(entity)
    return end + 1


def _entity_for(tag: _OpenTag, outer: list[_OpenTag], text_length: int) -> dict[str, Any] | None:
    length = text_length - tag.offset
    if length == 0:
        return None
    entity: dict[str, Any] = {"offset": tag.offset, "length": length}
    if tag.name == "a":
        href = tag.attributes.get("href", "")
        user = _USER_LINK.fullmatch(href)
        if user:
            entity.update(
                type="text_mention",
                user={"id": int(user.group(1)), "is_bot": False, "first_name": ""},
            )
        else:
            entity.update(type="text_link", url=href)
    elif tag.name == "span":
        entity["type"] = "spoiler"
    elif tag.name == "blockquote":
        expandable = "expandable" in tag.attributes
        entity["type"] = "expandable_blockquote" if expandable else "blockquote"
    elif tag.name == "tg-emoji":
        entity.update(type="custom_emoji", custom_emoji_id=tag.attributes["emoji-id"])
    elif tag.name == "code" and outer and outer[-1].name == "pre":
        # <pre><code class="language-x"> is one pre entity carrying the language.
        language = tag.attributes.get("class", "")
        if language.startswith("language-"):
            outer[-1].attributes["language"] = language.removeprefix("language-")
        return None
    elif tag.name == "pre" and "language" in tag.attributes:
        entity.update(type="pre", language=tag.attributes["language"])
    else:
        entity["type"] = _SIMPLE_TAGS[tag.name]
    return entity
