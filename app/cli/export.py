"""``python -m app export FILE``: a picture of a run at one step.

    python -m app export aima-5-2 --algorithm alphabeta --step 5 --format png -o step5.png
    python -m app export tree.yaml --step end --format tikz -o tree.tex

``--step 0`` is the blank tree, ``--step end`` (the default) the final state.
Without ``--format`` the format follows the extension of ``-o``; without
``-o`` the picture goes to standard output.
"""
from __future__ import annotations

import sys
from pathlib import Path

from .common import add_search_arguments, add_tree_argument, load, options_from

FORMATS = ("svg", "png", "pdf", "dot", "tikz")
BY_SUFFIX = {".svg": "svg", ".png": "png", ".pdf": "pdf", ".dot": "dot", ".gv": "dot",
             ".tex": "tikz", ".tikz": "tikz"}


def register(sub) -> None:
    parser = sub.add_parser("export", help="draw a run at one step (SVG, PNG, PDF, DOT, TikZ)",
                            description="Draw a run at one step as SVG, PNG, PDF, DOT or TikZ.")
    add_tree_argument(parser)
    add_search_arguments(parser)
    parser.add_argument("--step", default="end", metavar="K",
                        help="the step to draw: 0 (blank tree) ... 'end' (default)")
    parser.add_argument("--format", choices=FORMATS,
                        help="default: from the extension of -o, else svg")
    parser.add_argument("--no-legend", action="store_true", help="leave out the legend")
    parser.add_argument("-o", "--output", metavar="OUT", help="default: standard output")
    parser.set_defaults(func=main)


def output_format(fmt: str | None, output: str | None) -> str:
    """The format asked for, else the one the output's extension names."""
    if fmt:
        return fmt
    if output:
        suffix = Path(output).suffix.lower()
        if suffix in BY_SUFFIX:
            return BY_SUFFIX[suffix]
        raise ValueError(f"cannot tell the format from {output!r}: give --format "
                         f"({', '.join(FORMATS)})")
    return "svg"


def write(data: bytes, output: str | None) -> None:
    """Write to ``output``, or to standard output when there is none."""
    if output in (None, "-"):
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
        return
    try:
        Path(output).write_bytes(data)
    except OSError as exc:
        raise ValueError(f"cannot write {output}: {exc.strerror}") from None


def main(args) -> int:
    from app.render import export, parse_step  # Graphviz is needed by this command only

    fmt = output_format(args.format, args.output)
    tree = load(args.file)
    data = export(tree, options_from(args), parse_step(args.step), fmt,
                  legend=not args.no_legend)
    write(data, args.output)
    return 0
