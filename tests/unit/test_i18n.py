"""Russian and English hold the same texts, and every text the code asks for exists."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from bot.i18n import LOCALES, normalize_locale, translator

ROOT = Path(__file__).resolve().parents[2]
CODE_DIRS = ("bot", "handlers", "domain", "harness")


def _message_ids_used_in_code() -> set[tuple[str, str]]:
    """Literal message ids passed to `texts(...)`, `Texts(...)(...)`, `Phrase.of(...)` (an
    outbox message rendered at send time) or `translator().get(...)`.

    Dynamic ids (an f-string) are checked by the tests of the feature that builds them.
    """
    used: set[tuple[str, str]] = set()
    for folder in CODE_DIRS:
        for path in (ROOT / folder).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if not isinstance(node, ast.Call):
                    continue
                func = node.func
                args = node.args
                calls_texts = isinstance(func, ast.Name) and func.id == "texts"
                calls_bound_texts = (
                    isinstance(func, ast.Call) and getattr(func.func, "id", None) == "Texts"
                )
                makes_phrase = (
                    isinstance(func, ast.Attribute)
                    and func.attr == "of"
                    and getattr(func.value, "id", None) == "Phrase"
                )
                if calls_texts or calls_bound_texts or makes_phrase:
                    key = args[0] if args else None
                elif (
                    isinstance(func, ast.Attribute)
                    and func.attr == "get"
                    and (
                        isinstance(func.value, ast.Call)
                        and getattr(func.value.func, "id", None) == "translator"
                    )
                ):
                    key = args[1] if len(args) > 1 else None
                else:
                    continue
                if isinstance(key, ast.Constant) and isinstance(key.value, str):
                    used.add((str(path.relative_to(ROOT)), key.value))
    return used


def test_both_languages_have_the_same_message_ids() -> None:
    ru, en = (translator().keys(locale) for locale in ("ru", "en"))
    assert ru - en == set(), "only in ru"
    assert en - ru == set(), "only in en"


def test_every_message_id_used_in_code_exists() -> None:
    used = _message_ids_used_in_code()
    assert used, "the scan found no message ids: it no longer matches how the code asks"
    missing = {(path, key) for path, key in used if key not in translator().keys("ru")}
    assert missing == set()


@pytest.mark.parametrize("locale", LOCALES)
def test_every_message_renders_without_fluent_errors(locale: str) -> None:
    bundle_keys = translator().keys(locale)
    for key in bundle_keys:
        try:
            translator().get(locale, key)
        except ValueError as error:
            # A message with variables may complain only about the variables it was not given.
            assert "Unknown external" in str(error), f"{locale}:{key}: {error}"


def test_telegram_language_codes_map_to_a_supported_locale() -> None:
    assert normalize_locale("en-GB") == "en"
    assert normalize_locale("uk") == "ru"
    assert normalize_locale(None) == "ru"


def test_an_unknown_message_id_is_an_error_not_a_blank_text() -> None:
    with pytest.raises(KeyError):
        translator().get("en", "no-such-message")
