"""Questions to the class, with their answers read off the practice answer key.

The instructor asks at a step; the key of the class's run
(:func:`app.practice.answer_key`, the one practice mode grades against)
says the answer and the step that shows it. Students' entries are read and
compared by practice's own :func:`~app.practice.answers.parse_entry` and
:func:`~app.practice.answers.same`, so a class and a practice sheet never
disagree on what counts as right.

Kinds:

=========  ==============================================  ===================
``value``  the value node X returns                         a number
``pruned`` which children of X are cut off (maybe none)     taps on branches
``bounds`` α and β at X now (or as X is entered)            two numbers
``move``   the root's move                                  a tap on a child
``next``   the next node the search visits                  a tap on a node
``ucb``    [mcts] the child UCB1 selects next               a tap on a child
=========  ==============================================  ===================
"""
from __future__ import annotations

from dataclasses import dataclass

from app.practice import AnswerKey
from app.practice.answers import Unreadable, key_value, parse_entry, same
from app.search import View
from app.search.numbers import fmt, jv
from app.search.states import N_
from app.search.words import Said
from app.search.descriptors import get

KINDS = ("value", "pruned", "bounds", "move", "next", "ucb")   # [mcts] ucb

# Every sentence a student or the projector reads, in one place: catalogue
# message ids, sent with their fields (``say``) so each page says them in its
# own language (static/js/classes/class-view.js lists them for the page's catalogue).
TEXT = {
    "value": N_("What value does {x} return?"),
    "pruned": N_("Which children of {x} are pruned? Tap them, or “none”."),
    "bounds_now": N_("What are α and β at {x} now?"),
    "bounds_enter": N_("What are α and β at {x} when the search enters it?"),
    "move": N_("Which move does the root {x} choose?"),
    "next": N_("Which node does the search visit next?"),
    "ucb": N_("Which child of {x} does UCB1 select next?"),   # Monte Carlo tree search
    "ucb_givens": N_("UCB1 = exploit + {c} × √(ln {n} / n); exploit: the mean for MAX on "
                     "{player}'s scale from {worst} to {best}."),
    "none": N_("none"),
    "bounds_answer": "α = {a}, β = {b}",
}
NONE = TEXT["none"]
"""The label of "no child pruned": stored in English, said in the page's language."""


def say(msgid: str, **fields) -> dict:
    """A sentence as it travels to the pages: ``{"msgid", "fields"}``."""
    return {"msgid": msgid, "fields": {k: str(v) for k, v in fields.items()}}


class QuestionError(Said, ValueError):
    """The question cannot be asked here (wrong node, nothing to ask, answer on screen)."""


class AnswerError(Said, ValueError):
    """A student's entry that cannot be read; it is not counted."""


@dataclass(frozen=True)
class Question:
    kind: str
    node: str | None
    prompt: str
    entry: str
    """What the phone shows: ``number``, ``bounds``, ``choose-many``, ``choose-one``, ``tap-node``."""
    choices: tuple[str, ...]
    """Node ids offered as buttons (children of X, the root's children)."""
    answer: object
    """JSON form: a number, ``[alpha, beta]``, a list of ids, an id."""
    answer_text: str
    reveal_step: int
    mask: str | None = None
    """A node whose bounds are on screen now and must be hidden until the reveal."""
    say: dict | None = None
    """The prompt as a catalogue message with its fields (:func:`say`)."""
    givens: dict | None = None
    """[mcts] ``ucb``: the numbers UCB1 needs, as the board shows them (``say``: the
    formula with C, N and the scale; ``children``: each child's visits and mean)."""
    table: list | None = None
    """[mcts] ``ucb``: the selection's UCB1 table (exploit, explore, sum), shown at the reveal."""

    def to_dict(self) -> dict:
        out = {"kind": self.kind, "node": self.node, "prompt": self.prompt, "entry": self.entry,
               "choices": list(self.choices), "answer": self.answer,
               "answer_text": self.answer_text, "reveal_step": self.reveal_step,
               "mask": self.mask, "say": self.say}
        if self.givens is not None:
            out.update(givens=self.givens, table=self.table)
        return out


def _asked(kind, node, msgid, entry, choices, answer, text, reveal, mask=None, **fields):
    return Question(kind, node, msgid.format(**fields), entry, tuple(choices), answer, text,
                    reveal, mask, say(msgid, **fields))


def make_question(key: AnswerKey, step: int, kind: str, node_id: str | None) -> Question:
    """The question ``kind`` about ``node_id`` asked at ``step`` of ``key``'s run."""
    tree = key.tree
    if kind not in KINDS:
        raise QuestionError("unknown question {kind}: choose one of {kinds}", kind=repr(kind)[:40],
                            kinds=", ".join(KINDS))
    record = get(key.options.algorithm)
    if kind not in record.questions:   # the record says what its runs can be asked, and why not
        raise QuestionError(record.unasked or "this algorithm is not asked that question")
    if kind in ("value", "pruned", "bounds"):
        if not isinstance(node_id, str) or node_id not in tree:
            raise QuestionError("choose a node of the tree for this question")
        node = tree.node(node_id)
        label = node.label
    if kind == "value":
        nk = _inner(key, node_id, "{label} returns no value in this run (pruned or below the "
                                  "depth limit)")
        _not_shown(nk.exit_step, step, "The value of {label} is already on the board at this "
                   "step: ask before step {step}.", label=label)
        value = nk.value
        return _asked(kind, node_id, TEXT["value"], "number", (), jv(value), fmt(value),
                      nk.exit_step, x=label)
    if kind == "pruned":
        if not key.bounds:
            raise QuestionError("only alpha-beta prunes: run the class with alpha-beta")
        nk = _inner(key, node_id, "{label} is never searched in this run (pruned or below the "
                                  "depth limit)")
        decided = nk.cut_step or nk.exit_step
        _not_shown(decided, step, "What {label} cuts off is already on the board at this "
                   "step: ask before step {step}.", label=label)
        children = tuple(c.id for c in node.children)
        cut = [c for c in children if c in key.cuts]
        text = ", ".join(tree.node(c).label for c in cut) or NONE
        return _asked(kind, node_id, TEXT["pruned"], "choose-many", children, cut, text,
                      decided, x=label)
    if kind == "bounds":
        if not key.bounds:
            raise QuestionError("only alpha-beta keeps α and β: run the class with alpha-beta")
        nk = _inner(key, node_id, "{label} is never searched in this run (pruned or below the "
                                  "depth limit)")
        view = View.replay(tree, key.events, step)
        alpha, beta = view.field(node_id, "alpha"), view.field(node_id, "beta")
        if alpha is not None or beta is not None:
            prompt, reveal, mask = TEXT["bounds_now"], step, node_id
        elif nk.enter_step > step:
            enter = key.event(nk.enter_step)
            alpha, beta = enter.get("alpha"), enter.get("beta")
            prompt, reveal, mask = TEXT["bounds_enter"], nk.enter_step, None
        else:
            raise QuestionError("{label} has no α and β at this step", label=label)
        text = TEXT["bounds_answer"].format(a=fmt(alpha), b=fmt(beta))
        return _asked(kind, node_id, prompt, "bounds", (),
                      [jv(key_value(alpha)), jv(key_value(beta))], text, reveal, mask, x=label)
    root = tree.root
    if kind == "move":
        best = key.done.get("best_move")
        decided = key.inner[root.id].exit_step if root.id in key.inner else None
        if best is None or decided is None:
            raise QuestionError("the root has no move to choose")
        _not_shown(decided, step, "The root's move is already on the board at this step: ask "
                   "before step {step}.")
        return _asked(kind, root.id, TEXT["move"], "choose-one",
                      [c.id for c in root.children], best, tree.node(best).label, decided,
                      x=root.label)
    if kind == "ucb":
        return _ucb(key, step)
    for ev in key.events[step:]:  # kind == "next"
        if ev["type"] in ("enter", "evaluate"):
            nid = ev["node"]
            return _asked(kind, None, TEXT["next"], "tap-node", (), nid,
                          tree.node(nid).label, ev["step"])
    raise QuestionError("the search visits no more nodes after this step")


def _ucb(key: AnswerKey, step: int) -> Question:
    """[mcts] "Which child does UCB1 select next?": only where the next step is
    that selection (revealed there, before any playout the class has not seen)
    and every number it needs (N, each child's n and mean) is on the board."""
    tree = key.tree
    ev = key.events[step] if 0 <= step < len(key.events) else None
    if ev is None or ev["type"] != "select":
        later = next((e for e in key.events[step:] if e["type"] == "select"), None)
        if later is None:
            raise QuestionError("no selection by UCB1 comes after this step")
        raise QuestionError("The next step is not a selection by UCB1: go to step {before} "
                            "(UCB1 selects at step {step}) and ask there.",
                            before=later["step"] - 1, step=later["step"])
    view = View.replay(tree, key.events, step)
    parent = tree.node(ev["parent"])
    rows = ev["children"]
    shown = [view.field(parent.id, "visits")] + [
        x for r in rows for x in (view.field(r["id"], "visits"), view.field(r["id"], "mean"))]
    if any(x is None for x in shown):
        raise QuestionError("UCB1's numbers at {x} are not all on the board at this step",
                            x=parent.label)
    lo, hi = ev["range"]
    ismax = parent.player == 0    # (as app.search.mcts.Stat scales it)
    worst, best = (lo, hi) if ismax else (hi, lo)
    givens = {"say": say(TEXT["ucb_givens"], c=fmt(ev["exploration"]), n=ev["parent_visits"],
                         player=tree.players[parent.player], worst=fmt(worst), best=fmt(best)),
              "children": [{"id": r["id"], "label": tree.node(r["id"]).label,
                            "visits": r["visits"], "mean": r["mean"]} for r in rows]}
    table = [dict(r, label=tree.node(r["id"]).label) for r in rows]
    q = _asked("ucb", parent.id, TEXT["ucb"], "choose-one", [r["id"] for r in rows], ev["node"],
               tree.node(ev["node"]).label, ev["step"], x=parent.label)
    return Question(**{**q.__dict__, "givens": givens, "table": table})


def _inner(key: AnswerKey, node_id: str, never: str):
    """The node's record in the key; ``never`` (a message with ``{label}``)
    if the search does not reach it."""
    nk = key.inner.get(node_id)
    label = key.tree.node(node_id).label
    if nk is None:
        if key.tree.node(node_id).is_leaf:
            raise QuestionError("{label} is a leaf: its value is written on it", label=label)
        raise QuestionError(never, label=label)
    return nk


def _not_shown(decided: int | None, step: int, msgid: str, **fields) -> None:
    """Refuse (``msgid`` with ``{step}``) a question whose answer the board already shows."""
    if decided is None or decided <= step:
        raise QuestionError(msgid, step=decided, **fields)


def grade(question: dict, tree, raw) -> tuple[str, bool]:
    """``(label, right)`` for a student's entry on ``question`` (its :meth:`to_dict`).

    The label is the entry as the tally shows it (``3``, ``α = 3, β = +∞``,
    ``c2, c3``, ``none``). Raises :class:`AnswerError` for an entry that
    cannot be read or names a node that is not offered.
    """
    kind, answer = question["kind"], question["answer"]
    if kind == "value":
        given = _number(raw)
        return fmt(given), same(given, key_value(answer))
    if kind == "bounds":
        if not isinstance(raw, list) or len(raw) != 2:
            raise AnswerError("send α and β as two numbers")
        a, b = _number(raw[0]), _number(raw[1])
        right = same(a, key_value(answer[0])) and same(b, key_value(answer[1]))
        return TEXT["bounds_answer"].format(a=fmt(a), b=fmt(b)), right
    if kind == "pruned":
        if not isinstance(raw, list) or not all(isinstance(x, str) for x in raw):
            raise AnswerError("send the pruned children as a list of node ids (empty: none)")
        choices = question["choices"]
        if any(x not in choices for x in raw):
            raise AnswerError("only children of the node can be pruned here")
        picked = [c for c in choices if c in raw]  # in the tree's order, once each
        label = ", ".join(tree.node(c).label for c in picked) or NONE
        return label, set(picked) == set(answer)
    if not isinstance(raw, str) or raw not in tree:  # move, next: a node id
        raise AnswerError("tap a node of the tree")
    if kind == "move" and raw not in question["choices"]:
        raise AnswerError("the root's move is one of its children")
    if kind == "ucb" and raw not in question["choices"]:   # [mcts]
        raise AnswerError("UCB1 selects one of the node's children")
    return tree.node(raw).label, raw == answer


def _number(raw):
    if isinstance(raw, str) and len(raw) > 40:
        raise AnswerError("that is too long to be a number")
    try:
        value = parse_entry(raw)
    except Unreadable:
        value = "unreadable"
    if value is None:
        raise AnswerError("type a number")
    if value == "unreadable" or isinstance(value, tuple) and len(value) > 8:
        raise AnswerError("{entry} is not a number: write e.g. 3, -2, 2.5, -inf or inf",
                      entry=repr(str(raw)[:40]))
    return value
