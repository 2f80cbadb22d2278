"""One place per algorithm: app/search/descriptors.py. Every other file reads
the records; none spells out a list of algorithm ids: two or more ids, as
strings, as the keys of a map or a call's keywords (``dict(alphabeta=...)``), in
one line or one bracketed literal, in one string cut by ``.split()``, or one id
a line in a chain of comparisons (``==``/``===``/``case``/``value="..."``
joined by ``or``, ``||``, ``elif``, ``match``, ``<option>`` lines). Python, every
folder of ``static/js``, templates; docs and the README name them all where
they enumerate them (``minimax|alphabeta|...``)."""
from __future__ import annotations

import re
from pathlib import Path

from app.search import SearchOptions, run
from app.search.descriptors import ALGORITHMS, REGISTRY, Algorithm, default_for, document, get

REPO = Path(__file__).resolve().parents[2]
HOME = {"app/search/descriptors.py",
        "app/search/pseudocode.py"}   # (the listings the records name by their `listing`)
IDS = "|".join(sorted(map(re.escape, ALGORITHMS), key=len, reverse=True))
# An id as a whole string ('alphabeta', "maxn"), as a key ({alphabeta: ...}) or a
# keyword (dict(alphabeta=...)).
MENTION = re.compile(rf"""(['"])({IDS})\1|(?<![\w.'"-])({IDS})\s*(?::(?!:)|=(?!=))""")
# One id compared: `== "maxn"`, `=== 'mcts'`, `case "star1"`, `value="minimax"` (an <option>).
COMPARED = re.compile(rf"""(?:[=!]==?|\bcase|\bvalue=)\s*(['"])({IDS})\1(?![\w-])""")
# "Is this X?": an algorithm compared with one id (its record's field answers instead).
ASKED = re.compile(rf"""\balg\w*\s*[!=]==?\s*(['"])({IDS})\1""", re.I)
CHAIN = 12
"""Lines within which two ids compared one a line make one list (an if/elif chain, a match)."""
# One string of several ids cut by .split(): "minimax alphabeta".split()
SPLIT = re.compile(r"""(['"])([^'"\n]*)\1\s*\.split\(""")
# A docs' enumeration: `minimax|alphabeta|...`
ENUMERATION = re.compile(rf"""\b(?:{IDS})(?:\s*\|\s*(?:{IDS})\b)+""")
ALLOWED: dict[str, str] = {
    # file -> why it may spell ids out for now (each named, none silently)
}


def sources(root: Path = REPO) -> list[Path]:
    files = [*root.glob("app/**/*.py"), *root.glob("static/js/**/*.js"),
             *root.glob("templates/**/*.html")]
    return [p for p in files if str(p.relative_to(root)) not in HOME]


def docs(root: Path = REPO) -> list[Path]:
    return [root / "README.md", *root.glob("docs/**/*.md")]


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
    for m in SPLIT.finditer(text):
        if len(set(re.split(r"[\s,|]+", m.group(2))) & set(ALGORITHMS)) >= 2:
            found.append(m.group(0)[:120])
    found += [f"asks: {m.group(0)}" for m in ASKED.finditer(text)]
    lines = text.splitlines()
    compared = [(i, m.group(2)) for i, line in enumerate(lines)
                for m in COMPARED.finditer(line)]
    for k, (i, first) in enumerate(compared):
        near = {alg for j, alg in compared[k:] if j - i <= CHAIN}
        if len(near) >= 2 and (k == 0 or i - compared[k - 1][0] > CHAIN):
            found.append(f"line {i + 1}: " + " / ".join(sorted(near)))
    return found


def partial_enumerations(text: str) -> list[str]:
    """Enumerations of ids (``a|b|c``) that leave some out."""
    return [m.group(0) for m in ENUMERATION.finditer(text)
            if set(re.split(r"\s*\|\s*", m.group(0))) != set(ALGORITHMS)]


def test_no_other_file_spells_out_a_list_of_algorithms():
    offenders = {name: hits for p in sources()
                 if (hits := lists_of_ids(p.read_text(encoding="utf-8")))
                 and (name := str(p.relative_to(REPO))) not in ALLOWED}
    assert not offenders, offenders


def test_the_docs_name_every_algorithm_where_they_list_them():
    offenders = {str(p.relative_to(REPO)): hits for p in docs()
                 if (hits := partial_enumerations(p.read_text(encoding="utf-8")))}
    assert not offenders, offenders
    for name in ("README.md", "docs/cli.md"):
        text = (REPO / name).read_text(encoding="utf-8")
        assert not [a for a in ALGORITHMS if f"`{a}`" not in text and f"|{a}" not in text
                    and f"{a}|" not in text], name


def test_the_check_sees_a_list():
    # (the check itself: each of these is a list of algorithm ids)
    assert lists_of_ids("ALGORITHMS = ('minimax', 'alphabeta')")
    assert lists_of_ids("const N = {\n  alphabeta: t('a'),\n  minimax: t('m'),\n};")
    assert lists_of_ids("if alg in (\n    \"maxn\",\n    \"iterative\",\n):")
    assert not lists_of_ids("listing = 'minimax'  # one id, not a list")


def test_the_check_sees_one_id_a_line_and_the_other_forms():
    # (each form of issue 29, caught; each near miss, not)
    assert lists_of_ids("if kind == 'expectiminimax':\n    x()\nelif kind == 'maxn':\n    y()")
    assert lists_of_ids("ok = (alg === 'minimax'\n  || alg === 'alphabeta');")
    assert lists_of_ids("ok = (alg == 'minimax'\n      or alg == 'alphabeta')")
    assert lists_of_ids("match alg:\n    case 'star1':\n        pass\n    case 'mcts':\n        pass")
    assert lists_of_ids("NAMES = dict(alphabeta='a', minimax='m')")
    assert lists_of_ids("IDS = 'minimax alphabeta maxn'.split()")
    assert lists_of_ids('<select>\n  <option value="minimax">M</option>\n'
                        '  <option value="alphabeta">A</option>\n</select>')
    assert lists_of_ids("{% if alg == 'minimax' %}a{% elif alg == 'pvs' %}b{% endif %}")
    assert not lists_of_ids("if k == 'minimax':\n" + "    pass\n" * 20 + "if x == 'maxn': pass")
    assert not lists_of_ids("minimax = run(tree)\nprint(minimax)")
    assert lists_of_ids("const how = opts.algorithm === 'minimax' ? 'minimax' : 'alpha-beta';")
    assert lists_of_ids("if (doc.algorithm !== 'maxn') delete doc.algorithm;")
    assert not lists_of_ids("if (panel === 'mcts') show();")
    assert partial_enumerations("--algorithm minimax|alphabeta|maxn")
    assert not partial_enumerations("--algorithm " + "|".join(ALGORITHMS))


def test_the_check_reads_every_folder_of_the_page_and_the_docs(tmp_path):
    for name in ("static/js/a.js", "static/js/practice/b.js", "static/js/class/deep/c.js",
                 "templates/x/y.html", "app/web/z.py", "docs/more/d.md", "README.md"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("", encoding="utf-8")
    seen = {str(p.relative_to(tmp_path)) for p in sources(tmp_path) + docs(tmp_path)}
    assert seen == {"static/js/a.js", "static/js/practice/b.js", "static/js/class/deep/c.js",
                    "templates/x/y.html", "app/web/z.py", "docs/more/d.md", "README.md"}


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
                      ("aima-fig-5-2", "minimax"), ("aima-fig-5-2", "pvs")):
        kinds = {e["type"] for e in run(load_path(REPO / "trees" / f"{stem}.yaml"),
                                        SearchOptions(algorithm=alg))}
        assert kinds <= set(get(alg).events), (alg, kinds)


def test_every_reason_a_record_gives_is_translated():
    from app.i18n import words
    said = words("id")
    reasons = [msgid for a in REGISTRY for _, msgid in a.reasons]
    assert reasons and all(said(m) != m for m in reasons), [m for m in reasons if said(m) == m]


RETIRED = ("sampled",)
"""Catch-all flags the record no longer has (issue 29: ``sampled`` meant five
things): each layer reads the named field it needs (``options``, ``questions``,
``panel``, ``compact``, ``whatif``, ``worksheet``, ``controls``, ``reasons``)."""
_FLAG = "|".join(RETIRED)
READS_RETIRED = re.compile(rf"""(?:\?\.|\.|\[['"])({_FLAG})\b(?!['"]?\s*=[^=])|\b({_FLAG})\s*\(""")
"""A record's field read (``rec.sampled``, ``rec?.sampled``, ``rec["sampled"]``) or its predicate called."""
FIELD_READ = re.compile(r"""BY_ID\.get\(\w+\)\?\.(\w+)|\ba\.(\w+)""")
"""What algorithms.js (the pages' one reader of the records) reads off a record."""


def reads_of_retired_flags(text: str) -> list[str]:
    return [m.group(0) for m in READS_RETIRED.finditer(text)]


def test_no_layer_reads_a_catch_all_flag():
    assert not set(RETIRED) & set(Algorithm.__dataclass_fields__)
    assert not set(RETIRED) & set(document()["algorithms"][0])
    offenders = {str(p.relative_to(REPO)): hits for p in sources() + [REPO / "app/search/descriptors.py"]
                 if (hits := reads_of_retired_flags(p.read_text(encoding="utf-8")))}
    assert not offenders, offenders


def test_the_check_sees_a_catch_all_flag_read():
    assert reads_of_retired_flags("if (sampled(params.algorithm)) {")
    assert reads_of_retired_flags("const on = BY_ID.get(id)?.sampled;")
    assert reads_of_retired_flags('if rec.sampled or rec["sampled"]:')
    assert not reads_of_retired_flags("st.sampled_from(ORDERS)  # a long run's iterations sampled evenly")


def test_the_page_reads_only_fields_the_records_have():
    text = (REPO / "static/js/core/algorithms.js").read_text(encoding="utf-8")
    read = {m.group(1) or m.group(2) for m in FIELD_READ.finditer(text)}
    assert read and read <= set(document()["algorithms"][0]), read - set(document()["algorithms"][0])
