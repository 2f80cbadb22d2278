"""The catalogues: every message of the code translated, fields kept, and
the language chosen by link, cookie or the browser's preference."""
from __future__ import annotations

import re

import pytest

from app.i18n import LANGUAGES, compile_catalogues, js_messages, words
from app.i18n.catalogue import code_messages, read_catalogue, untranslated

FIELD = re.compile(r"\{(\w+)\}|%\((\w+)\)s")


def test_every_message_of_the_code_is_translated():
    missing = untranslated()
    assert not missing, "untranslated (run `python -m app.i18n update`, then translate):\n" + \
        "\n".join(f"  {lang}: {msgid!r}" for lang, msgid in missing)


def test_the_code_has_messages_to_translate():
    found = code_messages()
    # one from each kind of source: a template, a page script, the narration
    assert {"Lecture trees", "MAX node"} <= found


@pytest.mark.parametrize("lang", [code for code in LANGUAGES if code != "en"])
def test_translations_keep_their_fields_and_markup(lang):
    for message in read_catalogue(lang):
        if not message.id or not message.string:
            continue
        assert sorted(FIELD.findall(message.id)) == sorted(FIELD.findall(message.string)), message.id
        assert sorted(re.findall(r"</?\w+", message.id)) == sorted(re.findall(r"</?\w+", message.string)), \
            message.id


def test_catalogues_compile_from_the_po_files(tmp_path):
    import shutil

    shutil.copytree(read_catalogue.__globals__["TRANSLATIONS"], tmp_path / "t")
    for mo in (tmp_path / "t").glob("*/LC_MESSAGES/*.mo"):
        mo.unlink()
    written = compile_catalogues(tmp_path / "t")
    assert [p.parent.parent.name for p in written] == ["id"]
    assert compile_catalogues(tmp_path / "t") == []      # up to date: nothing rewritten


def test_words_fill_named_fields_in_each_language():
    assert words("en")("value {v}", v="3") == "value 3"
    assert words("id")("value {v}", v="3") == "nilai 3"
    assert words("xx")("value {v}", v="3") == "value 3"     # unknown: English


def test_page_scripts_get_their_messages_only():
    messages = js_messages("id")
    assert messages["MAX node"] == "simpul MAX"
    assert "Lecture trees" not in messages                 # a template's, not a script's
    assert js_messages("en") == {}


def test_language_by_link_then_cookie(client):
    page = client.get("/?lang=id")
    assert '<html lang="id">' in page.get_data(as_text=True)
    assert "lang=id" in page.headers["Set-Cookie"]
    again = client.get("/")                                # the cookie keeps the choice
    assert '<html lang="id">' in again.get_data(as_text=True)
    assert "Pohon dari materi kuliah" in again.get_data(as_text=True)
    back = client.get("/?lang=en")
    assert '<html lang="en">' in back.get_data(as_text=True)
    assert "Lecture trees" in back.get_data(as_text=True)


def test_browser_preference_is_the_default(client):
    page = client.get("/", headers={"Accept-Language": "id-ID,id;q=0.9,en;q=0.8"})
    assert '<html lang="id">' in page.get_data(as_text=True)
    page = client.get("/", headers={"Accept-Language": "fr-FR,en;q=0.5"})
    assert '<html lang="en">' in page.get_data(as_text=True)


@pytest.mark.parametrize("path", ["/", "/t/aima-fig-5-2", "/t/no-such-tree", "/practice",
                                  "/practice/aima-fig-5-2", "/play", "/play/tictactoe",
                                  "/edit/aima-fig-5-2", "/c", "/a/new"])
def test_every_page_has_the_language_switcher(client, path):
    html = client.get(f"{path}?lang=id").get_data(as_text=True)
    assert '<html lang="id">' in html
    assert 'hreflang="en"' in html and 'hreflang="id"' in html


def test_script_catalogue_endpoint(client):
    res = client.get("/i18n/id.json")
    assert res.status_code == 200
    assert res.get_json()["leaf"] == "daun"
    assert client.get("/i18n/xx.json").get_json() == {}


def test_pseudocode_carries_the_itb_lectures_comments_in_indonesian(client):
    en = client.get("/api/pseudocode?algorithm=alphabeta&lang=en").get_json()["aima"]
    id_ = client.get("/api/pseudocode?algorithm=alphabeta&lang=id").get_json()["aima"]
    assert len(en) == len(id_)                               # line numbers unchanged
    assert "  v ← +∞   ▷ nilai maks." in id_ and "  v ← +∞" in en
    assert "    α ← MAX(α, v)   ▷ α mengubah nilai maks." in id_
    assert not any("▷" in line for line in en)


def test_no_message_hides_where_the_extractor_cannot_see_it():
    """``t()`` inside a JS template literal and ``tell()``/``_()`` inside a
    Python f-string are invisible to ``pybabel extract``: such a message
    would never reach the catalogue."""
    import re
    from pathlib import Path

    repo = Path(__file__).resolve().parents[2]
    hidden = []
    for path in (repo / "static" / "js").rglob("*.js"):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if re.search(r"`[^`]*\$\{\s*t\(", line):
                hidden.append(f"{path.name}:{n}")
    for path in (repo / "app").rglob("*.py"):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if re.search(r"""\bf(["']).*\{(tell|_|gettext)\(\s*["']""", line):
                hidden.append(f"{path.relative_to(repo)}:{n}")
    assert not hidden, hidden


def test_no_trans_block_holds_a_percent_sign():
    """Jinja looks a {% trans %} block's "%" up as "%%" (new-style gettext),
    while the extractor and the catalogue keep "%": such a message is never
    found and stays English (the assignment page's "Score: ... %" did)."""
    from pathlib import Path

    block = re.compile(r"\{%-?\s*trans\b[^%]*%\}(.*?)\{%-?\s*endtrans", re.S)
    found = [(page.name, m.group(1)) for page in (Path(__file__).parents[2] / "templates").glob("*.html")
             for m in block.finditer(page.read_text(encoding="utf-8")) if "%" in m.group(1)]
    assert not found, found
