"""The time zones an organizer picks from by button, named as the community says them
("Омск (МСК+3)"); a zone off the list is typed as its IANA name and shown so."""

from __future__ import annotations

from aiogram.utils.keyboard import InlineKeyboardBuilder

from domain.layout import phrase
from domain.outgoing import Phrase
from handlers.callbacks import WizardKeep
from handlers.middlewares import Texts

# West to east; the key names the zone in Fluent (`timezone-name`).
ZONES = {
    "kaliningrad": "Europe/Kaliningrad",
    "moscow": "Europe/Moscow",
    "samara": "Europe/Samara",
    "yekaterinburg": "Asia/Yekaterinburg",
    "omsk": "Asia/Omsk",
    "novosibirsk": "Asia/Novosibirsk",
    "krasnoyarsk": "Asia/Krasnoyarsk",
    "irkutsk": "Asia/Irkutsk",
    "yakutsk": "Asia/Yakutsk",
    "vladivostok": "Asia/Vladivostok",
}
_KEYS = {zone: key for key, zone in ZONES.items()}


def zone_name(zone: str) -> Phrase:
    """The zone as the reader knows it, or its IANA name when it is off the list."""
    key = _KEYS.get(zone)
    return Phrase.of("timezone-name", zone=key) if key else phrase(zone)


def add_zone_buttons(keyboard: InlineKeyboardBuilder, default: str, texts: Texts) -> None:
    """A button per listed zone, and the bot's default zone when it is not among them."""
    for key in ZONES:
        keyboard.button(
            text=texts("timezone-name", zone=key),
            callback_data=WizardKeep(step="timezone", value=key),
        )
    if default not in _KEYS:
        keyboard.button(
            text=texts("wizard-keep-timezone", timezone=default),
            callback_data=WizardKeep(step="timezone"),
        )
    keyboard.adjust(2)
