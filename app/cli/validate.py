"""``python -m app validate FILE...``: check tree files and summarise them.

Prints ``ok: <title> (<n> nodes, <leaves> leaves, height <h>)`` for each
good file; for a bad one, ``error: FILE:line:column: message`` on one line
of standard error. Exit status 0 when every file is good, else 2.
"""
from __future__ import annotations

import sys

from app.i18n import error_message
from app.treefile import FORMATS, TreeFileError, load_path, load_tree

from .common import add_lang_argument


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "validate", help="check tree files (YAML, JSON or the one-line notation)",
        description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+", metavar="FILE",
                        help="tree files to check ('-' reads standard input)")
    parser.add_argument("--format", choices=FORMATS, default=None,
                        help="the files' format (default: from the name, then the text)")
    add_lang_argument(parser)
    parser.set_defaults(func=run)


def run(args) -> int:
    status = 0
    for name in args.files:
        try:
            if name == "-":
                tree = load_tree(sys.stdin.buffer.read(), fmt=args.format)
            else:
                tree = load_path(name, fmt=args.format)
        except TreeFileError as exc:
            message = error_message(exc, args.lang)
            print(f"error: {location(name, exc)}: {' '.join(message.split())}",
                  file=sys.stderr)
            status = 2
            continue
        leaves = sum(1 for node in tree.nodes if node.is_leaf)
        print(f"ok: {tree.title} ({len(tree.nodes)} nodes, {leaves} leaves, "
              f"height {tree.height})")
    return status


def location(name: str, exc: TreeFileError) -> str:
    """``FILE:line:column`` as compilers print it (the parts that are known)."""
    parts = [name if name != "-" else "<stdin>"]
    if exc.line is not None:
        parts.append(str(exc.line))
        if exc.column is not None:
            parts.append(str(exc.column))
    return ":".join(parts)
