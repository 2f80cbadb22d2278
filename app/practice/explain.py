"""One sentence per mistake, in a lecturer's words, built from the answer key.

Each function explains why the key says what it says about one entry; the
sentences reuse the core's own narration where it already says it (a prune
event's text, an alpha event's text), so the page, the visualizer and the
checker never disagree.
"""
from __future__ import annotations

from app.search.numbers import fmt

from .key import AnswerKey

_ROLE_NAME = {"max": "a MAX node", "min": "a MIN node", "chance": "a chance node"}


def _you(given) -> str:
    return " You left it empty." if given is None else f" You wrote {fmt(given)}."


def _label(key: AnswerKey, node_id: str) -> str:
    return key.tree.node(node_id).label


def _role_name(key: AnswerKey, node_id: str) -> str:
    nk = key.inner[node_id]
    if nk.role == "player":
        return f"{key.tree.player_name(key.tree.node(node_id))}'s node"
    return _ROLE_NAME[nk.role]


def value(key: AnswerKey, node_id: str, given) -> str:
    """Why the node returns the value it returns."""
    nk = key.inner[node_id]
    node = key.tree.node(node_id)
    name = _label(key, node_id)
    vals = [v for _, v in nk.returned]
    listed = ", ".join(fmt(v) for v in vals)
    op_of = (lambda op: f"{op}({listed}) = ") if len(vals) > 1 else (lambda op: "")
    if nk.role == "chance":
        probs = {c.id: c.probability for c in node.children}
        terms = " + ".join(f"{fmt(probs[c])} × {fmt(v)}" for c, v in nk.returned)
        why = (f"{name} is a chance node: it returns the probability-weighted sum of its "
               f"children, {terms} = {fmt(nk.value)}.")
    elif nk.role == "player":
        who = key.tree.player_name(node)
        best = next((c for c, v in nk.returned if v == nk.value), None)
        why = (f"{name} is {who}'s node: it returns the vector of the child best for {who} "
               f"(the largest {who} component), {fmt(nk.value)}"
               + (f" from {_label(key, best)}." if best else "."))
    else:
        op, most = ("max", "largest") if nk.role == "max" else ("min", "smallest")
        if nk.cut_step is not None:
            prune = key.event(nk.cut_step)
            last = _label(key, nk.returned[-1][0]) if nk.returned else "a child"
            side = "at least" if nk.role == "max" else "at most"
            why = (f"{name} is {_ROLE_NAME[nk.role]} that stopped after {last} returned "
                   f"(test {_test(prune)}), so it returns the {most} value it saw, "
                   f"{op_of(op)}{fmt(nk.value)}: a bound, its true value is {side} "
                   f"{fmt(nk.value)}.")
        else:
            why = (f"{name} is {_ROLE_NAME[nk.role]}: it returns the {most} value its children "
                   f"returned, {op_of(op)}{fmt(nk.value)}.")
    return why + _you(given)


def _test(prune: dict) -> str:
    """``v = 2 ≤ α = 3`` from a prune event."""
    strict = "=" not in prune["test"]  # "v > beta" under the strict convention
    if prune["cut"] == "alpha":
        return f"v = {fmt(prune['v'])} {'<' if strict else '≤'} α = {fmt(prune['alpha'])}"
    return f"v = {fmt(prune['v'])} {'>' if strict else '≥'} β = {fmt(prune['beta'])}"


def bound(key: AnswerKey, node_id: str, name: str, given) -> str:
    """Why α (``name='alpha'``) or β at the node's exit is what it is."""
    nk = key.inner[node_id]
    label = _label(key, node_id)
    sign = "α" if name == "alpha" else "β"
    expected = getattr(nk, name)
    step = getattr(nk, f"{name}_step")
    if step is None or step == nk.enter_step:
        parent = key.tree.parent_of(node_id)
        if parent is None:
            start = f"The root {label} starts with {sign} = {fmt(expected)}"
        else:
            start = (f"{label} took {sign} = {fmt(expected)} from {parent.label} "
                     f"when it was entered")
        owner = "MAX" if name == "alpha" else "MIN"
        if (nk.role == "max") == (name == "alpha"):
            rest = (f"; no child moved it ({owner} updates {sign} only when a returned "
                    f"value improves on it and there is no cut)")
        else:
            rest = f", and as {_ROLE_NAME[nk.role]} it never changes {sign} ({owner} nodes do)"
        why = f"{start}{rest}, so {sign} at {label}'s exit is {fmt(expected)}."
    else:
        why = (f"{sign} at {label}'s exit is {fmt(expected)}, set at step {step}: "
               f"{key.event(step)['text']}")
    return why + _aima_note(key, node_id, name) + _you(given)


def _aima_note(key: AnswerKey, node_id: str, name: str) -> str:
    """AIMA returns as soon as the cut test holds, before updating the bound:
    the one place the two formulations write different bounds on paper."""
    nk = key.inner[node_id]
    if key.options.style != "aima" or (nk.role == "max") != (name == "alpha"):
        return ""
    strict = key.options.strict
    if nk.role == "max":
        held = nk.value > nk.beta if strict else nk.value >= nk.beta
        test, update = ("v > β" if strict else "v ≥ β"), "α = max(α, v)"
    else:
        held = nk.value < nk.alpha if strict else nk.value <= nk.alpha
        test, update = ("v < α" if strict else "v ≤ α"), "β = min(β, v)"
    if not held:
        return ""
    return (f" (In the AIMA formulation a node returns as soon as {test} holds, before "
            f"{update}; the Wikipedia formulation updates the bound first.)")


def missed_cut(key: AnswerKey, child_id: str) -> str:
    prune = key.event(key.cuts[child_id])
    return f"{prune['text']} You did not mark the branch to {_label(key, child_id)} as pruned."


def extra_cut(key: AnswerKey, child_id: str) -> str:
    """Why a branch the student marked is searched after all."""
    label = _label(key, child_id)
    d = key.decisions.get(child_id)
    parent = key.tree.parent_of(child_id)
    if d is None or parent is None:
        return f"The branch to {label} is not pruned."
    plabel = parent.label
    if d.first:
        return (f"{label} is the first child of {plabel}: a node always searches its first "
                f"child, so the branch to {label} is not pruned.")
    strict = key.options.strict
    if parent.player == 0:
        op = ">" if strict else "≥"
        test = f"{fmt(d.v)} {op} {fmt(d.beta)}"
        rule = f"MAX node {plabel} stops only when v {op} β"
        state = f"v = {fmt(d.v)} and β = {fmt(d.beta)}"
        tie = strict and d.v == d.beta
    else:
        op = "<" if strict else "≤"
        test = f"{fmt(d.v)} {op} {fmt(d.alpha)}"
        rule = f"MIN node {plabel} stops only when v {op} α"
        state = f"v = {fmt(d.v)} and α = {fmt(d.alpha)}"
        tie = strict and d.v == d.alpha
    note = " (this run uses the strict convention: no cut on equality)" if tie else ""
    return (f"When {plabel} came to {label}, {state}; {rule}, and {test} does not hold"
            f"{note}, so {label} is searched, not pruned.")
