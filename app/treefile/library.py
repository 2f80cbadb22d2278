"""The lecture library: the tree files of a folder, in the course's order.

``order.txt`` in the folder lists tree ids (file stems) one per line, in the
order a course meets them; ``#`` starts a comment. Files it does not name come
after, alphabetically, so a new file shows up without editing the list.
"""
from __future__ import annotations

from pathlib import Path

SUFFIXES = (".yaml", ".yml", ".json")
ORDER_FILE = "order.txt"


def library_paths(folder: Path) -> list[Path]:
    """The tree files in ``folder``, in the order of ``order.txt`` then by name."""
    folder = Path(folder)
    if not folder.is_dir():
        return []
    paths = sorted(p for p in folder.iterdir() if p.suffix in SUFFIXES and p.is_file())
    order_file = folder / ORDER_FILE
    wanted: list[str] = []
    if order_file.is_file():
        for line in order_file.read_text(encoding="utf-8").splitlines():
            name = line.split("#", 1)[0].strip()
            if name:
                wanted.append(name)
    rank = {name: i for i, name in enumerate(wanted)}
    return sorted(paths, key=lambda p: (rank.get(p.stem, len(rank)), p.name))
