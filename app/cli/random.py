"""``python -m app random``: write a random game tree as YAML.

    python -m app random --branching 3 --depth 3 --seed 4217 -o tree.yaml
    python -m app random --branching 2..4 --depth 4 --values -10:10 --chance

The same options give the same tree on every machine, so a lecturer can
hand out "tree 4217" and everyone draws the same one.
"""
from __future__ import annotations

import argparse
import re
import sys

from app.games.random_tree import DEFAULT_VALUES, random_tree

# argparse takes "-10:10" for an option; let it pass as a value like "-10" does.
_NEGATIVE = re.compile(r"^-\d+(?:(?::|\.\.)-?\d+)?$")


def _int_range(text: str, what: str) -> tuple[int, int]:
    """``"3"`` -> (3, 3); ``"2..4"``, ``"2:4"``, ``"-10:10"`` -> (low, high)."""
    m = re.fullmatch(r"\s*(-?\d+)\s*(?:(?:\.\.|:)\s*(-?\d+)\s*)?", text)
    if m is None and what == "branching":
        m = re.fullmatch(r"\s*(\d+)\s*-\s*(\d+)\s*", text)  # "2-4" reads naturally too
    if m is None:
        raise argparse.ArgumentTypeError(f"{what} must be N or LOW:HIGH, not {text!r}")
    lo = int(m[1])
    hi = int(m[2]) if m[2] is not None else lo
    return lo, hi


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "random", help="write a random game tree (YAML) from a seed",
        description="Write a random game tree as YAML; the same seed gives the same tree.")
    p._negative_number_matcher = _NEGATIVE
    p.add_argument("--branching", default="3", type=lambda s: _int_range(s, "branching"),
                   help="children per inner node: N, or a range LOW:HIGH drawn per node (default 3)")
    p.add_argument("--depth", type=int, default=3, help="depth of every leaf (default 3)")
    p.add_argument("--values", default=f"{DEFAULT_VALUES[0]}:{DEFAULT_VALUES[1]}",
                   type=lambda s: _int_range(s, "values"),
                   help="leaf values, LOW:HIGH, both included (default -10:10)")
    p.add_argument("--seed", type=int, default=None,
                   help="seed; the same seed gives the same tree (default: a fresh one)")
    p.add_argument("--players", type=int, default=2,
                   help="2 (MAX/MIN) or more for a max^n tree with one value per player")
    p.add_argument("--chance", action="store_true",
                   help="alternate MAX, chance, MIN, chance layers (expectiminimax)")
    p.add_argument("--evals", action="store_true",
                   help="give inner nodes an eval (a noisy estimate) for depth-limited search")
    p.add_argument("--bounds", action="store_true",
                   help="keep the leaf values' range as the tree's bounds (Star1 prunes at chance nodes)")
    p.add_argument("-o", "--output", metavar="FILE", help="write here instead of standard output")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from app.treefile import dump_yaml  # imported late: only this command needs it

    tree = random_tree(branching=args.branching, depth=args.depth, values=args.values,
                       seed=args.seed, players=args.players, chance=args.chance,
                       evals=args.evals, bounds=args.bounds)
    text = dump_yaml(tree)
    if args.output:
        try:
            with open(args.output, "w", encoding="utf-8") as f:
                f.write(text)
        except OSError as exc:
            raise ValueError(f"cannot write {args.output}: {exc.strerror}") from None
    else:
        sys.stdout.write(text)
    return 0
