"""One sentence per mistake, in a lecturer's words, built from the answer key.

Each function explains why the key says what it says about one entry; the
sentences reuse the core's own narration where it already says it (a prune
event's text, an alpha event's text), so the page, the visualizer and the
checker never disagree. Every sentence is a catalogue message
(:func:`.words.tell`), said in the reader's language.
"""
from __future__ import annotations

from app.search.numbers import fmt

from .key import AnswerKey
from .words import tell


def _role_phrase(role: str) -> str:
    if role == "max":
        return tell("a MAX node")
    if role == "min":
        return tell("a MIN node")
    return tell("a chance node")


def _you(given) -> str:
    return tell(" You left it empty.") if given is None else tell(" You wrote {value}.",
                                                                   value=fmt(given))


def _label(key: AnswerKey, node_id: str) -> str:
    return key.tree.node(node_id).label


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
        why = tell("{node} is a chance node: it returns the probability-weighted sum of its "
                   "children, {terms} = {value}.", node=name, terms=terms, value=fmt(nk.value))
    elif nk.role == "player":
        who = key.tree.player_name(node)
        best = next((c for c, v in nk.returned if v == nk.value), None)
        fields = dict(node=name, player=who, value=fmt(nk.value))
        why = (tell("{node} is {player}'s node: it returns the vector of the child best for "
                    "{player} (the largest {player} component), {value} from {child}.",
                    child=_label(key, best), **fields) if best else
               tell("{node} is {player}'s node: it returns the vector of the child best for "
                    "{player} (the largest {player} component), {value}.", **fields))
    else:
        op = "max" if nk.role == "max" else "min"
        fields = dict(node=name, role=_role_phrase(nk.role), op=op_of(op), value=fmt(nk.value))
        if nk.cut_step is not None:
            prune = key.event(nk.cut_step)
            last = _label(key, nk.returned[-1][0]) if nk.returned else tell("a child")
            fields.update(last=last, test=_test(prune))
            why = (tell("{node} is {role} that stopped after {last} returned (test {test}), so "
                        "it returns the largest value it saw, {op}{value}: a bound, its true "
                        "value is at least {value}.", **fields) if nk.role == "max" else
                   tell("{node} is {role} that stopped after {last} returned (test {test}), so "
                        "it returns the smallest value it saw, {op}{value}: a bound, its true "
                        "value is at most {value}.", **fields))
        else:
            why = (tell("{node} is {role}: it returns the largest value its children returned, "
                        "{op}{value}.", **fields) if nk.role == "max" else
                   tell("{node} is {role}: it returns the smallest value its children "
                        "returned, {op}{value}.", **fields))
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
    fields = dict(node=label, sign=sign, value=fmt(expected))
    if step is None or step == nk.enter_step:
        parent = key.tree.parent_of(node_id)
        if parent is None:
            start = tell("The root {node} starts with {sign} = {value}", **fields)
        else:
            start = tell("{node} took {sign} = {value} from {parent} when it was entered",
                         parent=parent.label, **fields)
        owner = "MAX" if name == "alpha" else "MIN"
        if (nk.role == "max") == (name == "alpha"):
            rest = tell("; no child moved it ({owner} updates {sign} only when a returned value "
                        "improves on it and there is no cut)", owner=owner, sign=sign)
        else:
            rest = tell(", and as {role} it never changes {sign} ({owner} nodes do)",
                        role=_role_phrase(nk.role), sign=sign, owner=owner)
        why = tell("{start}{rest}, so {sign} at {node}'s exit is {value}.", start=start,
                   rest=rest, **fields)
    else:
        why = tell("{sign} at {node}'s exit is {value}, set at step {step}: {sentence}",
                   step=step, sentence=key.event(step)["text"], **fields)
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
    return tell(" (In the AIMA formulation a node returns as soon as {test} holds, before "
                "{update}; the Wikipedia formulation updates the bound first.)",
                test=test, update=update)


def missed_cut(key: AnswerKey, child_id: str) -> str:
    prune = key.event(key.cuts[child_id])
    return tell("{sentence} You did not mark the branch to {node} as pruned.",
                sentence=prune["text"], node=_label(key, child_id))


def extra_cut(key: AnswerKey, child_id: str) -> str:
    """Why a branch the student marked is searched after all."""
    label = _label(key, child_id)
    d = key.decisions.get(child_id)
    parent = key.tree.parent_of(child_id)
    if d is None or parent is None:
        return tell("The branch to {node} is not pruned.", node=label)
    plabel = parent.label
    if d.first:
        return tell("{node} is the first child of {parent}: a node always searches its first "
                    "child, so the branch to {node} is not pruned.", node=label, parent=plabel)
    strict = key.options.strict
    if parent.player == 0:
        op = ">" if strict else "≥"
        test = f"{fmt(d.v)} {op} {fmt(d.beta)}"
        rule = tell("MAX node {parent} stops only when v {op} β", parent=plabel, op=op)
        state = tell("v = {v} and β = {beta}", v=fmt(d.v), beta=fmt(d.beta))
        tie = strict and d.v == d.beta
    else:
        op = "<" if strict else "≤"
        test = f"{fmt(d.v)} {op} {fmt(d.alpha)}"
        rule = tell("MIN node {parent} stops only when v {op} α", parent=plabel, op=op)
        state = tell("v = {v} and α = {alpha}", v=fmt(d.v), alpha=fmt(d.alpha))
        tie = strict and d.v == d.alpha
    note = tell(" (this run uses the strict convention: no cut on equality)") if tie else ""
    return tell("When {parent} came to {node}, {state}; {rule}, and {test} does not hold{note}, "
                "so {node} is searched, not pruned.", parent=plabel, node=label, state=state,
                rule=rule, test=test, note=note)
