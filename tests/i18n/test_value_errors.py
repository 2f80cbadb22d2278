"""The errors a student meets most (a value that is not a number, an unknown
player, a duplicate id...) come back from the HTTP API in Indonesian, at the
line and column to fix, and stay word for word the same in English."""
from __future__ import annotations

import pytest

from tests.i18n.helpers import assert_refused_in_both

# (file, line, column, English, Indonesian)
CASES = [
    (b"title: x\nroot:\n  children:\n    - value: seven\n    - value: 2\n", 4, 14,
     "value must be a number, not the text 'seven'",
     "'value' harus berupa angka, bukan teks 'seven'"),
    (b"title: x\nroot:\n  children:\n    - value:\n    - value: 2\n", 4, 13,
     "value is empty: it must be a number",
     "'value' kosong: isinya harus berupa angka"),
    (b"title: x\nroot:\n  children:\n    - value: yes\n    - value: 2\n", 4, 14,
     "value must be a number, not the boolean 'yes' (yes, no, true and false are not numbers)",
     "'value' harus berupa angka, bukan boolean 'yes' (yes, no, true, dan false bukan angka)"),
    (b"title: x\nplayers: [MAX, MIN]\nroot:\n  player: MNI\n  children: [1, 2]\n", 4, 11,
     "unknown player 'MNI' (did you mean 'MIN'?) (the players are MAX, MIN)",
     "pemain 'MNI' tidak dikenal (maksud Anda 'MIN'?) (pemainnya adalah MAX, MIN)"),
    (b"title: x\nroot:\n  children:\n    - id: A\n      value: 1\n    - id: A\n      value: 2\n",
     6, 11, "duplicate id 'A' (first used at line 4)",
     "id 'A' dipakai dua kali (pertama kali di baris 4)"),
    (b"title: x\nroot:\n  children:\n    a: 1\n", 4, 5,
     "children must be a list, not a mapping",
     "'children' harus berupa daftar, bukan pemetaan (kunci: nilai)"),
    (b"title: x\nroot:\n  type: chance\n  children:\n    - probability: 1/0\n      value: 1\n"
     b"    - probability: 1/2\n      value: 2\n", 5, 20,
     "probability 1/0 divides by zero", "peluang 1/0 membagi dengan nol"),
    (b"title: x\nroot:\n  type: chance\n  children:\n    - probability: 1.5\n      value: 1\n"
     b"    - probability: 0.5\n      value: 2\n", 5, 20,
     "probability 1.5 is more than 1", "peluang 1.5 lebih dari 1"),
    (b"title: x\nplayers: [MAX]\nroot:\n  children: [1, 2]\n", 2, 10,
     "a game needs 2 to 26 players, not 1",
     "sebuah permainan memerlukan 2 sampai 26 pemain, bukan 1"),
    (b"title: x\nplayers: [MAX, MAX]\nroot:\n  children: [1, 2]\n", 2, 16,
     "the player 'MAX' is listed twice", "pemain 'MAX' tercantum dua kali"),
    (b"title: x\nroot:\n  children:\n    - value: 1\n    - value: \xff\n", 5, 14,
     "the file is not UTF-8 text (byte 0xff)", "berkas ini bukan teks UTF-8 (bita 0xff)"),
    (b"title: x\nroot:\n  children:\n    - value: 1\n      eval: 2\n    - value: 2\n", 5, 7,
     "'eval' belongs to inner nodes (it is used when a depth limit stops there); a leaf has "
     "its 'value'",
     "'eval' hanya untuk simpul dalam (dipakai ketika batas kedalaman berhenti di sana); daun "
     "memiliki 'value'-nya sendiri"),
    (b"title: x\nplayers: [A, B, C]\nroot:\n  children:\n    - value: [1, 2]\n"
     b"    - value: [1, 2, 3]\n", 5, 14,
     "value has 2 numbers, but the tree has 3 players (A, B, C)",
     "'value' berisi 2 angka, tetapi pohon ini memiliki 3 pemain (A, B, C)"),
    (b"title: x\nroot:\n  children:\n    - id: ''\n      value: 1\n    - value: 2\n", 4, 11,
     "an id must not be empty", "id tidak boleh kosong"),
]


@pytest.mark.parametrize("data, line, column, english, indonesian", CASES)
def test_upload_error_in_indonesian_at_its_place(client, data, line, column, english,
                                                 indonesian):
    assert_refused_in_both(client, data, line, column, english, indonesian)
