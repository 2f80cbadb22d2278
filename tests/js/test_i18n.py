"""static/js/core/i18n.js, the page's words, under Node against app.i18n.

The page says a catalogue message with ``t(id, fields)`` from the catalogue
the server serves (``GET /i18n/<lang>.json`` = :func:`app.i18n.js_messages`);
the server and the core's narrator say the same message with
:func:`app.i18n.words`. Every message of the page's catalogue, filled with
the same fields, must read the same on both sides, in English and in
Bahasa Indonesia; numbers are written as CLDR says (Babel's tables, which
the server's catalogues come with).
"""
from __future__ import annotations

import re

from babel.numbers import format_decimal

from app.i18n import LANGUAGES, js_messages, words

NUMBERS = [0, 7, 999, 1000, 12345, 1234567, -4200, 2.5]


def fields_of(msgid: str) -> dict:
    """A distinct value for each ``{name}`` field: numbers and words in turn."""
    names = dict.fromkeys(re.findall(r"\{(\w+)\}", msgid))
    return {name: (i * 7 + 3 if i % 2 else f"«{name}»") for i, name in enumerate(names)}


def test_i18n_js_says_every_page_message_as_the_server_does(node_test):
    msgids = sorted(js_messages("id"))
    assert len(msgids) > 100 and sum("{" in m for m in msgids) > 50
    msgids.append("A sentence no catalogue holds: {n}")   # falls back to English
    langs = {}
    for lang in LANGUAGES:
        say = words(lang)
        cases = [[m, fields_of(m), say(m, **fields_of(m))] for m in msgids]
        # A field the caller left out stays visible as {name} (never "undefined").
        cases += [[m, {}, say(m, **{k: f"{{{k}}}" for k in fields_of(m)})] for m in msgids[:20]]
        langs[lang] = {"catalogue": js_messages(lang), "cases": cases,
                       "numbers": [[n, format_decimal(n, locale=lang)] for n in NUMBERS]}
    assert langs["id"]["cases"][0][2] != langs["en"]["cases"][0][2]   # translated indeed
    node_test("i18n.test.mjs", {"langs": langs}, tests=2 * len(LANGUAGES) + 1)
