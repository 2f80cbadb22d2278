"""What the catalogues must hold: the messages of the code, found the way
``pybabel extract`` finds them (``babel.cfg``), and which of them a
language still lacks. ``tests/i18n`` fails on any."""
from __future__ import annotations

from pathlib import Path

from . import DEFAULT, DOMAIN, LANGUAGES, TRANSLATIONS

REPO = Path(__file__).resolve().parents[2]
KEYWORDS = ("_", "gettext", "ngettext:1,2", "lazy_gettext", "t", "N_", "tell", "file_error",
            "phrase", "json_error", "argument_error:2", "SearchError", "api_error:2",
            "refusal", "doc_error", "Refused", "said", "ClassError:2",
            "QuestionError", "AnswerError", "_inner:3", "_not_shown:3",
            "RenderFailed:2", "UnknownGame", "StoreFull", "AssignmentError",
            "BadRandomSpec", "BadPosition")


def code_messages() -> set[str]:
    """Every message id the code marks, extracted from the sources now."""
    from babel.messages.extract import extract_from_dir
    from babel.messages.frontend import parse_mapping_cfg

    with open(REPO / "babel.cfg", encoding="utf-8") as f:
        method_map, options_map = parse_mapping_cfg(f)
    keywords = {}
    for k in KEYWORDS:
        name, _, spec = k.partition(":")
        keywords[name] = tuple(int(x) for x in spec.split(",")) if spec else None
    found = set()
    for _file, _line, message, _comments, _context in extract_from_dir(
            str(REPO), method_map, options_map, keywords=keywords):
        msgid = message[0] if isinstance(message, (tuple, list)) else message
        if msgid:
            found.add(msgid)
    return found


def read_catalogue(lang: str):
    from babel.messages.pofile import read_po

    with open(TRANSLATIONS / lang / "LC_MESSAGES" / f"{DOMAIN}.po", "rb") as f:
        return read_po(f, locale=lang)


def untranslated() -> list[tuple[str, str]]:
    """(language, message id) of every message of the code that a
    language's catalogue lacks, leaves empty or marks fuzzy."""
    wanted = code_messages()
    out = []
    for lang in LANGUAGES:
        if lang == DEFAULT:
            continue
        catalog = read_catalogue(lang)
        for msgid in sorted(wanted):
            m = catalog.get(msgid)
            if m is None or not m.string or m.fuzzy:
                out.append((lang, msgid))
    return out
