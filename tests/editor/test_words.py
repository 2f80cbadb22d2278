"""Every what-if sentence in the reader's language (issue 20): the change's
sentence, the run's own sentence and a note, in English and Indonesian, over
HTTP and the editor's socket alike (both go through app.web.editor.what_if)."""
from __future__ import annotations

import copy

from app.whatif import WhatIf

from .docs import library_doc, node


def edited(doc):
    after = copy.deepcopy(doc)
    node(after, "c2")["value"] = 1
    return after, {"kind": "value", "key": node(doc, "c2")["key"], "old": 4, "new": 1}


def test_the_sentences_in_the_readers_language(client):
    doc = library_doc()
    after, edit = edited(doc)
    said = {}
    for lang in ("en", "id"):
        res = client.post(f"/api/edit/run?lang={lang}", json={
            "tree": after, "previous": doc, "edit": edit, "options": {"algorithm": "alphabeta"}})
        assert res.status_code == 200
        said[lang] = res.get_json()
    assert said["en"]["change"]["sentence"] == "Changing c2 to 1 adds no cut: C is already cut by alpha = 3."
    assert said["id"]["change"]["sentence"] == ("Mengubah c2 menjadi 1 tidak menambah pemangkasan: "
                                                "C sudah dipangkas oleh alpha = 3.")
    assert said["en"]["result"]["text"].startswith("Done: the root A is worth 3")
    assert said["id"]["result"]["text"].startswith("Selesai: akar A bernilai 3")
    # The same run, the same figures: only the words differ.
    assert said["en"]["result"]["pruned"] == said["id"]["result"]["pruned"]


def test_a_note_and_lists_are_said_too():
    from app.i18n import words
    w = WhatIf()
    doc = library_doc()
    chance = copy.deepcopy(doc)
    chance["root"]["children"][1]["type"] = "chance"
    for kid in chance["root"]["children"][1]["children"]:
        kid["probability"] = "1/3"
    answer = w.run(chance, {"algorithm": "alphabeta"}, words=words("id"), lang="id")
    assert answer["note"].startswith("alphabeta tidak cocok untuk pohon ini: memakai ")
    english = w.run(chance, {"algorithm": "alphabeta"})
    assert english["note"].startswith("alphabeta does not fit this tree: using ")
    assert english["result"]["text"] != answer["result"]["text"]      # not one cached language for both
