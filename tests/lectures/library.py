"""Running the real search core on a tree of the lecture library."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from app.search import SearchOptions, Tree, run
from app.treefile import load_path

REPO = Path(__file__).resolve().parents[2]
TREES = REPO / "trees"


def load(tree_id: str) -> Tree:
    return load_path(TREES / f"{tree_id}.yaml")


@dataclass
class Run:
    """The events of one search, with the parts the lectures talk about."""

    events: list[dict]
    done: dict = field(init=False)
    exits: dict = field(init=False)
    """Node id -> the value it returned to its parent (``exit`` events)."""
    prunes: list[dict] = field(init=False)

    def __post_init__(self) -> None:
        self.done = self.events[-1]
        assert self.done["type"] == "done"
        self.exits = {e["node"]: e["value"] for e in self.events if e["type"] == "exit"}
        self.prunes = [e for e in self.events if e["type"] == "prune"]

    @property
    def value(self):
        return self.done["value"]

    @property
    def best_move(self):
        return self.done["best_move"]

    @property
    def evaluated(self) -> list[str]:
        return self.done["evaluated"]

    @property
    def pruned(self) -> list[str]:
        return self.done["pruned"]

    @property
    def stats(self) -> dict:
        return self.done["stats"]

    def updates(self) -> list[tuple[str, object]]:
        """(node, new value) of every ``update`` event, in order: the running
        values a lecturer writes beside the nodes. A step where the child's
        value leaves v as it was writes nothing new and is left out."""
        return [(e["node"], e["new"]) for e in self.events
                if e["type"] == "update" and e["new"] != e["old"]]


def search(tree_id: str, **options) -> Run:
    return Run(list(run(load(tree_id), SearchOptions(**options))))
