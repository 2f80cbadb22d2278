"""Game ids (contract §1): a game named where a tree id is accepted.

``game:tictactoe`` (the empty board, X = MAX to move), ``game:tictactoe:<9
cells>`` (``x``, ``o`` or ``.``, row by row; the side to move follows from
the counts), ``game:nim:<piles>`` (``7``, or several piles ``5-1-1``; MAX
moves first, ``game:nim:5-1-1:min`` lets MIN), ``game:connect4`` (6 x 7;
``game:connect4:<columns played, 1-7>`` a position).

>>> tree = resolve("game:tictactoe:x...o....")
>>> tree.root.label, tree.players[tree.root.player]
('X··/·O·/···', 'MAX')
>>> resolve("game:nim:7").root.label
'7'
>>> resolve("game:chess")
Traceback (most recent call last):
...
app.games.ids.UnknownGame: unknown game 'chess': the games are tictactoe, nim and connect4
"""
from __future__ import annotations

from app.search.words import Said

from .lazy import GameTree
from .rules import BadPosition, Connect4Rules, NimRules, TicTacToeRules

PREFIX = "game:"
CONNECT4_DEPTH = 4
"""The depth limit a Connect Four page opens with."""
CONNECT4_MAX_DEPTH = 8
"""The deepest limit a Connect Four search may use (7^8 = 5.7 million positions)."""


def N_(msgid: str) -> str:
    """Mark ``msgid`` for the catalogue (the web app says it in the reader's language)."""
    return msgid


def _said(tree: GameTree, title: str, **fields) -> GameTree:
    """Keep the title's and description's catalogue messages on ``tree``
    (``said``: key -> (msgid, fields)); the English stays its ``title``."""
    tree.said = {"title": (title, fields), "description": (tree.description, {}),
                 "source": (tree.source, {})}
    return tree


class UnknownGame(Said, ValueError):
    """A ``game:`` id that names no game or no legal position; its sentence
    is a catalogue message (``msgid`` with ``{named}`` fields)."""


class GameTooBig(Said, ValueError):
    """A game (or a search of it) over its budget; ``nodes`` is its size,
    or how far the count got when it stopped (``exact`` False: at least)."""

    def __init__(self, msgid: str, nodes: int, limit: int, exact: bool = True, **fields):
        super().__init__(msgid, nodes=nodes, limit=limit, **fields)
        self.nodes, self.limit, self.exact = nodes, limit, exact


def check_size(tree: GameTree, most: int, depth: int | None = None) -> int | None:
    """The nodes of game ``tree`` down to ``depth`` (to the end: ``None``),
    counted on positions and no further than ``most``: past it,
    :class:`GameTooBig`. ``None`` for a game too big to count to the end,
    which is searched to a depth limit only (Connect Four).

    >>> check_size(resolve("game:nim:7"), 100)
    24
    >>> check_size(resolve("game:nim:40"), 10 ** 9)
    Traceback (most recent call last):
    ...
    app.games.ids.GameTooBig: game:nim:40 has more than 1,000,000,000 nodes: too big to search here (at most 1,000,000,000). Start from a smaller position.
    """
    nodes, exact = tree.count(most, depth)
    if nodes is not None and (not exact or nodes > most):
        msgid = (N_("{id} has {nodes:,} nodes: too big to search here (at most {limit:,}). "
                    "Start from a smaller position.") if exact else
                 N_("{id} has more than {limit:,} nodes: too big to search here (at most "
                    "{limit:,}). Start from a smaller position."))
        raise GameTooBig(msgid, nodes, most, exact, id=tree.game_id)
    return nodes


def is_game_id(tree_id: str) -> bool:
    return isinstance(tree_id, str) and tree_id.startswith(PREFIX)


def resolve(tree_id: str) -> GameTree:
    """The lazily searched tree a ``game:`` id names; :class:`UnknownGame` if none."""
    if not is_game_id(tree_id) or len(tree_id) > 100:
        raise UnknownGame("{id} is not a game id (game:tictactoe, game:nim:7, ...)",
                          id=repr(tree_id[:100]))
    name, _, arg = tree_id[len(PREFIX):].partition(":")
    try:
        if name == "tictactoe":
            rules = TicTacToeRules(arg.replace("_", ".") if arg else "." * 9)
            title = (N_("Tic-tac-toe from the empty board") if not arg
                     else N_("Tic-tac-toe from a position"))
            return _said(GameTree(rules, game_id=tree_id, title=title,
                                  source=N_("The rules of tic-tac-toe (AIMA 5.1); E(n) = M - O "
                                            "(Luger)"), description=TTT, algorithm="alphabeta"),
                         title)
        if name == "nim":
            piles, _, first = arg.partition(":")
            if first not in ("", "max", "min"):
                raise BadPosition("who moves first is max or min")
            if piles and not all(p.isdigit() for p in piles.split("-")):
                raise BadPosition("Nim piles are whole numbers of at least 1 token")
            heaps = tuple(int(p) for p in piles.split("-")) if piles else (7,)
            piles = "-".join(map(str, sorted(heaps, reverse=True)))
            title = N_("Nim from piles {piles}")
            return _said(GameTree(NimRules(heaps, "MIN" if first == "min" else "MAX"),
                                  game_id=tree_id, title=title.format(piles=piles),
                                  source=N_("Luger's Nim: split a pile into two unequal piles"),
                                  description=NIM, algorithm="minimax"), title, piles=piles)
        if name == "connect4":
            title = N_("Connect Four from a position") if arg else N_("Connect Four")
            return _said(GameTree(Connect4Rules(arg), game_id=tree_id, title=title,
                                  source=N_("The rules of Connect Four (6 rows x 7 columns)"),
                                  description=C4, algorithm="alphabeta",
                                  depth=CONNECT4_DEPTH, max_depth=CONNECT4_MAX_DEPTH), title)
    except ValueError as exc:   # the rules' own reason, said in the reader's language
        raise UnknownGame("{id}: {reason}", id=tree_id,
                          reason=exc if isinstance(exc, Said) else str(exc)) from None
    raise UnknownGame("unknown game {name}: the games are tictactoe, nim and connect4",
                      name=repr(name))


TTT = N_("""Tic-tac-toe searched from its rules as the search goes: no file, no
tree written out. From the empty board, minimax enters 549,946 nodes and
evaluates 255,168 finished games; alpha-beta needs a small fraction of that.
With a depth limit, the positions on the limit are scored by Luger's
E(n) = M - O: lines still open for MAX minus lines still open for MIN.
A win is worth 10, a loss -10, a draw 0.""")

NIM = N_("""Luger's Nim searched from its rules: a move splits one pile into two
piles of different sizes; the player who cannot move loses. 1 = MAX wins,
0 = MIN wins.""")

C4 = N_("""Connect Four (6 rows x 7 columns) searched from its rules with a depth
limit: far too big to search to the end. Positions on the limit are scored
by open lines of four (2 in a line 2, 3 in a line 5, a disc in the centre
column 3; MAX's minus MIN's); a win is worth 1000. Moves are searched from
the centre column out.""")
