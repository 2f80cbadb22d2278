"""``python -m app worksheet``: printable PDF worksheets and exam sheets.

    python -m app worksheet aima-5-2 -o sheet.pdf            # question + answer key
    python -m app worksheet aima-5-2 --steps -o sheet.pdf    # ... + one page per step
    python -m app worksheet --exam 5 --seed 100 --branching 2:3 --depth 3 \\
        --values -9:9 -o questions.pdf --answers answers.pdf

In exam mode ``--depth`` is the depth of the random trees (tree i uses seed
S + i - 1), not a search depth limit.
"""
from __future__ import annotations

import argparse

from .common import add_search_arguments, load, options_from
from .export import write
from .random import _NEGATIVE, _int_range

MAX_EXAM = 100


def register(sub) -> None:
    parser = sub.add_parser("worksheet", help="a printable worksheet (PDF), or an exam sheet",
                            description="Printable PDF worksheets and exam sheets.")
    parser._negative_number_matcher = _NEGATIVE  # --values -10:10
    parser.add_argument("file", metavar="FILE", nargs="?",
                        help="a tree file or library id (not with --exam)")
    add_search_arguments(parser)
    parser.add_argument("--steps", action="store_true",
                        help="add one page per step of the run (a flip-book)")
    parser.add_argument("--title", help="title of the sheet (default: the tree's)")
    parser.add_argument("--exam", type=int, metavar="N", help="N random trees instead of FILE")
    parser.add_argument("--branching", default="3", type=lambda s: _int_range(s, "branching"),
                        help="exam trees: children per node, N or LOW:HIGH (default 3)")
    parser.add_argument("--values", default="-10:10", type=lambda s: _int_range(s, "values"),
                        help="exam trees: leaf values LOW:HIGH (default -10:10)")
    parser.add_argument("-o", "--output", metavar="OUT.pdf", required=True,
                        help="the worksheet, or the exam questions ('-': standard output)")
    parser.add_argument("--answers", metavar="ANSWERS.pdf",
                        help="exam answers (default: OUT-answers.pdf)")
    parser.set_defaults(func=main)


def main(args: argparse.Namespace) -> int:
    from app.render.worksheet import exam, worksheet  # Graphviz is needed here only

    if args.exam is None:
        if args.file is None:
            raise ValueError("give a tree FILE, or --exam N for random trees")
        pdf = worksheet(load(args.file), options_from(args), steps=args.steps, title=args.title)
        write(pdf, args.output)
        return 0
    if args.file is not None:
        raise ValueError("give either a tree FILE or --exam N, not both")
    if not 1 <= args.exam <= MAX_EXAM:
        raise ValueError(f"--exam must be between 1 and {MAX_EXAM}, not {args.exam}")
    if args.output == "-" and not args.answers:
        raise ValueError("give --answers when the questions go to standard output")
    from app.games.random_tree import random_tree

    depth = 3 if args.depth is None else args.depth
    seed = 0 if args.seed is None else args.seed
    branching = args.branching if args.branching[0] != args.branching[1] else args.branching[0]
    trees = [random_tree(branching=branching, depth=depth, values=args.values, seed=seed + i)
             for i in range(args.exam)]
    options = options_from(argparse.Namespace(**{**vars(args), "depth": None, "seed": None}))
    questions, answers = exam(trees, options, title=args.title or "Exam")
    write(questions, args.output)
    write(answers, args.answers or _answers_name(args.output))
    return 0


def _answers_name(output: str) -> str:
    stem = output[:-4] if output.lower().endswith(".pdf") else output
    return f"{stem}-answers.pdf"
