"""The answer key of a practice tree, read off the core's events.

Nothing here searches: :func:`answer_key` runs :func:`app.search.run` once
and records, in one pass over its events, what a student is asked to write:

* **value** of an inner node: the value it returns at its ``exit`` event.
  Under alpha-beta that can be a bound (a MIN node cut off after a child
  returned 2 returns 2; its true value is at most 2). Nodes inside a pruned
  subtree are never entered and have no value to write.
* **α and β** of an inner node: the bounds at the node's ``exit``, i.e. what
  is written beside it on paper once the search has left it.
* **cuts**: the children a ``prune`` event skipped, each the top of a pruned
  subtree (its own descendants are not separate cuts).

For explanations it also keeps, per node, the step that decided each entry
and the bounds and value at the node just before each child was entered.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from app.search import SearchOptions, run
from app.search.tree import Node, Tree

from .answers import key_value
from .words import current
from app.search.descriptors import get


@dataclass
class NodeKey:
    """What the key says about one inner node the search entered."""

    id: str
    role: str
    """``max``, ``min``, ``chance`` or ``player`` (max^n)."""
    enter_step: int
    value: object = None
    """The value returned at exit (a number, or a tuple for max^n)."""
    alpha: object = None
    beta: object = None
    exit_step: int | None = None
    alpha_step: int | None = None
    """The step that last set α here (the enter step if it was inherited)."""
    beta_step: int | None = None
    returned: list[tuple[str, object]] = field(default_factory=list)
    """``(child id, value)`` of each child that returned here, in search order."""
    cut_step: int | None = None
    """The step of this node's prune event, if it cut off children."""


@dataclass
class Decision:
    """A node's state when it was about to enter one of its children."""

    child: str
    step: int
    """The step at which the child was entered (or evaluated, for a leaf)."""
    v: object
    alpha: object
    beta: object
    first: bool
    """The child is the node's first: no value had come back yet."""


@dataclass
class AnswerKey:
    tree: Tree
    options: SearchOptions
    """The options the key was made with (the algorithm filled in)."""
    events: list[dict]
    inner: dict[str, NodeKey]
    """Inner nodes the search entered (not cut off by a depth limit), in preorder."""
    cuts: dict[str, int]
    """Top of each pruned subtree -> the step of its prune event."""
    inside_cut: set[str]
    """Every node strictly below the top of a pruned subtree."""
    below_limit: set[str]
    """Every node below one where a depth limit stopped the search."""
    decisions: dict[str, Decision]
    """Each child that was searched -> its parent's state just before it."""
    prune_events: dict[int, dict]
    done: dict

    @property
    def bounds(self) -> bool:
        return get(self.options.algorithm).bounds

    def event(self, step: int) -> dict:
        return self.events[step - 1]


def answer_key(tree: Tree, options: SearchOptions) -> AnswerKey:
    """Run the search once and record the key. Raises ``SearchError`` if the
    options do not fit the tree."""
    opts = options.resolved(tree)
    events = list(run(tree, opts, current()))   # narrated in the reader's language
    inner: dict[str, NodeKey] = {}
    cuts: dict[str, int] = {}
    decisions: dict[str, Decision] = {}
    prunes: dict[int, dict] = {}
    # Each node's value/alpha/beta as the events leave it (the view's fields).
    state: dict[str, dict] = {}
    stopped: list[str] = []

    def returned_to(child_id: str, value) -> None:
        parent = tree.parent_of(child_id)
        if parent is not None and parent.id in inner:
            inner[parent.id].returned.append((child_id, key_value(value)))

    def about_to_search(child_id: str, step: int) -> None:
        parent = tree.parent_of(child_id)
        if parent is None or parent.id not in inner:
            return
        s = state.get(parent.id, {})
        decisions[child_id] = Decision(child_id, step, key_value(s.get("value")),
                                       key_value(s.get("alpha")), key_value(s.get("beta")),
                                       first=not inner[parent.id].returned)

    for ev in events:
        kind, step, node_id = ev["type"], ev["step"], ev.get("node")
        if kind in ("enter", "evaluate"):
            about_to_search(node_id, step)
        for nid, name, _old, new in ev.get("changes", ()):
            if name in ("value", "alpha", "beta"):
                state.setdefault(nid, {})[name] = new
                if name in ("alpha", "beta") and nid in inner:
                    setattr(inner[nid], f"{name}_step", step)
        if kind == "enter":
            node = tree.node(node_id)
            nk = inner[node_id] = NodeKey(node_id, _role(tree, node), step)
            if "alpha" in ev:
                nk.alpha_step = nk.beta_step = step
        elif kind == "evaluate":
            returned_to(node_id, ev["value"])
            if ev.get("cutoff"):
                stopped.append(node_id)
        elif kind == "prune":
            prunes[step] = ev
            inner[node_id].cut_step = step
            for child in ev["skipped"]:
                cuts[child] = step
        elif kind == "exit":
            nk = inner[node_id]
            nk.exit_step = step
            nk.value = key_value(ev["value"])
            nk.alpha = key_value(ev.get("alpha"))
            nk.beta = key_value(ev.get("beta"))
            returned_to(node_id, ev["value"])
        elif kind == "iteration":
            raise ValueError("practice works on one search, not iterative deepening")
    inside: set[str] = set()
    for top in cuts:
        node = tree.node(top)
        inside.update(n.id for n in tree.subtree(node) if n is not node)
    below: set[str] = set()
    for nid in stopped:
        node = tree.node(nid)
        below.update(n.id for n in tree.subtree(node) if n is not node)
    order = {n.id: i for i, n in enumerate(tree.nodes)}
    inner = dict(sorted(inner.items(), key=lambda kv: order[kv[0]]))
    return AnswerKey(tree, opts, events, inner, cuts, inside, below, decisions,
                     prunes, events[-1])


def _role(tree: Tree, node: Node) -> str:
    if node.chance:
        return "chance"
    if tree.multiplayer:
        return "player"
    return "max" if node.player == 0 else "min"
