"""Monte Carlo tree search's compact records: its raw events (:mod:`app.search.mcts`)
as the browser receives them when it narrates them itself
(``static/js/core/narrate-mcts.js`` makes of them the very events
:mod:`app.search.narrate_mcts` yields; tests/browser/test_narrate_parity.py).

Only what the page cannot work out: the page holds the search tree (which
child each node tried, in order), every node's visits and total, the
iteration and where it stands, so a selection is the index of the child it
picks, a back-propagation nothing at all; the UCB1 rows, the means and the
sentences are the page's arithmetic on the numbers it holds, in the same
order of operations as :func:`app.search.mcts.ucb_rows` (IEEE doubles both:
+, -, ×, ÷ and √ are correctly rounded everywhere; the logarithm is not, so
it comes with the records).

==================================  ==============================================
record                              meaning
==================================  ==============================================
``[9, header]``                     as :mod:`app.search.compact`'s, with ``mcts``:
                                    ``{iterations, exploration, range: [L, U],
                                    words}`` (exact; ``words``: the rows' and
                                    playouts' moves in words; ``playout_words``:
                                    n, the page says a playout's first n moves
                                    in words itself, from their names: a game
                                    whose rules name moves, words on;
                                    ``move_words``: true, the page says every
                                    move of this game in words itself, from
                                    the labels: no ``[6]`` records) and the
                                    lines by kind
``[4, id, null, label, player]``    a lazily searched game's root
``[5, label, words]``               a game's position in words (null: none)
``[6, parent label, label, words]`` a game's move in words (null: none; none
                                    sent with ``move_words``)
``[10, i]``                         SELECT: the ``i``-th child tried (0-based);
``[10, i, ln]``                     the first time a node with these visits N
                                    selects, ln N as the server's ``math.log``
                                    has it (a browser's ``Math.log`` is 1 ulp
                                    off for some N: 973 of 1..100,000 in V8)
``[11]``                            EXPAND: the node's next child (in the tree's
``[11, id, label, player]``         order); a lazy game's child, named
``[12, result, ids, cutoff]``       SIMULATE from where the iteration stands:
``[12, result, ids, cutoff, moves]`` the result (exact), the ids passed (none:
                                    the node itself ended it; a lazy game's:
                                    the moves' names, its ids being the paths
                                    of names from the start, ``X5-O1``), the
                                    depth limit stopped it; ``moves`` (a
                                    game's, words on, no ``playout_words``):
                                    its first moves in words
``[13]``                            BACKUP of that result to the root
``[8, null]``                       last: the page makes the summary
==================================  ==============================================
"""
from __future__ import annotations

import json
from math import log
from json.encoder import encode_basestring as _quote
from typing import Callable, Iterator

from . import mcts as M
from . import narrate_mcts as NM
from .compact import header, _value_text
from .descriptors import get
from .options import SearchOptions
from .pseudocode import line_of
from .states import describe, kind_of, move_words
from .tree import Tree


PAGE_GAMES = ("tictactoe", "connect4")
"""The games whose playouts' first moves the page says in words itself, from their
names (static/js/core/move-words.js; bench/mcts.py's "before" column empties it)."""


def _exact(x):
    """A number as JSON carries it exactly (infinities as the records write them)."""
    return x if x not in (float("inf"), -float("inf")) else ("inf" if x > 0 else "-inf")


def records(tree: Tree, opts: SearchOptions, tell: Callable[..., str],
            raw: Iterator[tuple]) -> Iterator[tuple[str, int]]:
    """``(json_text, weight)`` of each record of a run of ``opts`` (resolved), lazily."""
    root = tree.root
    game = kind_of(root.label, [c.label for c in root.children])
    lazy = bool(getattr(tree, "lazy", False))
    desc = get(opts.algorithm)
    c = M.DEFAULT_EXPLORATION if opts.exploration is None else opts.exploration
    lo, hi = M.value_range(tree)
    words = game is not None and opts.iterations <= NM.WORDS_UP_TO
    rules = getattr(tree, "rules", None)
    move_names = getattr(rules, "move_names", None) if lazy else None
    # The page says these playouts' first moves in words itself, from their names
    # (static/js/core/move-words.js, the twin of states.move_words): tic-tac-toe's and
    # Connect Four's; a tree file's and Nim's still come in words.
    page_words = words and move_names is not None and game in PAGE_GAMES
    head = header(tree, opts, game)
    # (as MctsNarrator.lines: one line a kind, whatever the node)
    head["lines"] = {f"{kind}:": {"aima": line_of(desc.id, "aima", kind, None)}
                     for kind in desc.events}
    head["mcts"] = {"iterations": opts.iterations, "exploration": _exact(c),
                    "range": [_exact(lo), _exact(hi)], "words": words}
    if page_words:
        head["mcts"]["playout_words"] = NM.PLAYOUT_WORDS
    page_moves = game in PAGE_GAMES   # (and every move from label to label: no [6] records)
    if page_moves:
        head["mcts"]["move_words"] = True
    yield f"[9,{json.dumps(head, ensure_ascii=False)}]", 1
    quote = _quote
    named: set[str] = set()
    moved: set[tuple[str, str]] = set()
    names: dict = {}
    logs: set[int] = set()   # the visits N whose ln N the page has

    def name_of(label: str):   # a game's position in words, once a run
        if label not in named:
            named.add(label)
            said = names[label] = describe(game, label, tell)
            return f"[5,{quote(label)},{quote(said) if said else 'null'}]"
        return None

    def move_of(parent: str, label: str):   # a game's move in words, once a run
        key = (parent, label)
        if key not in moved and not page_moves:
            moved.add(key)
            said = move_words(game, parent, label, tell)
            return f"[6,{quote(parent)},{quote(label)},{quote(said) if said is not None else 'null'}]"
        return None

    def move(a, b) -> str:   # (narrate.Narrator.move, for a tree file's playout in words)
        said = move_words(game, a.label, b.label, tell)
        if said is not None:
            return said
        if b.label not in names:
            names[b.label] = describe(game, b.label, tell)
        return names[b.label] or b.label

    if lazy:
        yield f"[4,{quote(root.id)},null,{quote(root.label)},{root.player}]", 1
    if game and (said := name_of(root.label)):
        yield said, 1
    SELECT, EXPAND, SIMULATE = M.SELECT, M.EXPAND, M.SIMULATE
    path_ids = M.path_ids
    for ev in raw:
        kind = ev[0]
        if kind == SELECT:
            parent = ev[1]
            n = parent.visits
            if n in logs:
                yield f"[10,{parent.children.index(ev[2])}]", 1
            else:
                logs.add(n)
                yield f"[10,{parent.children.index(ev[2])},{log(n)!r}]", 1
        elif kind == EXPAND:
            node = ev[2].node
            if game:
                if said := name_of(node.label):
                    yield said, 1
                if said := move_of(ev[1].node.label, node.label):
                    yield said, 1
            if lazy:
                yield f"[11,{quote(node.id)},{quote(node.label)},{node.player}]", 1
            else:
                yield "[11]", 1
        elif kind == SIMULATE:
            _, start, result, path, cutoff = ev
            cut = "true" if cutoff else "false"
            if not path:
                yield f"[12,{_value_text(result)},[],{cut}]", 1
                continue
            # (a game's positions, for the server's words of its moves: none when the page says them)
            states = [] if words and not page_words else None
            if move_names is not None:   # the names: the page makes the ids (theirs grow as a square)
                ids = ",".join([quote(i) for i in move_names(*path)])
            elif lazy:   # (a name holds no "-": the ids join them with it)
                ids = ",".join([quote(i.rsplit("-", 1)[-1])
                                for i in path_ids(tree, start.node, path, states)])
            else:
                ids = ",".join([quote(i) for i in path_ids(tree, start.node, path, states)])
            if game and not lazy and (said := name_of(path[-1].label)):
                yield said, 1   # (the sentence names where a tree file's playout ends)
            if words and not page_words:
                said = NM.playout_words(tree, game, tell, start.node, path, move, states)
                yield (f"[12,{_value_text(result)},[{ids}],{cut},"
                       f"[{','.join([quote(w) for w in said])}]]"), 1
            else:
                yield f"[12,{_value_text(result)},[{ids}],{cut}]", 1
        else:   # BACKUP: of the simulation's result, from where the iteration stands
            yield "[13]", 1
    yield "[8,null]", 1
