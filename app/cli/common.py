"""What several commands share: finding a tree and the search options."""
from __future__ import annotations

import argparse
from pathlib import Path

from app.budget import Games
from app.search import ALGORITHMS, ORDERS, SearchOptions

LIBRARY = Path(__file__).resolve().parents[2] / "trees"


def add_tree_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE",
                        help="a tree file (YAML, JSON or one-line notation), or the id of a library tree")


def add_search_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--algorithm", choices=ALGORITHMS,
                        help="default: the tree's own, else by its shape")
    parser.add_argument("--depth", type=int, metavar="N",
                        help="do not expand nodes at depth N (root = 0); use their eval")
    parser.add_argument("--order", choices=ORDERS, default="given", help="child order")
    parser.add_argument("--seed", type=int, metavar="S", help="seed of --order random")
    parser.add_argument("--strict", action="store_true",
                        help="prune only on strict inequality (v > beta, v < alpha)")
    parser.add_argument("--style", choices=("aima", "wikipedia"), default="aima",
                        help="formulation the events follow (where the two differ)")
    parser.add_argument("--bounds", type=float, nargs=2, metavar=("L", "U"),
                        help="every leaf value lies within [L, U] (star1; overrides the "
                             "tree file's bounds)")
    parser.add_argument("--iterations", type=int, metavar="N",
                        help="mcts: how many iterations (default 1000)")
    parser.add_argument("--exploration", type=float, metavar="C",
                        help="mcts: the constant C of UCB1 (default √2)")
    parser.add_argument("--max-iterations", type=int, metavar="N",
                        help="mcts: allow up to N iterations (default: the server's budget, "
                             f"{Games().mcts_iterations:,}; the search tree holds a node each)")


def add_lang_argument(parser: argparse.ArgumentParser) -> None:
    from app.i18n import LANGUAGES

    parser.add_argument("--lang", choices=tuple(LANGUAGES), default="en",
                        help="language of the sentences: en (English) or id (Bahasa Indonesia)")


def options_from(args: argparse.Namespace) -> SearchOptions:
    _check_iterations(getattr(args, "iterations", None), getattr(args, "max_iterations", None))
    bounds = getattr(args, "bounds", None)
    if bounds is not None:   # whole numbers stay whole: they are written as given
        bounds = tuple(int(x) if x.is_integer() else x for x in bounds)
    return SearchOptions(algorithm=args.algorithm, depth=args.depth, order=args.order,
                         seed=args.seed, strict=args.strict, style=args.style, bounds=bounds,
                         iterations=getattr(args, "iterations", None),
                         exploration=getattr(args, "exploration", None))


def _check_iterations(iterations: int | None, lifted: int | None) -> None:
    """The server's budget of Monte Carlo iterations (app.budget) holds here too: the
    search tree grows a node per iteration, so 10^8 would fill the memory."""
    limit = Games().mcts_iterations if lifted is None else lifted
    if iterations is not None and iterations > limit:
        raise ValueError(f"--iterations {iterations:,}: at most {limit:,} here (a node of "
                         f"memory each); add --max-iterations {iterations} to lift the limit")


def load(file: str):
    """The tree in ``file``; a bare name that is no file is looked up in trees/;
    ``game:...`` names a game searched from its rules (app.games.ids)."""
    from app.games.ids import is_game_id, resolve
    from app.treefile import load_path

    if is_game_id(file) and not Path(file).exists():
        return resolve(file)

    path = Path(file)
    if not path.exists() and not any(sep in file for sep in "/\\"):
        for candidate in (LIBRARY / f"{file}.yaml", LIBRARY / f"{file}.json"):
            if candidate.exists():
                path = candidate
                break
    if not path.is_file():
        raise ValueError(f"{file}: no such file")
    try:
        return load_path(path)
    except ValueError as exc:
        raise ValueError(f"{file}: {exc}") from None
