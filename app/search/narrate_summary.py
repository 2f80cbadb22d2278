"""The narrator's summary: the ``done`` event (value, best move, principal
variation, what was evaluated and cut, the counts) and its closing
sentence. A part of :class:`app.search.narrate.Narrator`.
"""
from __future__ import annotations

from .numbers import jv


class SummarySentences:
    """The ``done`` event (mixed into :class:`~app.search.narrate.Narrator`)."""

    def principal_variation(self) -> list[str]:
        pv = [self.tree.root]
        while pv[-1].id in self.best_child:
            pv.append(self.best_child[pv[-1].id])
        return [n.id for n in pv]

    def done(self) -> dict:
        root = self.tree.root
        best = self.best_child.get(root.id)
        if root.chance:
            best = None
        limit = self.last_depth
        minimax_evaluated = self.tree.static_count(limit)
        evaluated = len(self.evaluated)
        stats = {"entered": self.entered, "evaluated": evaluated, "cutoffs": self.cutoffs,
                 "pruned_nodes": self.pruned_nodes, "minimax_evaluated": minimax_evaluated,
                 "saved": minimax_evaluated - evaluated, "events": self.step + 1}
        value = self.root_value
        head = (self.tells("done_move",
                          root=self.root_phrase(root), value=self.figure(value),
                          move=self.move(root, best))
                if best is not None else
                self.tells("done", root=self.root_phrase(root),
                          value=self.figure(value)))
        text = head + " " + self._counts(evaluated, minimax_evaluated, stats["saved"])
        extra = {"value": jv(value), "best_move": best.id if best is not None else None,
                 "evaluated": list(self.evaluated), "pruned": list(self.pruned),
                 "pv": self.principal_variation(), "stats": stats}
        if self.iterations:
            extra["iterations"] = self.iterations
        self.step += 1
        lines = self.lines("done", None)
        return {"type": "done", "step": self.step, **extra, "lines": lines,
                "text": text, "changes": []}


    def _counts(self, evaluated: int, plain: int, saved: int) -> str:
        """The counts that end the summary: "7 static evaluations, 1 cut-off; ..."."""
        one, cuts = evaluated == 1, self.cutoffs == 1
        fields = dict(n=evaluated, cutoffs=self.cutoffs, plain=plain, saved=saved)
        if not self.bounds:
            return (self.tells("count_1", **fields) if one else
                    self.tells("count_n", **fields))
        if self.star:
            if one and cuts:
                return self.tells("star_1_1", **fields)
            if one:
                return self.tells("star_1_n", **fields)
            if cuts:
                return self.tells("star_n_1", **fields)
            return self.tells("star_n_n", **fields)
        if one and cuts:
            return self.tells("plain_1_1", **fields)
        if one:
            return self.tells("plain_1_n", **fields)
        if cuts:
            return self.tells("plain_n_1", **fields)
        return self.tells("plain_n_n", **fields)
