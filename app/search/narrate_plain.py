"""The narrator's hot path: a child's value coming back in a two-player
search without chance nodes, the bulk of a long stream. The child's exit or
evaluation and the update of v are written out in one method, as
:meth:`~app.search.narrate.Narrator.on_exit`, ``on_eval``, ``on_update`` and
``on_keep`` make them (tests/search/test_narration_shortcuts.py holds both
to the same events); bounds and cut-offs go to :mod:`app.search.narrate_cuts`.
"""
from __future__ import annotations

from .numbers import jv, unview as _num
from .tree import Node


class PlainReturns:
    """Returns of plain two-player searches (mixed into :class:`~app.search.narrate.Narrator`)."""

    def _ret_plain(self, node: Node, child: Node, val, cutoff, v_old, v_new, b_old, b_new,
                   skipped) -> list[dict]:
        """:meth:`on_ret` for two players and plain numbers (no chance node,
        no vectors), the common case of a long stream: the child's exit or
        evaluation and the update of v written out in one place, as
        :meth:`on_exit`, :meth:`on_eval`, :meth:`on_update` and :meth:`on_keep`
        make them (tests/search/test_narration_shortcuts.py holds both to the same events)."""
        maps = self._maps
        status, values = maps["status"], maps["value"]
        figure, names, says, name = self.figure, self._names, self.says, self.name
        bounds = self.bounds
        nid, cid = node.id, child.id
        known = self._names_cache   # (name(), without the call where it is known)
        cname = known.get(child.label) or name(child)
        nname = known.get(node.label) or name(node)
        fv = self._figures[0].get(val) if type(val) is int else None
        if fv is None:
            fv = figure(val)
        jval = val if type(val) is int else jv(val)
        # -- the child's exit (it was searched) or evaluation
        if cutoff is None:
            self.path.pop()
            changes = []
            if (old := status.get(cid, "unvisited")) != "visited":
                changes.append([cid, "status", old, "visited"])
                status[cid] = "visited"
            if (old := status.get(nid, "unvisited")) != "active":
                changes.append([nid, "status", old, "active"])
                status[nid] = "active"
            kind, line_kind, note = "exit", "exit", ""
            if bounds:
                if child.player == 0:
                    b = _num(maps["beta"].get(cid))
                    cut = val > b if self.opts.strict else val >= b
                else:
                    a = _num(maps["alpha"].get(cid))
                    cut = val < a if self.opts.strict else val <= a
                if cut:
                    line_kind = "return-cut"
                    if cid in self.cut_nodes:
                        note = (says("at_least", fv)
                                if child.player == 0 else
                                says("at_most", fv))
            text = says("returns", cname, fv, nname, note)
        else:
            self.entered += 1
            self.evaluated.append(cid)
            changes = []
            if (old := status.get(cid, "unvisited")) != "evaluated":
                changes.append([cid, "status", old, "evaluated"])
                status[cid] = "evaluated"
            if (old := values.get(cid)) != jval:
                changes.append([cid, "value", old, jval])
                if jval is None:
                    values.pop(cid, None)
                else:
                    values[cid] = jval
            kind = line_kind = "evaluate"
            if cutoff:
                text = says("depth", cname, self._eval_of(child), fv)
            elif cname != child.label:
                text = says("leaf_position", cname, fv)
            else:
                text = says("leaf", child.label, fv)
        step = self.step = self.step + 1
        ev = {"type": kind, "step": step, "node": cid, "depth": child.depth,
              "player": names[child.player]}
        if bounds and (alpha := maps["alpha"].get(cid)) is not None:
            ev["alpha"] = alpha
            ev["beta"] = maps["beta"].get(cid)
        if (value := values.get(cid)) is not None:
            ev["v"] = value
        ev["value"] = jval
        if kind == "evaluate":
            ev["cutoff"] = cutoff
        ev["lines"] = self.lines(line_kind, child)
        ev["text"] = text[:1].upper() + text[1:] if self._game else text
        ev["changes"] = changes
        out = [ev]
        # -- v at the node: a new value, or the same kept
        player = names[node.player]
        if v_new != v_old:
            self.best_child[nid] = child
            jn = v_new if type(v_new) is int else jv(v_new)
            changes = []
            if (was := values.get(nid)) != jn:
                changes.append([nid, "value", was, jn])
                if jn is None:
                    values.pop(nid, None)
                else:
                    values[nid] = jn
            text = says("update", player, nname,
                        "max" if node.player == 0 else "min", figure(v_old),
                        figure(values.get(cid)), figure(v_new), self.move(node, child))
            jo = v_old if type(v_old) is int else jv(v_old)
        else:
            fields = (player, nname, fv, self.move(node, child), figure(v_old))
            if node.player == 0:
                text = (says("keep_max_tie", *fields)
                        if val == v_old else
                        says("keep_max", *fields))
            else:
                text = (says("keep_min_tie", *fields)
                        if val == v_old else
                        says("keep_min", *fields))
            jo = jn = v_old if type(v_old) is int else jv(v_old)
            changes = []
        step = self.step = step + 1
        ev = {"type": "update", "step": step, "node": nid, "depth": node.depth, "player": player}
        if bounds and (alpha := maps["alpha"].get(nid)) is not None:
            ev["alpha"] = alpha
            ev["beta"] = maps["beta"].get(nid)
        if (value := values.get(nid)) is not None:
            ev["v"] = value
        ev["child"] = cid
        ev["old"] = jo
        ev["new"] = jn
        ev["lines"] = self.lines("update", node)
        ev["text"] = text[:1].upper() + text[1:] if self._game else text
        ev["changes"] = changes
        out.append(ev)
        # -- the rarer events: a new bound, a cut-off
        if b_new != b_old:
            out.append(self._bound(node, "alpha" if node.player == 0 else "beta", b_old, b_new))
        if skipped:
            out.append(self.on_prune(node, skipped))
        return out

    # The handlers below run for every event of a long stream: they read the
    # view's maps directly and write ``self.set`` out where it is hot.
