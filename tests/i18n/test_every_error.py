"""Every error a tree-file reader or an API argument check can raise is a
catalogue message: said in Indonesian, whole (its parts too), at the same
line and column as in English.

Two nets: the raise sites themselves (no reader builds an error from a bare
English string), and a corpus of bad inputs driven through the readers and
the HTTP API in both languages."""
from __future__ import annotations

import ast
import importlib.util
import re
from pathlib import Path

import pytest

from app.i18n import error_message
from app.search.descriptors import ALGORITHMS
from app.i18n.catalogue import read_catalogue
from app.treefile import TreeFileError, load_path, load_tree
from app.treefile.errors import Phrase
from tests.i18n.helpers import assert_refused_in_both

REPO = Path(__file__).resolve().parents[2]
# The error classes a message may not be built into by hand, and where they may.
CONSTRUCTORS = {"TreeFileError", "TreeTooLarge", "BadArgument"}
# Errors that may pass on a sentence already said (``str(exc)``, ``exc.message``)
# but not be given an English one (a literal, an f-string, a sum): argument index.
SENTENCE_AT = {"ApiError": 1, "OverBudget": 0, "DocumentError": 0}
# The makers take a catalogue message id: a literal, never one built here (an
# f-string's text is not in the catalogue): argument index of the id.
MSGID_AT = {"file_error": 0, "argument_error": 1, "api_error": 1, "refusal": 0, "doc_error": 0,
            "Refused": 0, "SearchError": 0}
MAKERS = {("app/treefile/errors.py", "file_error"), ("app/web/params.py", "argument_error"),
          ("app/web/params.py", "refused_by_record"),   # (the records' reasons: each translated)
          ("app/web/errors.py", "api_error"), ("app/budget.py", "refusal"),
          ("app/whatif/document.py", "doc_error")}
CHECKED = sorted([*(REPO / "app/treefile").glob("*.py"), *(REPO / "app/whatif").glob("*.py"),
                  REPO / "app/budget.py",
                  *(REPO / "app/web" / f for f in ("params.py", "export.py", "classes.py",
                                                   "practice.py", "sockets.py", "play.py",
                                                   "api.py", "editor.py", "editor_sockets.py",
                                                   "errors.py", "class_sockets.py"))])


def _bare(node) -> bool:
    """A sentence written here in English: a literal, an f-string, or built of them."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    if isinstance(node, ast.JoinedStr):
        return True
    if isinstance(node, ast.BinOp):
        return _bare(node.left) or _bare(node.right)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        return node.func.attr == "format" and _bare(node.func.value)
    return False


def _hand_made(path: Path, rel: str | None = None) -> list[str]:
    """``file:line`` of every error built from a bare string, outside the makers."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    rel = rel or path.relative_to(REPO).as_posix()
    allowed = {name for file, name in MAKERS if file == rel}
    found = []

    def visit(node, inside):
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            inside = node.name
        if isinstance(node, ast.Call) and inside not in allowed:
            name = getattr(node.func, "id", getattr(node.func, "attr", None))
            at = SENTENCE_AT.get(name)
            if name in CONSTRUCTORS or (at is not None and len(node.args) > at
                                        and _bare(node.args[at])):
                found.append(f"{rel}:{node.lineno}")
        if isinstance(node, ast.Call):
            name = getattr(node.func, "id", getattr(node.func, "attr", None))
            at = MSGID_AT.get(name)
            if at is not None and len(node.args) > at and _bare(node.args[at]) \
                    and not isinstance(node.args[at], ast.Constant):
                found.append(f"{rel}:{node.lineno}")
        for child in ast.iter_child_nodes(node):
            visit(child, inside)

    visit(tree, None)
    return found


def test_no_error_is_built_from_a_bare_english_string():
    assert [site for path in CHECKED for site in _hand_made(path)] == []


def test_the_scan_would_see_a_hand_made_error(tmp_path):
    """The scan is not blind: a reader that builds its own error is caught."""
    bad = tmp_path / "probe.py"
    bad.write_text("def f():\n    raise TreeFileError('oops', 1, 1)\n\n\n"
                   "def file_error():\n    return TreeTooLarge('fine here', 1, 1)\n",
                   encoding="utf-8")
    assert _hand_made(bad, "app/treefile/probe.py") == ["app/treefile/probe.py:2",
                                                        "app/treefile/probe.py:6"]
    assert _hand_made(bad, "app/treefile/errors.py") == ["app/treefile/errors.py:2"]


def test_the_scan_would_see_an_english_api_or_budget_sentence(tmp_path):
    """An answer given an English sentence is caught; one passing on a said one is not."""
    bad = tmp_path / "probe.py"
    bad.write_text("def f(exc, n):\n"
                   "    raise ApiError(413, f'larger than {n} KiB')\n"
                   "    raise ApiError(400, 'send ' + 'JSON', line=None)\n"
                   "    raise OverBudget('busy', 503)\n"
                   "    raise ApiError(400, str(exc)) from exc\n"
                   "    raise ApiError(exc.status, exc.message)\n"
                   "    raise api_error(400, 'Send a JSON object: {fields}.', fields='{}')\n"
                   "    raise refusal('busy {what}', 503, say={'what': 'x'})\n"
                   "    raise OverBudget('Too many {x}'.format(x=n))\n"
                   "    raise Refused(f'{n} takes one JSON object')\n"
                   "    raise Refused('{name} takes one JSON object', name=n)\n", encoding="utf-8")
    assert _hand_made(bad, "app/web/probe.py") == ["app/web/probe.py:2", "app/web/probe.py:3",
                                                   "app/web/probe.py:4", "app/web/probe.py:9",
                                                   "app/web/probe.py:10"]


# -- the corpus ----------------------------------------------------------------

def _load_cases():
    spec = importlib.util.spec_from_file_location(
        "treefile_error_cases", REPO / "tests/treefile/test_errors.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return ([(c[0], c[1], "yaml") for c in module.BAD_YAML]
            + [(c[0], c[1], "json") for c in module.BAD_JSON]
            + [(c[0], c[1], "notation") for c in module.BAD_NOTATION])


H = "title: T\nroot:\n"
MORE = [   # what the readers' own tests leave out
    ("translations not a mapping", "title: T\ntranslations: [id]\nroot: {value: 1}\n", "yaml"),
    ("not a language code", "title: T\ntranslations:\n  indonesian!: {title: x}\nroot: {value: 1}\n",
     "yaml"),
    ("translation not a mapping", "title: T\ntranslations:\n  id: Pohon\nroot: {value: 1}\n", "yaml"),
    ("unknown translation key", "title: T\ntranslations:\n  id: {judul: x}\nroot: {value: 1}\n",
     "yaml"),
    ("title a list", "title: [a]\nroot: {value: 1}\n", "yaml"),
    ("title a number is fine, label a mapping", H + "  label: {a: 1}\n  value: 1\n", "yaml"),
    ("bidi in a label", H + "  label: \"a\u202eb\"\n  value: 1\n", "yaml"),
    ("space at the start of an id", H + "  id: ' a'\n  value: 1\n", "yaml"),
    ("vector item text", "title: T\nplayers: [A, B, C]\nroot:\n  value: [1, x, 3]\n", "yaml"),
    ("vector item a list", "title: T\nplayers: [A, B, C]\nroot:\n  value: [1, [2], 3]\n", "yaml"),
    ("leaf a mapping list", H + "  children:\n    - [1, 2]\n    - {value: [1, 2]}\n    - 3\n",
     "yaml"),
    ("bare leaf text", H + "  children: [1, seven]\n", "yaml"),
    ("depth negative", "title: T\ndepth: -1\nroot: {value: 1}\n", "yaml"),
    ("depth a list", "title: T\ndepth: [1]\nroot: {value: 1}\n", "yaml"),
    ("algorithm far off", "title: T\nalgorithm: zzz\nroot: {value: 1}\n", "yaml"),
    ("players a number", "title: T\nplayers: 3\nroot: {value: 1}\n", "yaml"),
    ("unknown key, no guess", H + "  colour: red\n  value: 1\n", "yaml"),
    ("bad !!int", H + "  value: !!int three\n", "yaml"),
    ("unprintable", "title: T\nroot: {value: 1}\n\x01\n", "yaml"),
    ("libyaml's own words", "title: T\nroot: {value: 1}\n%TAG\n", "yaml"),
    ("yaml nesting", "title: T\nroot: " + "[" * 200 + "]" * 200 + "\n", "yaml"),
    ("a key that is a mapping", H + "  {a: 1}: 2\n", "yaml"),
    ("empty", "", "yaml"),
    ("json key quote", "{'title': 1}", "json"),
    ("json unclosed string", '{"title": "T', "json"),
    ("json line break in string", '{"title": "a\nb"}', "json"),
    ("json bad unicode escape", '{"title": "\\uZZ"}', "json"),
    ("json missing colon", '{"title" "T"}', "json"),
    ("json missing comma", '{"title": "T" "root": 1}', "json"),
    ("json ends in object", '{"title": "T",', "json"),
    ("json closer", '{"title": ]}', "json"),
    ("json True", '{"title": True}', "json"),
    ("json word", '{"title": hello}', "json"),
    ("json number key", '{1: 2}', "json"),
    ("json nesting", '{"title": "T", "root": ' + "[" * 300 + "]" * 300 + "}", "json"),
    ("json duplicate key with quote", '{"a\'b": 1, "a\'b": 2}', "json"),
    ("notation vector word", "([1 x] [1 2])", "notation"),
    ("notation empty vector", "([] 1)", "notation"),
    ("notation lone =", "(= 3)", "notation"),
    ("notation = then (", "(a=(1 2))", "notation"),
    ("notation unclosed [", "([1 2", "notation"),
    ("notation dangling leaf id", "(a= ", "notation"),
    ("notation nesting", "(" * 5000 + "1" + ")" * 5000, "notation"),
    ("unknown format", "title: T", "toml"),
    ("lone surrogate", "title: T\ud800\n", "yaml"),
]
CASES = _load_cases() + MORE


def _error(text, fmt) -> TreeFileError:
    with pytest.raises(TreeFileError) as caught:
        load_tree(text, fmt=fmt)
    return caught.value


def _catalogue():
    return {m.id: m for m in read_catalogue("id") if m.id}


def _check_translated(msgid: str, fields: dict, catalogue: dict, where: str):
    entry = catalogue.get(msgid)
    assert entry is not None and entry.string and not entry.fuzzy, \
        f"{where}: {msgid!r} has no Indonesian"
    for value in fields.values():
        if isinstance(value, Phrase):
            _check_translated(value.msgid, value.fields, catalogue, where)


@pytest.mark.parametrize("name, text, fmt", CASES, ids=[c[0] for c in CASES])
def test_every_reader_error_is_said_in_indonesian(name, text, fmt):
    err = _error(text, fmt)
    assert err.msgid is not None, f"{name}: {err.message!r} is not a catalogue message"
    _check_translated(err.msgid, err.fields, _catalogue(), name)
    english, indonesian = error_message(err, "en"), error_message(err, "id")
    assert english == err.message
    assert indonesian != english
    # No English part left inside the Indonesian sentence: none of the
    # phrases ("a list", "the number 3") a sentence may quote.
    for value in err.fields.values():
        if isinstance(value, Phrase) and value.msgid not in ("{key}",):
            assert str(value) not in indonesian, (name, indonesian)
    assert re.search(r"\{[a-z_]+\}", indonesian) is None, indonesian   # every field filled


def test_a_file_that_cannot_be_read(tmp_path):
    with pytest.raises(TreeFileError) as caught:
        load_path(tmp_path / "nope.yaml")
    err = caught.value
    assert err.message.startswith("cannot read the file: ")
    assert error_message(err, "id").startswith("berkas tidak dapat dibaca: ")


# -- over HTTP, in both languages, at the line and column ------------------------

# (file, content type, line, column, English, Indonesian)
HTTP_FILES = [
    (b'{"title": "T",\n "root": {"children": [1, 2,]}}', "application/json", 2, 29,
     "JSON syntax error: trailing comma before ']'",
     "Kesalahan sintaks JSON: ada koma berlebih sebelum ']'"),
    (b"title: T\nroot:\n  label: [a]\n  value: 1\n", "application/x-yaml", 3, 10,
     "label must be text, not a list", "'label' harus berupa teks, bukan daftar"),
    (b"title: T\nalgorithm: alphabet\nroot: {value: 1}\n", "application/x-yaml", 2, 12,
     "unknown algorithm 'alphabet' (did you mean 'alphabeta'?)",
     "algoritma 'alphabet' tidak dikenal (maksud Anda 'alphabeta'?)"),
    (b"title: T\nroot:\n  value: !dice 3\n", "application/x-yaml", 3, 10,
     "the YAML tag '!dice' is not allowed (only the standard !!str, !!int, !!float, !!bool, "
     "!!null, !!seq and !!map)",
     "tag YAML '!dice' tidak diizinkan (hanya tag standar !!str, !!int, !!float, !!bool, "
     "!!null, !!seq, dan !!map)"),
    (b"title: T\nplayers: [A, B, C]\nroot:\n  value: [1, x, 3]\n", "application/x-yaml", 4, 14,
     "each number of value must be a number, not the text 'x'",
     "setiap angka pada 'value' harus berupa angka, bukan teks 'x'"),
    (b"title: T\nroot:\n  id: [a]\n  value: 1\n", "application/x-yaml", 3, 7,
     "an id must be text or a whole number, not a list",
     "id harus berupa teks atau bilangan bulat, bukan daftar"),
]


@pytest.mark.parametrize("data, ctype, line, column, english, indonesian", HTTP_FILES)
def test_upload_errors_in_both_languages(client, data, ctype, line, column, english,
                                         indonesian):
    assert_refused_in_both(client, data, line, column, english, indonesian, ctype)


# (query of /api/trees/aima-fig5-2/trace, argument, English, Indonesian)
HTTP_ARGUMENTS = [
    ("algorithm=minmax", "algorithm",   # (every record's id, in its order)
     "unknown algorithm 'minmax': choose one of " + ", ".join(ALGORITHMS),
     "algorithm 'minmax' tidak dikenal: pilih salah satu dari " + ", ".join(ALGORITHMS)),
    ("depth=two", "depth", "depth must be a whole number, not 'two'",
     "depth harus berupa bilangan bulat, bukan 'two'"),
    ("depth=99999", "depth", "depth must be between 0 and 10000, not 99999",
     "depth harus di antara 0 dan 10000, bukan 99999"),
    ("seed=" + "9" * 40, "seed",
     f"seed must be between {-(2**63 - 1)} and {2**63 - 1}, not '{'9' * 38}…",
     f"seed harus di antara {-(2**63 - 1)} dan {2**63 - 1}, bukan '{'9' * 38}…"),
    ("strict=maybe", "strict", "strict must be 1 or 0, not 'maybe'",
     "strict harus 1 atau 0, bukan 'maybe'"),
    ("depht=2", "depht",
     "unknown argument 'depht': expected algorithm, depth, order, seed, strict, style, "
     "iterations, exploration",
     "argumen 'depht' tidak dikenal: yang diterima algorithm, depth, order, seed, strict, style, "
     "iterations, exploration"),
]


def _tree_id(client):
    return client.get("/api/trees").get_json()[0]["id"]


@pytest.mark.parametrize("query, argument, english, indonesian", HTTP_ARGUMENTS)
def test_argument_errors_in_both_languages(client, query, argument, english, indonesian):
    url = f"/api/trees/{_tree_id(client)}/trace?{query}"
    for lang, message in (("en", english), ("id", indonesian)):
        res = client.get(url, headers={"Accept-Language": lang})
        assert res.status_code == 400
        assert res.get_json()["error"] == {"message": message, "argument": argument}


def test_export_step_error_in_indonesian(client):
    res = client.get(f"/api/trees/{_tree_id(client)}/export.svg?step=soon&lang=id")
    assert res.status_code == 400
    assert res.get_json()["error"] == {
        "message": "step harus berupa bilangan bulat mulai dari 0, atau 'end', bukan 'soon'",
        "argument": "step"}


def test_every_argument_message_is_translated():
    """Each message the argument checks can say has its Indonesian."""
    catalogue = _catalogue()
    said = set()
    for path in CHECKED:
        if path.parent.name != "web":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "argument_error":
                assert isinstance(node.args[1], ast.Constant), f"{path.name}:{node.lineno}"
                said.add(node.args[1].value)
    assert len(said) >= 15
    missing = [m for m in said if not (catalogue.get(m) and catalogue[m].string)]
    assert missing == []
    assert all(re.sub(r"\{\w+\}", "", catalogue[m].string) != re.sub(r"\{\w+\}", "", m)
               for m in said)


def test_route_errors_in_indonesian(client):
    """The play API's move and the editor's text box answer in the reader's language too."""
    res = client.post("/api/play?lang=id", json={"position": "game:tictactoe", "move": "Z9"})
    assert res.status_code == 400
    assert res.get_json()["error"] == {"message": "'Z9' bukan langkah yang sah di sini",
                                       "argument": "move"}
    res = client.post("/api/play?lang=en", json={"position": "game:tictactoe", "move": "Z9"})
    assert res.get_json()["error"]["message"] == "'Z9' is not a legal move here"
    res = client.post("/api/edit/parse?lang=id", json={"text": "((3 12 8) (2 4"})
    assert res.status_code == 400
    assert res.get_json()["error"] == {"message": "'(' tidak pernah ditutup", "line": 1,
                                       "column": 11}
    res = client.post("/api/edit/parse?lang=en", json={"text": "((3 12 8) (2 4"})
    assert res.get_json()["error"]["message"] == "'(' is never closed"


def test_a_refused_edit_in_indonesian(client):
    """The editor's what-if run says the loader's refusal in the reader's language, at its node."""
    from tests.editor.docs import library_doc, node

    doc = library_doc()
    node(doc, "c2")["value"] = "four"
    for lang, message in (("en", "value must be a number, not the text 'four'"),
                          ("id", "'value' harus berupa angka, bukan teks 'four'")):
        res = client.post(f"/api/edit/run?lang={lang}", json={"tree": doc})
        assert res.status_code == 400
        assert res.get_json()["error"] == {"message": message, "key": node(doc, "c2")["key"]}


# (tree, query, English, Indonesian): options that do not fit the tree (app.search's SearchError)
UNFIT = [
    ("itb-three-player", "algorithm=alphabeta", "this tree has 3 players: use maxn, not alphabeta",
     "pohon ini memiliki 3 pemain: gunakan maxn, bukan alphabeta"),
    ("aima-fig-5-2", "depth=1",
     "depth limit 1 stops at B, which has no eval: give it an eval or choose another depth",
     "batas kedalaman 1 berhenti di B, yang tidak memiliki eval: beri simpul itu eval atau pilih "
     "kedalaman lain"),
    ("game:tictactoe", "algorithm=maxn",
     "this is a two-player game: use minimax or alphabeta, not maxn",
     "ini permainan dua pemain: gunakan minimax atau alphabeta, bukan maxn"),
]


@pytest.mark.parametrize("tree, query, english, indonesian", UNFIT)
def test_options_that_do_not_fit_the_tree_in_both_languages(client, tree, query, english,
                                                            indonesian):
    for lang, message in (("en", english), ("id", indonesian)):
        res = client.get(f"/api/trees/{tree}/trace?{query}&lang={lang}")
        assert res.status_code == 400
        assert res.get_json()["error"]["message"] == message
