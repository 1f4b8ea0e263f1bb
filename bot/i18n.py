"""One translator for every text the bot shows, in handlers and in the outbox alike.

Texts are Fluent messages in `bot/locales/<locale>/*.ftl`; every locale holds the same keys
(a test checks). Russian is the community's language and the fallback.
"""

from __future__ import annotations

from decimal import Decimal
from functools import cache
from pathlib import Path

from fluent.runtime import FluentBundle, FluentResource
from fluent.runtime.resolver import MAX_PART_LENGTH

LOCALES_DIR = Path(__file__).parent / "locales"
LOCALES = ("ru", "en")
FALLBACK_LOCALE = "ru"
# The typographic minus of a negative score ("−1"); files for machines keep the ASCII hyphen.
MINUS = "\u2212"


def format_points(value: Decimal | int, locale: str | None = None) -> str:
    """Points without trailing zeros, never in exponent form: "4", "2.5", "-1" for files
    (`locale` None: CSV, JSON keep the dot); "2,5" and "−1" in Russian, "2.5", "−1" in English.
    """
    text = str(value) if isinstance(value, int) else format(value, "f")
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    if text in ("-0", ""):
        text = "0"
    if locale is None:
        return text
    if normalize_locale(locale) == "ru":
        text = text.replace(".", ",")
    return text.replace("-", MINUS)


def normalize_locale(code: str | None) -> str:
    """Map a Telegram `language_code` (e.g. ``en-GB``) to a supported locale."""
    if code:
        base = code.split("-")[0].lower()
        if base in LOCALES:
            return base
    return FALLBACK_LOCALE


class Translator:
    """Renders a message id with arguments in a locale; unknown locales fall back to Russian."""

    def __init__(self, locales_dir: Path = LOCALES_DIR) -> None:
        self._bundles: dict[str, FluentBundle] = {}
        self._keys: dict[str, set[str]] = {}
        for locale in LOCALES:
            bundle = FluentBundle([locale], use_isolating=False)
            keys: set[str] = set()
            for path in sorted((locales_dir / locale).glob("*.ftl")):
                resource = FluentResource(path.read_text(encoding="utf-8"))
                bundle.add_resource(resource)
                keys.update(
                    entry.id.name for entry in resource.body if hasattr(entry, "id") and entry.id
                )
            self._bundles[locale] = bundle
            self._keys[locale] = keys

    def keys(self, locale: str) -> set[str]:
        """Every message id defined for a locale."""
        return set(self._keys[locale])

    def get(self, locale: str | None, key: str, **args: object) -> str:
        """The text of `key` in `locale`; a missing key raises, so a typo never reaches a user."""
        bundle = self._bundles[normalize_locale(locale)]
        message = bundle.get_message(key)
        if message is None or message.value is None:
            raise KeyError(f"no message {key!r} in locale {normalize_locale(locale)!r}")
        # Points are shown the locale's way; Fluent's own number formatting would round them.
        shown = {
            name: format_points(value, locale) if isinstance(value, Decimal) else value
            for name, value in args.items()
        }
        long = {
            name: value
            for name, value in shown.items()
            if isinstance(value, str) and len(value) > MAX_PART_LENGTH
        }
        # Fluent refuses a placeable over 2,500 characters (a guard against runaway
        # translations); the bot's own long texts, such as a channel post's tables, go in after
        # formatting, each behind a marker no translation contains.
        markers = {name: f"\ue000{index}\ue001" for index, name in enumerate(long)}
        text, errors = bundle.format_pattern(message.value, {**shown, **markers})
        if errors:
            raise ValueError(f"message {key!r}: {errors[0]}")
        assert isinstance(text, str)  # Fluent gives a string whenever it reports no error
        for name, marker in markers.items():
            text = text.replace(marker, long[name])
        return text


@cache
def translator() -> Translator:
    """The process-wide translator (the .ftl files are read once)."""
    return Translator()
