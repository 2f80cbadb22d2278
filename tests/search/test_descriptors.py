"""One place per algorithm: app/search/descriptors.py. Every other file reads
the records; none spells out a list of algorithm ids (two or more ids, as
strings or as the keys of a map, in one line or one bracketed literal)."""
from __future__ import annotations

import re
from pathlib import Path

from app.search import SearchOptions, run
from app.search.descriptors import ALGORITHMS, REGISTRY, default_for, document, get

REPO = Path(__file__).resolve().parents[2]
HOME = {"app/search/descriptors.py",
        "app/search/pseudocode.py"}   # (the listings the records name by their `listing`)
IDS = "|".join(sorted(map(re.escape, ALGORITHMS), key=len, reverse=True))
# An id as a whole string ('alphabeta', "maxn") or as a key ({alphabeta: ...}).
MENTION = re.compile(rf"""(['"])({IDS})\1|(?<![\w.'"-])({IDS})\s*:(?!:)""")


def sources() -> list[Path]:
    files = [*REPO.glob("app/**/*.py"), *REPO.glob("static/js/*.js"),
             *REPO.glob("templates/**/*.html")]
    return [p for p in files if str(p.relative_to(REPO)) not in HOME]


def literals(text: str):
    """Each line, and each bracketed literal spanning lines (to its closing bracket)."""
    yield from (line for line in text.splitlines() if not line.startswith("__all__"))
    for m in re.finditer(r"[\[({]\s*\n", text):
        depth, i = 1, m.end()
        while depth and i < len(text) and i - m.end() < 2000:
            depth += text[i] in "[({"
            depth -= text[i] in "])}"
            i += 1
        yield text[m.start():i]


def lists_of_ids(text: str) -> list[str]:
    found = []
    for piece in literals(text):
        ids = {m.group(2) or m.group(3) for m in MENTION.finditer(piece)}
        if len(ids) >= 2:
            found.append(piece.strip()[:120])
    return found


def test_no_other_file_spells_out_a_list_of_algorithms():
    offenders = {str(p.relative_to(REPO)): hits for p in sources()
                 if (hits := lists_of_ids(p.read_text(encoding="utf-8")))}
    assert not offenders, offenders


def test_the_check_sees_a_list():
    # (the check itself: each of these is a list of algorithm ids)
    assert lists_of_ids("ALGORITHMS = ('minimax', 'alphabeta')")
    assert lists_of_ids("const N = {\n  alphabeta: t('a'),\n  minimax: t('m'),\n};")
    assert lists_of_ids("if alg in (\n    \"maxn\",\n    \"iterative\",\n):")
    assert not lists_of_ids("if alg == 'minimax': pass  # not a list")


def test_the_records():
    assert ALGORITHMS == tuple(a.id for a in REGISTRY) and len(set(ALGORITHMS)) == len(ALGORITHMS)
    doc = document()
    assert [a["id"] for a in doc["algorithms"]] == list(ALGORITHMS)
    # every record's generator and narrator load, and its listing exists
    for a in REGISTRY:
        assert callable(a.generator) and hasattr(a.narrator_class, "narrate")
    assert get("star1").leaf_bounds and get("star1").chance == "accepts"
    assert (default_for(False, False), default_for(True, True), default_for(False, True)) \
        == ("alphabeta", "maxn", "expectiminimax")


def test_an_event_kind_a_record_does_not_name_is_never_made():
    from app.treefile import load_path
    for stem, alg in (("aima-fig-5-2", "alphabeta"), ("star1-prunes", "star1"),
                      ("aima-fig-5-12", "expectiminimax"), ("itb-three-player", "maxn"),
                      ("aima-fig-5-2", "minimax")):
        kinds = {e["type"] for e in run(load_path(REPO / "trees" / f"{stem}.yaml"),
                                        SearchOptions(algorithm=alg))}
        assert kinds <= set(get(alg).events), (alg, kinds)
