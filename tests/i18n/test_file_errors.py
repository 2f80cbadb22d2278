"""File errors in plain words, in both languages, at the line to fix."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from app.i18n import error_message
from app.treefile import TreeFileError, load_tree

REPO = Path(__file__).resolve().parents[2]

# (file, line, column, English, Indonesian)
CASES = [
    ("title: x\nroot\n  children: [1, 2]\n", 2, 5,
     "A colon is missing on line 2: write “root:”.",
     "Tanda titik dua hilang di baris 2: tulis “root:”."),
    ("title: x\nroot:\n  id A\n  children: [1, 2]\n", 3, 5,
     "A colon is missing on line 3: write “id: A”.",
     "Tanda titik dua hilang di baris 3: tulis “id: A”."),
    ("title: x\nroot:\n  children:\n    - id: B\n      children [1, 2]\n", 5, 15,
     "A colon is missing on line 5: write “children: [1, 2]”.",
     "Tanda titik dua hilang di baris 5: tulis “children: [1, 2]”."),
    ("title: x\nroot:\n  id: A\n   children: [1, 2]\n", 4, 4,
     "Line 4 is indented more than line 3: the keys of one node start in the same column.",
     "Baris 4 menjorok lebih dalam daripada baris 3: kunci-kunci dalam satu simpul dimulai "
     "pada kolom yang sama."),
    ("title: x\nroot:\n  children: [1, 2\n", 3, 18,
     "The list opened with “[” on line 3 is not closed, or a comma is missing between two of "
     "its items.",
     "Daftar yang dibuka dengan “[” di baris 3 tidak ditutup, atau ada koma yang hilang di "
     "antara dua butirnya."),
    ("title: 'x\nroot:\n  children: [1, 2]\n", 1, 10,
     "The quote opened on line 1 is never closed.",
     "Tanda kutip yang dibuka di baris 1 tidak pernah ditutup."),
    ("title: x\nroot:\n\tchildren: [1, 2]\n", 3, 1,
     "Line 3 is indented with a tab: indent with spaces, not tabs.",
     "Baris 3 menjorok dengan tab: gunakan spasi, bukan tab."),
    ("title: x\nroot:\n  vaule: 3\n", 3, 3,
     "unknown key 'vaule' (did you mean 'value'?)",
     "kunci 'vaule' tidak dikenal (maksud Anda 'value'?)"),
]


@pytest.mark.parametrize("text, line, column, english, indonesian", CASES)
def test_plain_words_at_the_line_to_fix(text, line, column, english, indonesian):
    with pytest.raises(TreeFileError) as caught:
        load_tree(text)
    err = caught.value
    assert (err.line, err.column) == (line, column)
    assert err.message == english == error_message(err, "en")
    assert error_message(err, "id") == indonesian


def test_an_error_without_a_catalogue_message_stays_english():
    err = TreeFileError("something rare", 1, 1)
    assert error_message(err, "id") == "something rare"


def test_upload_error_in_the_readers_language(client):
    text = CASES[0][0].encode()
    res = client.post("/api/trees", data=text, headers={"Content-Type": "application/x-yaml",
                                                         "Accept-Language": "id"})
    assert res.status_code == 400
    assert res.get_json()["error"] == {"message": CASES[0][4], "line": 2, "column": 5}
    res = client.post("/api/trees", data=text, headers={"Content-Type": "application/x-yaml"})
    assert res.get_json()["error"]["message"] == CASES[0][3]


def test_validate_lang_id(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text(CASES[0][0])
    out = subprocess.run([sys.executable, "-m", "app", "validate", str(bad), "--lang", "id"],
                         cwd=REPO, capture_output=True, text=True)
    assert out.returncode == 2
    assert out.stderr == f"error: {bad}:2:5: {CASES[0][4]}\n"
