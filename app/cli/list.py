"""``python -m app list``: the lecture library in trees/."""
from __future__ import annotations

import json

from .common import LIBRARY


def register(sub) -> None:
    parser = sub.add_parser("list", help="list the lecture trees in trees/")
    parser.add_argument("--format", choices=("text", "json"), default="text")
    parser.set_defaults(func=main)


def main(args) -> int:
    from app.treefile import load_path
    from app.treefile.library import library_paths

    rows = []
    for path in library_paths(LIBRARY):
        try:
            tree = load_path(path)
        except ValueError as exc:  # one bad file must not hide the others
            rows.append({"id": path.stem, "error": str(exc)})
            continue
        rows.append({"id": path.stem, **tree.summary()})
    if args.format == "json":
        print(json.dumps(rows, ensure_ascii=False))
        return 0
    width = max((len(r["id"]) for r in rows), default=2)
    for r in rows:
        if "error" in r:
            print(f"{r['id']:<{width}}  (cannot load: {r['error']})")
        else:
            print(f"{r['id']:<{width}}  {r['nodes']:>5} nodes  {r['algorithm']:<14} {r['title']}")
    return 0
