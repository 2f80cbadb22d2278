"""Write the lecture library's rule-made trees: ``python -m app.games.build``.

Trees made from a game's rules (Nim, tic-tac-toe) are generated, not typed:
this script expands each game, loads the result through the ordinary tree
loader (so it is checked like any file) and writes ``trees/<id>.yaml``.
``--check`` writes nothing and fails if a committed file differs from what
the rules give now (the test suite does the same).
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Callable

from app.treefile import dump_yaml, load_tree

from .nim import nim_tree
from .tictactoe import TicTacToe, full_tree, opening_tree

TREES_DIR = Path(__file__).resolve().parents[2] / "trees"

NIM_DESCRIPTION = """\
Luger's Nim: the players start with one pile of 7 tokens; a move splits any
pile into two non-empty piles of *different* sizes; the player who cannot move
loses. Each node is the position, piles largest first (`5-1-1`).

This is the **full game tree**, generated from the rules (`app/games/nim.py`):
a position reached in several ways appears once per way (`4-2-1`, `4-2-1#2`,
...). Leaves carry Luger's utilities: **1 = win for MAX, 0 = win for MIN**.

MAX moves first here, and the root is worth **0**: the second player (MIN)
can force a win, whatever MAX does. Luger's figure draws the same game with
MIN moving first, and its bold lines show the forced win of the second
player, MAX (see the tree `nim-7-luger`).
"""

NIM_LUGER_DESCRIPTION = """\
The tree of Luger's exhaustive-minimax figure for Nim with 7 tokens: **MIN
moves first**, as in the figure, so the levels read MIN, MAX, MIN, ...
Leaves: **1 = win for MAX, 0 = win for MIN**.

The root is worth **1**: MAX, the second player, can force a win (the bold
lines of the figure are MAX's winning replies). Generated from the rules
(`app/games/nim.py`); repeated positions are numbered (`4-2-1#2`). The same
game with MAX moving first is `nim-7`.
"""

TTT_DESCRIPTION = """\
Luger's two-ply look-ahead for the opening move of tic-tac-toe. X (MAX) is
to move on the empty board; boards are drawn on one line, rows split by `/`
(`X··/·O·/···`), cells numbered 1-9 row by row (ids: `X5` = X in the centre,
`X5-O1` = then O in the top-left corner).

Up to symmetry X has three first moves (corner `X1`, edge `X2`, centre `X5`)
and O has 5, 5 and 2 replies. Leaves at the horizon carry Luger's heuristic
**E(n) = lines open for MAX - lines open for MIN** (rows, columns and
diagonals). Backed up: corner **-1**, edge **-2**, centre **1**, so the
centre is the best opening and the root is worth 1.

Every inner node also has its E(n) as `eval`, so a depth limit can stop
anywhere: with `--depth 1` (a one-ply look-ahead) the first moves are judged
by E(n) alone (corner 3, edge 2, centre 4). Generated from the rules
(`app/games/tictactoe.py`).
"""

LATOMBE_DESCRIPTION = """\
The tic-tac-toe example of alpha-beta pruning from J.-C. Latombe's CS121
slides, quoted in the lectures: MAX (X) looks two plies ahead with E(n) =
open lines for MAX - open lines for MIN. The slides show the values only;
the boards are rebuilt here from the rules, with the move order chosen so
that the search meets exactly the slides' numbers:

1. X in the centre (`X5`): O on an edge gives E = 2, then O in a corner
   gives E = 1, so the MIN node is worth **1** and the root gets alpha = 1.
2. X in a corner (`X1`): O in the centre gives **E = -1**; the MIN node is
   worth at most -1 <= alpha, so its other replies are pruned ("child beta
   <= ancestor alpha: stop search").
3. X on an edge (`X2`): O in the centre gives -2, pruned in the same way.

X's moves are tried centre, corners, edges (most winning lines first); O's
replies centre, edges, corners. Same tree, different order than
`tictactoe-two-ply`.
"""

HORIZON_START = ".X./X.O/.O."

HORIZON_DESCRIPTION = """\
The horizon effect in miniature. Tic-tac-toe, X (MAX) to move in the
position `·X·/X·O/·O·` (X on the top and left edges, O on the right and
bottom edges); cells are numbered 1-9 row by row, so `X1` is X in the
top-left corner.

This is the **whole game tree** from there (up to symmetry), generated from
the rules: a win is worth 10 to X, a loss -10, a draw 0. A full search finds
that **X1 wins** (value 10): it threatens the top row and the left column at
once, and O can block only one.

Every inner node also carries Luger's E(n) (lines open for MAX - lines open
for MIN) as its `eval`, so the same tree can be searched with a depth limit
(H-MINIMAX):

- `--depth 1` and `--depth 2`: E(n) prefers the corner **X9** (worth 3 and
  then 0); the fork lies beyond the horizon.
- `--depth 3`: the win comes into view, and X1 is chosen with value 10.

The page opens the tree with the lecture's two-ply look-ahead (depth 2), where
the horizon hides the win; clear the depth limit to see the whole game.
"""


# The same in Bahasa Indonesia (a tree file's ``translations: id``): the pages say these
# to an Indonesian reader.
NIM_ID = {"title": "Nim dengan 7 token (pohon permainan lengkap)",
          "description": """\
Nim versi Luger: para pemain mulai dengan satu tumpukan 7 token; satu
langkah membagi sebuah tumpukan menjadi dua tumpukan tidak kosong yang
ukurannya *berbeda*; pemain yang tidak dapat melangkah kalah. Setiap
simpul adalah posisinya, tumpukan terbesar dulu (`5-1-1`).

Ini adalah **pohon permainan lengkap**, dibangkitkan dari aturannya
(`app/games/nim.py`): posisi yang dicapai dengan beberapa cara muncul
sekali untuk setiap cara (`4-2-1`, `4-2-1#2`, ...). Daun membawa utilitas
Luger: **1 = MAX menang, 0 = MIN menang**.

Di sini MAX melangkah lebih dulu, dan akar bernilai **0**: pemain kedua
(MIN) dapat memaksakan kemenangan, apa pun yang dilakukan MAX. Gambar Luger
menggambar permainan yang sama dengan MIN melangkah lebih dulu, dan garis
tebalnya menunjukkan kemenangan paksa pemain kedua, MAX (lihat pohon
`nim-7-luger`).
"""}

NIM_LUGER_ID = {"title": "Nim dengan 7 token, MIN lebih dulu (gambar Luger)",
                "description": """\
Pohon dari gambar minimax lengkap Luger untuk Nim dengan 7 token: **MIN
melangkah lebih dulu**, seperti pada gambar, sehingga tingkatnya terbaca
MIN, MAX, MIN, ... Daun: **1 = MAX menang, 0 = MIN menang**.

Akar bernilai **1**: MAX, pemain kedua, dapat memaksakan kemenangan (garis
tebal pada gambar adalah balasan kemenangan MAX). Dibangkitkan dari
aturannya (`app/games/nim.py`); posisi yang berulang diberi nomor
(`4-2-1#2`). Permainan yang sama dengan MAX melangkah lebih dulu adalah
`nim-7`.
"""}

TTT_ID = {"title": "Tic-tac-toe: minimax dua ply untuk langkah pembuka",
          "description": """\
Pencarian dua ply ke depan versi Luger untuk langkah pembuka tic-tac-toe.
X (MAX) melangkah pada papan kosong; papan digambar dalam satu baris,
baris-barisnya dipisah `/` (`X··/·O·/···`), sel diberi nomor 1-9 baris
demi baris (id: `X5` = X di tengah, `X5-O1` = lalu O di pojok kiri atas).

Hingga simetri, X memiliki tiga langkah pertama (pojok `X1`, tepi `X2`,
tengah `X5`) dan O memiliki 5, 5, dan 2 balasan. Daun di cakrawala
membawa heuristik Luger **E(n) = garis terbuka untuk MAX - garis terbuka
untuk MIN** (baris, kolom, dan diagonal). Nilai yang dikembalikan: pojok
**-1**, tepi **-2**, tengah **1**, sehingga tengah adalah pembukaan
terbaik dan akar bernilai 1.

Setiap simpul dalam juga memiliki E(n)-nya sebagai `eval`, sehingga batas
kedalaman dapat berhenti di mana saja: dengan `--depth 1` (pencarian satu
ply ke depan) langkah pertama dinilai dengan E(n) saja (pojok 3, tepi 2,
tengah 4). Dibangkitkan dari aturannya (`app/games/tictactoe.py`).
"""}

LATOMBE_ID = {"title": "Tic-tac-toe: alpha-beta pada pembukaan dua ply",
              "description": """\
Contoh alpha-beta pruning pada tic-tac-toe dari slide CS121 J.-C. Latombe,
dikutip dalam kuliah: MAX (X) melihat dua ply ke depan dengan E(n) =
garis terbuka untuk MAX - garis terbuka untuk MIN. Slide hanya menampilkan
nilainya; papan-papannya dibangun ulang di sini dari aturan permainan,
dengan urutan langkah dipilih agar pencarian menemui tepat angka-angka
pada slide:

1. X di tengah (`X5`): O di tepi memberi E = 2, lalu O di pojok memberi
   E = 1, sehingga simpul MIN bernilai **1** dan akar mendapat alpha = 1.
2. X di pojok (`X1`): O di tengah memberi **E = -1**; simpul MIN bernilai
   paling banyak -1 <= alpha, sehingga balasan lainnya di-prune ("beta
   anak <= alpha leluhur: hentikan pencarian").
3. X di tepi (`X2`): O di tengah memberi -2, di-prune dengan cara yang sama.

Langkah X dicoba dengan urutan tengah, pojok, tepi (garis kemenangan
terbanyak dulu); balasan O tengah, tepi, pojok. Pohonnya sama dengan
`tictactoe-two-ply`, urutannya berbeda.
"""}

HORIZON_ID = {"title": "Tic-tac-toe: efek cakrawala (pencarian dengan batas kedalaman)",
              "description": """\
Efek cakrawala (horizon effect) dalam bentuk mini. Tic-tac-toe, X (MAX)
melangkah pada posisi `·X·/X·O/·O·` (X di tepi atas dan kiri, O di tepi
kanan dan bawah); sel diberi nomor 1-9 baris demi baris, sehingga `X1`
adalah X di pojok kiri atas.

Ini adalah **seluruh pohon permainan** dari posisi itu (hingga simetri),
dibangkitkan dari aturannya: kemenangan bernilai 10 bagi X, kekalahan -10,
seri 0. Pencarian penuh menemukan bahwa **X1 menang** (nilai 10): langkah
itu sekaligus mengancam baris atas dan kolom kiri, dan O hanya dapat
memblok salah satunya.

Setiap simpul dalam juga membawa E(n) Luger (garis terbuka untuk MAX -
garis terbuka untuk MIN) sebagai `eval`-nya, sehingga pohon yang sama
dapat ditelusuri dengan batas kedalaman (H-MINIMAX):

- `--depth 1` dan `--depth 2`: E(n) memilih pojok **X9** (bernilai 3 lalu
  0); fork-nya terletak di balik cakrawala.
- `--depth 3`: kemenangan mulai terlihat, dan X1 dipilih dengan nilai 10.

Halaman membuka pohon ini dengan pencarian dua ply dari kuliah (kedalaman
2), ketika cakrawala menyembunyikan kemenangan; hapus batas kedalaman untuk
melihat seluruh permainan.
"""}


def _in_indonesian(doc: dict, said: dict) -> dict:
    """``doc`` with ``translations: {id: said}`` after its description (where a
    reader of the file looks for it)."""
    out = {}
    for key, value in doc.items():
        out[key] = value
        if key == "description":
            out["translations"] = {"id": said}
    return out


def _nim() -> dict:
    tree = nim_tree(7, "MAX", title="Nim with 7 tokens (full game tree)",
                    source="G. Luger, Artificial Intelligence (2005), exhaustive minimax for "
                           "Nim; Luger-based lecture, slides 10-14; E. Natsheh, Game NIM",
                    description=NIM_DESCRIPTION, algorithm="minimax")
    return _in_indonesian(tree, NIM_ID)


def _nim_luger() -> dict:
    tree = nim_tree(7, "MIN", title="Nim with 7 tokens, MIN first (Luger's figure)",
                    source="G. Luger, Artificial Intelligence (2005), exhaustive minimax for "
                           "Nim; Luger-based lecture, slide 14",
                    description=NIM_LUGER_DESCRIPTION, algorithm="minimax")
    return _in_indonesian(tree, NIM_LUGER_ID)


def _tictactoe() -> dict:
    tree = opening_tree(title="Tic-tac-toe: two-ply minimax for the opening move",
                        source="G. Luger, Artificial Intelligence (2005), two-ply minimax "
                               "for the opening move; Luger-based lecture, slides 22-27",
                        description=TTT_DESCRIPTION, algorithm="minimax")
    return _in_indonesian(tree, TTT_ID)


LATOMBE_ORDER = {"x_order": (4, 0, 2, 6, 8, 1, 3, 5, 7), "o_order": (4, 1, 3, 5, 7, 0, 2, 6, 8)}


def _latombe() -> dict:
    tree = opening_tree(TicTacToe(**LATOMBE_ORDER),
                        title="Tic-tac-toe: alpha-beta on the two-ply opening",
                        source="J.-C. Latombe, CS121 (Stanford), as quoted in the "
                               "Luger-based lecture, slides 33-38",
                        description=LATOMBE_DESCRIPTION, algorithm="alphabeta")
    return _in_indonesian(tree, LATOMBE_ID)


HORIZON_DEPTH = 2
"""The lecture's two-ply look-ahead: the page opens the tree with this limit,
where E(n) prefers X9 and the winning fork lies beyond the horizon."""


def _horizon() -> dict:
    doc = full_tree(TicTacToe(start=HORIZON_START),
                    title="Tic-tac-toe: the horizon effect (depth-limited search)",
                    source="Luger's E(n) for tic-tac-toe (Luger-based lecture, slide 22); "
                           "H-MINIMAX and the horizon effect (ODU lecture 13, AIMA 5.4)",
                    description=HORIZON_DESCRIPTION, algorithm="alphabeta")
    doc = _in_indonesian(doc, HORIZON_ID)
    # The key goes where a reader expects it: after `algorithm`, before the players.
    return {k: v for key, value in doc.items() for k, v in
            ([(key, value), ("depth", HORIZON_DEPTH)] if key == "algorithm" else [(key, value)])}


GENERATED: dict[str, Callable[[], dict]] = {
    "nim-7": _nim,
    "nim-7-luger": _nim_luger,
    "tictactoe-two-ply": _tictactoe,
    "latombe-tictactoe-alphabeta": _latombe,
    "tictactoe-horizon": _horizon,
}
"""Tree id (= file stem) -> the function making its tree-file dict."""


def render(tree_id: str) -> str:
    """The YAML text of a generated tree, as the loader reads it back."""
    data = GENERATED[tree_id]()
    return dump_yaml(load_tree(json.dumps(data), fmt="json"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m app.games.build", description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="write nothing; exit 1 if a file differs from the rules' output")
    parser.add_argument("--out", type=Path, default=TREES_DIR, help="folder to write (default: trees/)")
    args = parser.parse_args(argv)
    stale = []
    for tree_id in GENERATED:
        path = args.out / f"{tree_id}.yaml"
        text = render(tree_id)
        if args.check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                stale.append(path.name)
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path}")
    if stale:
        print(f"out of date (run python -m app.games.build): {', '.join(stale)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
