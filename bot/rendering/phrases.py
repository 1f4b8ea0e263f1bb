"""A phrase (a Fluent key and its data, `domain.outgoing.Phrase`) written in a language: what a
push, a button's label and a channel post say."""

from __future__ import annotations

from bot.i18n import Translator
from bot.rendering.text import escape
from domain.outgoing import Html, Lines, Localized, Phrase


def ready(markup: str) -> Phrase:
    """Text a renderer of its own already wrote as HTML (a season's rating line, a series'
    clubs), carried as a phrase to be written as it is."""
    return Phrase.of("layout-text", text=Html(markup))


def render_phrase(translator: Translator, locale: str, phrase: Phrase, *, markup: bool) -> str:
    """The phrase's text; plain string arguments are escaped when the text is HTML, names and
    nested phrases are rendered in the same language."""
    args: dict[str, object] = {}
    for name, value in phrase.args:
        if isinstance(value, Html):
            args[name] = value.markup
        elif isinstance(value, Localized):
            text = value.text(locale)
            args[name] = escape(text) if markup else text
        elif isinstance(value, Phrase):
            args[name] = render_phrase(translator, locale, value, markup=markup)
        elif isinstance(value, Lines):
            rendered = [render_phrase(translator, locale, line, markup=markup) for line in value]
            args[name] = value.separator.join(rendered)
        elif isinstance(value, str) and markup:
            args[name] = escape(value)
        else:
            args[name] = value
    return translator.get(locale, phrase.key, **args)
