"""Guided mode: walk the student through the search one question at a time.

The questions are read off the core's events. Each time a child's value
comes back to a node, the student is asked, in the order the chosen
formulation does the work:

* **v**: the node's value after taking the child's into account;
* **α** at a MAX node / **β** at a MIN node (AIMA: after the cut test and
  only if there is no cut; Wikipedia: before the test);
* **cut?** (yes / no) when the node still has children to search.

Minimax, expectiminimax and max^n ask only for v. A wrong answer gets the
rule it breaks; a right one, the worked step. The server keeps no state:
the page sends the question's index with each answer.
"""
from __future__ import annotations

from dataclasses import dataclass

from app.search import View
from app.search.numbers import fmt, jv
from app.search.tree import Node

from .answers import Unreadable, key_value, parse_entry, same
from .key import AnswerKey
from .words import tell
from app.search.descriptors import BY_ID


@dataclass(frozen=True)
class Question:
    kind: str
    """``value``, ``alpha``, ``beta`` or ``cut``."""
    node: str
    prompt: str
    answer: object
    """A number, a tuple (max^n), or True/False for ``cut``."""
    show_step: int
    """The view the student sees while answering."""
    reveal_step: int
    """The view once the answer is known (the step that decides it)."""
    rule: str
    """The rule a wrong answer breaks."""
    worked: str
    """The step worked out, shown after the answer."""

    choices: tuple = ()
    """[mcts] ``ucb``: the children to choose from, as (id, label)."""

    def public(self, index: int) -> dict:
        out = {"index": index, "kind": self.kind, "node": self.node, "prompt": self.prompt,
               "show_step": self.show_step}
        if self.kind == "cut":
            out["choices"] = ["yes", "no"]
        if self.kind == "ucb":   # [mcts]
            out["choices"] = [c for c, _ in self.choices]
            out["labels"] = dict(self.choices)
        return out


def questions(key: AnswerKey) -> list[Question]:
    """Every question of a guided walk through ``key``'s run, in order."""
    tree, events = key.tree, key.events
    record = BY_ID.get(key.options.algorithm)
    if record and "ucb" in record.questions:   # its record's question: which child UCB1 selects
        return _ucb_questions(key)
    view = View(tree)
    wiki = key.options.style == "wikipedia"
    out: list[Question] = []
    i = 0
    while i < len(events):
        ev = events[i]
        view.apply(ev.get("changes", ()))
        i += 1
        if ev["type"] not in ("evaluate", "exit") or ev["node"] == tree.root.id:
            continue
        child = tree.node(ev["node"])
        parent = tree.parent_of(child.id)
        group = []  # the parent's work on the returned value
        while (i < len(events) and events[i].get("node") == parent.id
               and events[i]["type"] in ("update", "alpha", "beta", "prune")):
            group.append(events[i])
            i += 1
        out.extend(_ask(key, view, parent, child, key_value(ev["value"]), ev["step"], group, wiki))
        for g in group:
            view.apply(g["changes"])
    return out


def _ask(key: AnswerKey, view: View, parent: Node, child: Node, returned, step: int,
         group: list[dict], wiki: bool) -> list[Question]:
    """The questions about one returned value, answered from ``group``."""
    by_type = {g["type"]: g for g in group}
    cursor = step
    state = {f: key_value(view.field(parent.id, f)) for f in ("value", "alpha", "beta")}
    p, c = parent.label, child.label
    role = _role(key, parent)
    qs: list[Question] = []

    def ask(kind: str, prompt: str, answer, event: dict | None, rule: str, worked: str):
        nonlocal cursor
        show, reveal = (event["step"] - 1, event["step"]) if event else (cursor, cursor)
        show = max(show, cursor)
        cursor = reveal
        qs.append(Question(kind, parent.id, prompt, answer, show, reveal, rule, worked))

    upd = by_type.get("update")
    v = key_value(upd["new"]) if upd else state["value"]
    old = state["value"]
    ask("value", tell("{child} returned {value} to {node}. What is v at {node} now?", child=c,
                      value=fmt(returned), node=p), v, upd,
        _value_rule(key, parent, role), upd["text"] if upd else
        tell("{value} does not improve on v = {v} for {player}: v stays {v}.",
             value=fmt(returned), v=fmt(old), player=key.tree.player_name(parent)))
    if not key.bounds:
        return qs
    name = "alpha" if role == "max" else "beta"
    sign = "α" if name == "alpha" else "β"
    bound_ev = by_type.get(name)
    bound = key_value(bound_ev["new"]) if bound_ev else state[name]
    op = "max" if name == "alpha" else "min"
    bound_rule = (tell("Rule: at a {role} node, {sign} = {op}({sign}, v) as soon as v is "
                       "updated.", role=role.upper(), sign=sign, op=op) if wiki else
                  tell("Rule: at a {role} node, {sign} = {op}({sign}, v), after the cut test and "
                       "only if there is no cut.", role=role.upper(), sign=sign, op=op))
    bound_worked = bound_ev["text"] if bound_ev else tell("{sign} stays {value}.", sign=sign,
                                                          value=fmt(state[name]))

    def ask_bound():
        ask(name, tell("What is {sign} at {node} now?", sign=sign, node=p), bound, bound_ev,
            bound_rule, bound_worked)

    if wiki:
        ask_bound()
    prune = by_type.get("prune")
    remaining = parent.children[parent.children.index(child) + 1:]
    if remaining:
        names = ", ".join(n.label for n in remaining)
        ask("cut", tell("Does {node} cut off its remaining children ({names})?", node=p,
                        names=names), bool(prune), prune,
            _cut_rule(key, role), prune["text"] if prune else _no_cut(key, role, p, v, state))
    if not wiki and not prune:
        ask_bound()
    return qs


def _ucb_questions(key: AnswerKey) -> list[Question]:
    """[mcts] One question per selection among two children or more: the
    numbers UCB1 needs are in the prompt (and beside the nodes), the answer
    is the child the search selected."""
    tree = key.tree
    out = []
    for ev in key.events:
        if ev["type"] != "select" or len(ev["children"]) < 2:
            continue
        parent = tree.node(ev["parent"])
        label = {c.id: c.label for c in parent.children}
        rows = "; ".join(tell("{child}: n = {visits}, mean {mean}", child=label[r["id"]],
                              visits=r["visits"], mean=fmt(r["mean"])) for r in ev["children"])
        prompt = tell("UCB1 at {node} ({player} to move; N = {n}, C = {c}; the means are for MAX, "
                      "scaled over the values {lo} to {hi}): {rows}. Which child does UCB1 "
                      "select?", node=parent.label, player=tree.player_name(parent),
                      n=ev["parent_visits"], c=fmt(ev["exploration"]), lo=fmt(ev["range"][0]),
                      hi=fmt(ev["range"][1]), rows=rows)
        worked = "; ".join(f"{label[r['id']]}: {fmt(r['exploit'])} + {fmt(r['explore'])} = "
                           f"{fmt(r['ucb'])}" for r in ev["children"]) + ". " + ev["text"]
        rule = tell("Rule: UCB1 = exploit + C × √(ln N / n), where exploit is the mean scaled to "
                    "0..1 from the mover's side ((mean − L) / (U − L) for MAX, (U − mean) / "
                    "(U − L) for MIN); the highest UCB1 is selected, the first on a tie.")
        out.append(Question("ucb", parent.id, prompt, ev["node"], ev["step"] - 1, ev["step"],
                            rule, worked, tuple(label.items())))
    return out


def _role(key: AnswerKey, node: Node) -> str:
    nk = key.inner.get(node.id)
    return nk.role if nk else ("max" if node.player == 0 else "min")


def _value_rule(key: AnswerKey, node: Node, role: str) -> str:
    if role == "chance":
        return tell("Rule: at a chance node, v = v + p × (the child's value), p the child's "
                    "probability.")
    if role == "player":
        who = key.tree.player_name(node)
        return tell("Rule: {player} keeps the vector that is best in {player}'s own component "
                    "(the first one on a tie).", player=who)
    op = "max" if role == "max" else "min"
    return tell("Rule: at a {role} node, v = {op}(v, the value the child returned).",
                role=role.upper(), op=op)


def _cut_rule(key: AnswerKey, role: str) -> str:
    strict = key.options.strict
    if role == "max":
        test = "v > β" if strict else "v ≥ β"
        why = tell("MIN above will never let play reach here")
    else:
        test = "v < α" if strict else "v ≤ α"
        why = tell("MAX above will never choose this node")
    tie = tell(" (strict convention: no cut on equality)") if strict else ""
    return tell("Rule: a {role} node cuts off its remaining children when {test}{tie}: {why}.",
                role=role.upper(), test=test, tie=tie, why=why)


def _no_cut(key: AnswerKey, role: str, p: str, v, state: dict) -> str:
    """Why there is no cut: the test uses the bound the node does not move
    (β at MAX, α at MIN), so its value before the return is the one tested."""
    strict = key.options.strict
    if role == "max":
        sign, other, op = "β", state["beta"], (">" if strict else "≥")
    else:
        sign, other, op = "α", state["alpha"], ("<" if strict else "≤")
    return tell("At {node}, v = {v} and {sign} = {bound}: {v} {op} {bound} does not hold, so "
                "the search goes on.", node=p, v=fmt(v), sign=sign, bound=fmt(other), op=op)


def _read(kind: str, raw):
    if kind == "ucb":   # [mcts] a child's id
        return str(raw).strip()
    if kind == "cut":
        if isinstance(raw, bool):
            return raw
        text = str(raw).strip().lower()
        if text in ("yes", "y", "true", "1", "cut", "ya"):       # "ya": Indonesian
            return True
        if text in ("no", "n", "false", "0", "tidak", "t"):
            return False
        raise Unreadable(tell("{answer}: answer yes or no", answer=repr(raw)))
    return parse_entry(raw)


def guide(key: AnswerKey, index: int, answer=None, reveal: bool = False,
          link=None) -> dict:
    """The question at ``index``, and the verdict on ``answer`` if one is given.

    ``link(step)`` makes the visualizer URL of a step (optional). The answer
    and the worked step are sent only once the student got it right or
    asked to ``reveal`` it.
    """
    qs = questions(key)
    # (Checked before "nothing to ask" too: homework stores the index as an attempt.)
    if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < max(len(qs), 1):
        raise ValueError(f"question index must be between 0 and {max(len(qs) - 1, 0)}")
    if not qs:
        return {"total": 0, "index": 0, "question": None, "finished": True,
                "view": View.replay(key.tree, key.events).snapshot(),
                "summary": tell("Nothing to ask: the tree has no inner node below the root to "
                                "back up.")}
    q = qs[index]
    view = View.replay(key.tree, key.events, q.show_step).snapshot()
    if q.kind in ("value", "alpha", "beta") and q.node in view:  # the picture must not give the answer away
        view[q.node][q.kind] = None
    out: dict = {"total": len(qs), "index": index, "question": q.public(index), "view": view}
    verdict: dict = {}
    if answer is not None and answer != "":
        try:
            given = _read(q.kind, answer)
        except Unreadable as exc:
            verdict = {"correct": False, "unreadable": True, "rule": str(exc)}
        else:
            if q.kind == "ucb":   # [mcts] by id or by label
                correct = given == q.answer or given == dict(q.choices).get(q.answer)
            else:
                correct = given is q.answer if q.kind == "cut" else same(given, q.answer)
            verdict = {"correct": correct}
            if not correct:
                verdict["rule"] = q.rule
        out["result"] = verdict
    if verdict.get("correct") or reveal:
        out["answer"] = (("yes" if q.answer else "no") if q.kind == "cut" else
                         dict(q.choices)[q.answer] if q.kind == "ucb" else jv(q.answer))
        out["worked"] = q.worked
        out["reveal_step"] = q.reveal_step
        out["reveal_view"] = View.replay(key.tree, key.events, q.reveal_step).snapshot()
        if link is not None:
            out["link"] = link(q.reveal_step)
        out["next"] = index + 1 if index + 1 < len(qs) else None
        out["finished"] = index + 1 == len(qs)
        if out["finished"]:
            out["summary"] = key.done.get("text", "")
    return out
