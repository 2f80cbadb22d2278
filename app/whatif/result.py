"""One what-if run: the core's search of an edited tree, summed up.

The page does not step through a what-if run; it shows where the search
ends: every node's final status, value and bounds, the cuts and why, the
best move and the counts. All of it is read from the core's own events
(:func:`app.search.run`), never recomputed here.
"""
from __future__ import annotations

from dataclasses import dataclass

from app.search import SearchOptions, View, run

from app.budget import refusal

from .budget import Budget


@dataclass(frozen=True)
class Outcome:
    """Where a search of a tree ends."""

    options: dict
    value: object
    best_move: str | None
    pv: list[str]
    evaluated: list[str]
    pruned: list[str]
    stats: dict
    nodes: dict[str, list]
    """id -> [status, value, alpha, beta] at the end, for every node."""
    cuts: list[dict]
    """One per cut-off: ``node`` (where it happened), ``skipped``, ``cut``
    (alpha or beta), ``bound``, ``by`` (the ancestor that set the bound), ``test``."""
    text: str
    """The core's closing sentence."""

    def to_json(self) -> dict:
        return {"options": self.options, "value": self.value, "best_move": self.best_move,
                "pv": self.pv, "evaluated": self.evaluated, "pruned": self.pruned,
                "stats": self.stats, "nodes": self.nodes, "cuts": self.cuts, "text": self.text}

    def cut_at(self, node_id: str) -> dict | None:
        """The cut-off that skipped ``node_id`` (a skipped child itself)."""
        for cut in self.cuts:
            if node_id in cut["skipped"]:
                return cut
        return None


def search(tree, options: SearchOptions, budget: Budget, words=None) -> Outcome:
    """Run the search to its end within the budget's number of events
    (``words``: says the core's sentences in the reader's language)."""
    opts = options.resolved(tree)          # SearchError before any event
    view = View(tree)
    cuts: list[dict] = []
    done = None
    events = run(tree, opts, words)
    try:
        for count, event in enumerate(events, 1):
            if count > budget.editor.editor_steps:
                raise refusal("This search takes more than {limit:,} steps, too many to re-run "
                              "on every edit: set a depth limit.", 413,
                              say={"limit": budget.editor.editor_steps}, limit=budget.editor.editor_steps)
            view.apply(event["changes"])
            kind = event["type"]
            if kind == "prune":
                cuts.append({k: event.get(k) for k in
                             ("node", "skipped", "cut", "bound", "by", "test")})
            elif kind == "done":
                done = event
    finally:
        events.close()
    nodes = {}
    for node_id, s in view.all().items():  # as shown: all below a pruned top pruned
        nodes[node_id] = [s["status"], s["value"], s["alpha"], s["beta"]]
    options_json = {"algorithm": opts.algorithm, "depth": opts.depth, "order": opts.order,
                    "strict": opts.strict}
    return Outcome(options_json, done["value"], done["best_move"], done["pv"],
                   done["evaluated"], done["pruned"], done["stats"], nodes, cuts, done["text"])
