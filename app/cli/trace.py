"""``python -m app trace FILE``: the events of a search (contract §2)."""
from __future__ import annotations

import json
import sys

from app.search import run
from app.search.numbers import fmt

from app.i18n import words

from .common import add_lang_argument, add_search_arguments, add_tree_argument, load, options_from


def register(sub) -> None:
    parser = sub.add_parser("trace", help="print the events of a search, one per line")
    add_tree_argument(parser)
    add_search_arguments(parser)
    parser.add_argument("--format", choices=("jsonl", "text"), default="text")
    add_lang_argument(parser)
    parser.set_defaults(func=main)


def main(args) -> int:
    tree = load(args.file)
    events = run(tree, options_from(args), words(args.lang))  # raises before any output if options misfit
    out = sys.stdout
    if args.format == "jsonl":
        for event in events:
            out.write(json.dumps(event, ensure_ascii=False, allow_nan=False) + "\n")
    else:
        for event in events:
            out.write(text_line(event) + "\n")
    out.flush()
    return 0


def text_line(event: dict) -> str:
    """One readable line: step, indentation by depth, kind, node, bounds, sentence."""
    step = f"{event['step']:>4}"
    if event["type"] in ("done", "iteration"):
        return f"{step}  {event['type']:<9} {event['text']}"
    indent = "  " * event.get("depth", 0)
    bounds = ""
    if "alpha" in event:
        bounds = f"α={fmt(event['alpha'])} β={fmt(event['beta'])} "
    value = f"v={fmt(event['v'])}" if "v" in event else ""
    state = f"[{bounds}{value}]".replace(" ]", "]") if (bounds or value) else ""
    left = f"{indent}{event['type']:<8} {event['node']}"
    return f"{step}  {left:<24} {state:<24} {event['text']}"
