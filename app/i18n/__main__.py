"""Keep the catalogues in step with the code: ``python -m app.i18n update``.

1. extracts every message (``_()`` in templates and Python, ``t()`` in the
   page's scripts, ``N_()`` and ``say()`` where a message is only marked)
   into ``translations/messages.pot`` (``file_error()`` too, for tree files);
2. merges it into each language's ``messages.po``: new messages arrive with an
   empty translation (``tests/i18n`` then fails until someone writes it),
   changed ones are marked fuzzy.

``python -m app.i18n check`` lists the messages still untranslated.
"""
from __future__ import annotations

import os
import sys

from babel.messages.frontend import CommandLineInterface

from . import TRANSLATIONS, compile_catalogues
from .catalogue import REPO, KEYWORDS, untranslated


def main(argv: list[str]) -> int:
    command = argv[0] if argv else "update"
    if command == "update":
        pot = TRANSLATIONS / "messages.pot"
        keywords = [arg for k in KEYWORDS for arg in ("-k", k)]
        cli = CommandLineInterface()
        os.chdir(REPO)  # locations relative to the repository: static/js/... marks the page's
        cli.run(["pybabel", "-q", "extract", "-F", "babel.cfg", *keywords,
                 "--add-location=file", "--sort-by-file", "--no-wrap", "--omit-header",
                 "-o", str(pot), "."])
        cli.run(["pybabel", "-q", "update", "-i", str(pot), "-d", str(TRANSLATIONS),
                 "--no-wrap", "--ignore-obsolete", "--ignore-pot-creation-date"])
        compile_catalogues()
        command = "check"
    if command == "check":
        missing = untranslated()
        for lang, msgid in missing:
            print(f"{lang}: {msgid}")
        return 1 if missing else 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
