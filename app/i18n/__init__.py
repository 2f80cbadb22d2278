"""English and Bahasa Indonesia: the gettext catalogues every part reads.

One catalogue per language, ``translations/<lang>/LC_MESSAGES/messages.po``,
holds every sentence a person reads: page text (through Flask-Babel), the
page's JavaScript strings (sent to the browser by :func:`js_messages`), the
narration of a search (through :func:`words`, which the pure core takes as a
plain callable) and the command line's text output. English is the message
id itself, so English needs no catalogue.

The binary ``.mo`` files are compiled from the ``.po`` files when they are
missing or older (:func:`compile_catalogues`, run at start-up by the web app
and the command line), so a fresh checkout needs no build step and nobody
regenerates committed binaries by hand.

>>> words("en")("Leaf {leaf} has value {value}.", leaf="b1", value="3")
'Leaf b1 has value 3.'
>>> best_language("id-ID,id;q=0.9,en;q=0.8")
'id'
>>> best_language("fr-FR") is None
True
"""
from __future__ import annotations

import functools
import gettext
import os
import tempfile
import threading
from pathlib import Path

TRANSLATIONS = Path(__file__).resolve().parents[2] / "translations"
DOMAIN = "messages"
DEFAULT = "en"
LANGUAGES = {"en": "English", "id": "Bahasa Indonesia"}
"""The languages a person can choose, each named in its own language."""

_compiled = threading.Lock()
_done: set[Path] = set()


def N_(message: str) -> str:
    """Mark ``message`` for the catalogue without translating it (yet)."""
    return message


def compile_catalogues(directory: Path = TRANSLATIONS) -> list[Path]:
    """Compile every ``.po`` under ``directory`` whose ``.mo`` is missing or
    older; return the ``.mo`` files written. Safe when several processes
    start at once: each file is written aside and moved into place."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    written = []
    with _compiled:
        for po in sorted(Path(directory).glob(f"*/LC_MESSAGES/{DOMAIN}.po")):
            mo = po.with_suffix(".mo")
            if mo in _done and mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
                continue
            if not mo.exists() or mo.stat().st_mtime < po.stat().st_mtime:
                with po.open("rb") as f:
                    catalog = read_po(f, locale=po.parts[-3])
                fd, tmp = tempfile.mkstemp(dir=mo.parent, suffix=".mo.tmp")
                with os.fdopen(fd, "wb") as out:
                    write_mo(out, catalog, use_fuzzy=False)
                os.replace(tmp, mo)
                written.append(mo)
            _done.add(mo)
    return written


@functools.lru_cache(maxsize=8)
def translations(lang: str) -> gettext.NullTranslations:
    """The stdlib translations of ``lang`` (English: none, the ids are English)."""
    if lang not in LANGUAGES or lang == DEFAULT:
        return gettext.NullTranslations()
    compile_catalogues()
    return gettext.translation(DOMAIN, str(TRANSLATIONS), languages=[lang], fallback=True)


def language(lang: str | None) -> str:
    """``lang`` if it is offered, else English."""
    return lang if lang in LANGUAGES else DEFAULT


def words(lang: str | None):
    """``say(msgid, **fields)``: the message in ``lang`` with its named
    fields filled in (``{name}`` style). The search core's narrator takes
    this callable, so the core itself stays free of catalogues."""
    if language(lang) == DEFAULT:
        return _english
    lookup = translations(language(lang)).gettext

    def say(msgid: str, **fields) -> str:
        return lookup(msgid).format(**fields) if fields else lookup(msgid)

    return say


def error_message(exc, lang: str | None) -> str:
    """A tree file's error (:class:`app.treefile.TreeFileError`) in ``lang``:
    its catalogue message when it has one, else its English sentence."""
    msgid = getattr(exc, "msgid", None)
    if msgid is None or language(lang) == DEFAULT:
        return exc.message
    return _say(translations(language(lang)).gettext, msgid, exc.fields)


def message_in(msgid: str, fields: dict, lang: str | None) -> str:
    """The catalogue message ``msgid`` in ``lang``, its ``{named}`` fields
    filled (those that are catalogue phrases said in ``lang`` too).

    >>> message_in("The upload is larger than {size:,} KiB.", {"size": 2048}, "en")
    'The upload is larger than 2,048 KiB.'
    """
    lookup = (_english_lookup if language(lang) == DEFAULT
              else translations(language(lang)).gettext)
    return _say(lookup, msgid, fields)


def _english_lookup(msgid: str) -> str:
    return msgid


def _say(lookup, msgid: str, fields: dict) -> str:
    """``msgid`` in a language, its fields too where they are catalogue
    phrases themselves (``app.treefile.errors.Phrase``: "a list", a key's name)."""
    said = {k: _say(lookup, v.msgid, v.fields) if hasattr(v, "msgid") else v
            for k, v in fields.items()}
    return lookup(msgid).format(**said) if said else lookup(msgid)


def _english(msgid: str, **fields) -> str:
    return msgid.format(**fields) if fields else msgid


def best_language(accept: str | None) -> str | None:
    """The offered language a browser's ``Accept-Language`` prefers, or None."""
    if not accept:
        return None
    ranked = []
    for i, part in enumerate(accept.split(",")):
        tag, _, params = part.strip().partition(";")
        q = 1.0
        if params.strip().startswith("q="):
            try:
                q = float(params.strip()[2:])
            except ValueError:
                q = 0.0
        primary = tag.strip().lower().split("-")[0]
        if primary in LANGUAGES and q > 0:
            ranked.append((-q, i, primary))
    return min(ranked)[2] if ranked else None


def chosen_language(asked: str | None, cookie: str | None, accept: str | None) -> str:
    """A request's language, as a page's is chosen: ``?lang=``, then the ``lang``
    cookie, then ``Accept-Language``; English when none says one we have.

    >>> chosen_language("xx", "id", "en"), chosen_language(None, None, "fr, id;q=0.5")
    ('id', 'id')
    """
    for said in (asked, cookie):
        if said in LANGUAGES:
            return said
    return best_language(accept) or DEFAULT


_PAGE_SAYS = ("static/js/", "app/search/narrate", "app/search/sentences",   # the narration's table
              "app/search/states")   # a game's moves in words (static/js/core/move-words.js)
"""Where the messages the page's scripts say are written."""


@functools.lru_cache(maxsize=8)
def js_messages(lang: str) -> dict[str, str]:
    """The translated messages the page's scripts use (``static/js``), as
    ``{msgid: msgstr}``; read from the same ``.po`` the server uses."""
    if language(lang) == DEFAULT:
        return {}
    from babel.messages.pofile import read_po

    po = TRANSLATIONS / lang / "LC_MESSAGES" / f"{DOMAIN}.po"
    with po.open("rb") as f:
        catalog = read_po(f, locale=lang)
    out = {}
    for message in catalog:
        if not message.id or message.fuzzy or not message.string:
            continue
        # The page's own words, and the narration it says itself (static/js/core/narrate.js).
        if any(path.startswith(_PAGE_SAYS) for path, _ in message.locations):
            out[message.id] = message.string
    return out


# Comments the ITB lecture writes beside the AIMA pseudocode ("v ← ∞ → nilai
# maks.", "α mengubah nilai maks.", pruning "tidak mengubah hasil akhir"):
# shown in a language whose catalogue has them; the English listing is
# AIMA's own, without comments.
_NOTES = (
    ("v ← +∞", N_("the largest value")),
    ("α ← MAX(α, v)", N_("α changes the largest value")),
    ("if v ≥ β then return v", N_("pruning does not change the final result")),
    ("if v ≤ α then return v", N_("pruning does not change the final result")),
)


def pseudocode_notes(listings: dict, lang: str | None) -> dict:
    """``listings`` (formulation -> lines) with the lecture's comments in
    ``lang`` after the AIMA lines that have one; line numbers unchanged.

    >>> pseudocode_notes({"aima": ["  v ← +∞"]}, "id")["aima"][0]
    '  v ← +∞   ▷ nilai maks.'
    """
    if language(lang) == DEFAULT or "aima" not in listings:
        return listings
    say = translations(language(lang)).gettext
    lines = []
    for line in listings["aima"]:
        for code, note in _NOTES:
            if line.strip() == code:
                line = f"{line}   ▷ {say(note)}"
                break
        lines.append(line)
    return {**listings, "aima": lines}
