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


def _nim() -> dict:
    return nim_tree(7, "MAX", title="Nim with 7 tokens (full game tree)",
                    source="G. Luger, Artificial Intelligence (2005), exhaustive minimax for "
                           "Nim; Luger-based lecture, slides 10-14; E. Natsheh, Game NIM",
                    description=NIM_DESCRIPTION, algorithm="minimax")


def _nim_luger() -> dict:
    return nim_tree(7, "MIN", title="Nim with 7 tokens, MIN first (Luger's figure)",
                    source="G. Luger, Artificial Intelligence (2005), exhaustive minimax for "
                           "Nim; Luger-based lecture, slide 14",
                    description=NIM_LUGER_DESCRIPTION, algorithm="minimax")


def _tictactoe() -> dict:
    return opening_tree(title="Tic-tac-toe: two-ply minimax for the opening move",
                        source="G. Luger, Artificial Intelligence (2005), two-ply minimax "
                               "for the opening move; Luger-based lecture, slides 22-27",
                        description=TTT_DESCRIPTION, algorithm="minimax")


LATOMBE_ORDER = {"x_order": (4, 0, 2, 6, 8, 1, 3, 5, 7), "o_order": (4, 1, 3, 5, 7, 0, 2, 6, 8)}


def _latombe() -> dict:
    return opening_tree(TicTacToe(**LATOMBE_ORDER),
                        title="Tic-tac-toe: alpha-beta on the two-ply opening",
                        source="J.-C. Latombe, CS121 (Stanford), as quoted in the "
                               "Luger-based lecture, slides 33-38",
                        description=LATOMBE_DESCRIPTION, algorithm="alphabeta")


HORIZON_DEPTH = 2
"""The lecture's two-ply look-ahead: the page opens the tree with this limit,
where E(n) prefers X9 and the winning fork lies beyond the horizon."""


def _horizon() -> dict:
    doc = full_tree(TicTacToe(start=HORIZON_START),
                    title="Tic-tac-toe: the horizon effect (depth-limited search)",
                    source="Luger's E(n) for tic-tac-toe (Luger-based lecture, slide 22); "
                           "H-MINIMAX and the horizon effect (ODU lecture 13, AIMA 5.4)",
                    description=HORIZON_DESCRIPTION, algorithm="alphabeta")
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
