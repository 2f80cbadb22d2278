"""Tree files may carry their title and description in other languages
(``translations:``); the ITB lecture's trees do, in Indonesian."""
from __future__ import annotations

import pytest

from app.cli.common import load
from app.treefile import TreeFileError, dump_yaml, load_tree

BASE = "title: T\nroot: {children: [1, 2]}\n"


def test_itb_trees_read_in_indonesian():
    for tree_id in ("itb-3-ply-lr", "itb-three-player", "aima-fig-5-2"):
        tree = load(tree_id)
        assert tree.translations["id"]["title"] != tree.title
        assert "**" in tree.translations["id"]["description"]      # Markdown kept
    assert load("itb-3-ply-lr").translations["id"]["title"].startswith("Latihan ITB")


def test_translations_round_trip_and_stay_optional():
    tree = load_tree(BASE + "translations:\n  id: {title: Pohon}\n")
    assert tree.translations == {"id": {"title": "Pohon"}}
    assert load_tree(dump_yaml(tree)).translations == tree.translations
    assert load_tree(BASE).translations == {}                       # contract §1 files unchanged


@pytest.mark.parametrize("bad, words", [
    ("translations: [id]\n", "translations must be a mapping"),
    ("translations:\n  indonesian!: {title: x}\n", "is not a language code"),
    ("translations:\n  id: {titel: x}\n", "did you mean 'title'?"),
    ("translations:\n  id: Pohon\n", "translations.id must be a mapping"),
])
def test_bad_translations_are_refused(bad, words):
    with pytest.raises(TreeFileError) as caught:
        load_tree(BASE + bad)
    assert words in caught.value.message


def test_pages_and_listing_use_the_translation(client):
    html = client.get("/t/itb-3-ply-lr?lang=id").get_data(as_text=True)
    assert "Latihan ITB: permainan 3-ply" in html and "Soal dari kuliah" in html
    html = client.get("/t/itb-3-ply-lr?lang=en").get_data(as_text=True)
    assert "ITB exercise: a 3-ply game" in html
    entry = next(e for e in client.get("/api/trees").get_json() if e["id"] == "itb-3-ply-lr")
    assert entry["translations"]["id"]["title"].startswith("Latihan ITB")
    assert client.get("/api/trees/itb-3-ply-lr").get_json()["translations"]["id"]["title"]
    # The assignment maker's list of trees too.
    html = client.get("/a/new?lang=id").get_data(as_text=True)
    assert ">Latihan ITB: permainan 3-ply" in html and ">ITB exercise: a 3-ply game" not in html


def test_every_library_tree_reads_in_indonesian():
    """An Indonesian page (the library's cards, the visualizer's title, its
    About panel, practice's list) shows no English title or description."""
    from pathlib import Path

    trees = sorted((Path(__file__).resolve().parents[2] / "trees").glob("*.yaml"))
    missing = []
    for path in trees:
        tree = load(path.stem)
        said = tree.translations.get("id", {})
        for key in ("title", "description"):
            if getattr(tree, key) and not said.get(key):
                missing.append(f"{path.stem}: {key}")
    assert len(trees) >= 18 and not missing, missing
