"""Worksheets as PDF: the blank tree to solve, the answer key, a flip-book.

One sheet per page, A4, the drawing fitted on it (landscape where it is
wider). Every page is drawn in a single Graphviz run and joined with pypdf.

- :func:`worksheet`: (a) the question: leaves with their values, empty shapes
  and room for alpha and beta at each node; (b) the answer key: values, cuts,
  the evaluation order, the principal variation and a summary; (c) with
  ``steps``, one page per step of the run.
- :func:`exam`: several trees, questions in one PDF and answers in another.
"""
from __future__ import annotations

from app.search import SearchOptions
from app.search.tree import Tree

from app.i18n.context import tell

from . import describe
from .dot import Look, layout, to_dot
from .engine import draw_pdf_pages
from .pdf import join
from .state import Snapshot, check_size, snapshot, snapshots
from .style import fmt_value
from app.search.descriptors import get

MAX_STEP_PAGES = 400
"""A flip-book longer than this would not be printed: refuse it politely."""


def instructions(tree: Tree, options: SearchOptions) -> list[str]:
    """What the student is asked to do, in the lecture's words."""
    alg = options.algorithm
    order = {"given": tell("from left to right"), "best": tell("in best child order"),
             "worst": tell("in worst child order")}.get(options.order) or tell("in random child order")
    lines = []
    if get(alg).bounds:
        rule = tell("v > β at a MAX node, v < α at a MIN node") if options.strict else \
            tell("v ≥ β at a MAX node, v ≤ α at a MIN node")
        lines.append(tell("Run alpha-beta search on this tree, children {order}; prune when "
                          "{rule}. Write each node's value in its shape and α, β beside it, "
                          "cross out every pruned branch, and number the leaves in the order "
                          "they are evaluated.", order=order, rule=rule))
        if get(alg).leaf_bounds and tree.has_chance and options.bounds is not None:
            lines.append(tell("Every leaf value lies between {low} and {high}. At a chance "
                              "node, after each outcome, add the outcomes seen (probability × "
                              "value) to the rest counted at {high} (at {low}): if that is ≤ α "
                              "(≥ β), cross out the outcomes not yet searched.",
                              low=fmt_value(options.bounds[0]), high=fmt_value(options.bounds[1])))
    elif get(alg).chance == "accepts":   # (the records: expectiminimax's averages)
        lines.append(tell("Compute the expectiminimax value of every node: a chance node is "
                          "the probability-weighted average of its children (probabilities on "
                          "the edges). Write each value in its shape."))
    elif get(alg).players == "vectors":   # (max^n's vectors)
        players = ", ".join(tree.players)
        lines.append(tell("Each leaf gives one value per player ({players}). Back up, at every "
                          "node, the vector that is best for the player to move there (ties: "
                          "the leftmost). Write the vectors beside the nodes.", players=players))
    else:
        lines.append(tell("Compute the minimax value of every node, children {order}. Write "
                          "each value in its shape and mark the move MAX should make at the "
                          "root.", order=order))
    if options.depth is not None:
        lines.append(tell("Do not expand nodes at depth {depth} (root = 0): use the eval "
                          "printed beside them.", depth=options.depth))
    return lines


def summary(snap: Snapshot) -> str:
    """The answer in one paragraph: value, best move, what was evaluated and cut."""
    done = snap.done or {}
    tree = snap.tree
    parts = [tell("Value of the root: {value}.", value=fmt_value(done.get("value")))]
    best = done.get("best_move")
    if best:
        parts.append(tell("Best move: {move}.", move=tree.node(best).label if best in tree else best))
    evaluated = done.get("evaluated") or []
    parts.append(tell("Evaluated, in order: {nodes}.", nodes=_listing(_labels(tree, evaluated))))
    plain = (done.get("stats") or {}).get("minimax_evaluated")
    if plain is not None and plain != len(evaluated):
        parts.append(tell("{n} static evaluations where plain minimax makes {plain}.",
                          n=len(evaluated), plain=plain))
    pruned = done.get("pruned") or []
    if pruned:
        parts.append(tell("Pruned: {nodes}.", nodes=_listing(_labels(tree, pruned))))
    if snap.pv:
        parts.append(tell("Principal variation: {line}.", line=" → ".join(_labels(tree, snap.pv))))
    return " ".join(parts)


LISTED = 60
"""Longest list the answer paragraph spells out: on a big tree the numbered
badges in the picture carry the order, and Graphviz refuses very long labels."""


def _listing(labels: list[str]) -> str:
    if len(labels) <= LISTED:
        return ", ".join(labels)
    return tell("{listed}, … and {n} more", listed=", ".join(labels[:LISTED]),
                n=f"{len(labels) - LISTED:,}")


def _labels(tree: Tree, ids) -> list[str]:
    return [tree.node(i).label if i in tree else str(i) for i in ids]


def question_look(tree: Tree, options: SearchOptions, title: str | None = None) -> Look:
    header = [tell("Name: ______________________________    Date: ______________"), " "]
    return Look(blank=True, legend=True, title=title or tree.title,
                subtitle=tree.source or None,
                header=header + instructions(tree, options))


def key_look(snap: Snapshot, title: str | None = None) -> Look:
    return Look(numbers=True, title=tell("Answer key: {title}", title=title or snap.tree.title),
                subtitle=describe(snap.options), caption=summary(snap))


def step_look(snap: Snapshot, title: str | None = None) -> Look:
    where = tell("Start: nothing searched yet") if snap.step == 0 else \
        tell("Step {step} of {total}: {sentence}", step=snap.step, total=snap.total,
             sentence=snap.event.get("text", ""))
    return Look(numbers=True, title=title or snap.tree.title,
                subtitle=describe(snap.options), caption=where)


def worksheet_pages(tree: Tree, options: SearchOptions, steps: bool = False,
                    title: str | None = None, max_pages: int | None = None) -> list[str]:
    """The DOT text of each page: question, answer key, then each step
    (at most ``max_pages`` step pages, default :data:`MAX_STEP_PAGES`)."""
    check_size(tree)
    opts = options.resolved(tree)
    if steps:
        limit = max_pages or MAX_STEP_PAGES
        snaps = snapshots(tree, opts)
        if len(snaps) > limit:
            from .state import RenderError
            raise RenderError(f"the run has {len(snaps) - 1} steps: a flip-book is made for "
                              f"runs of at most {limit - 1}")
        start, final = snaps[0], snaps[-1]
    else:
        start, final = snapshot(tree, opts, 0), snapshot(tree, opts, None)
        snaps = []
    key = key_look(final, title)
    where = layout(final, key)  # every page shares it: nothing moves from page to page
    pages = [to_dot(start, question_look(tree, opts, title), where), to_dot(final, key, where)]
    pages += [to_dot(s, step_look(s, title), where) for s in snaps]
    return pages


def worksheet(tree: Tree, options: SearchOptions, steps: bool = False,
              title: str | None = None, max_pages: int | None = None) -> bytes:
    """The worksheet PDF of one tree."""
    pages = worksheet_pages(tree, options, steps, title, max_pages)
    return join(draw_pdf_pages(pages), title=tell("Worksheet: {title}", title=title or tree.title))


def exam(trees: list[Tree], options: SearchOptions, title: str = "Exam") -> tuple[bytes, bytes]:
    """``(questions, answers)``: one page per tree in each PDF, numbered alike."""
    questions, answers = [], []
    for number, tree in enumerate(trees, 1):
        opts = options.resolved(tree)
        name = f"{title}, question {number}"
        start, final = snapshot(tree, opts, 0), snapshot(tree, opts, None)
        look = question_look(tree, opts, name)
        look.subtitle = tree.title  # the random tree's title names its seed
        key = key_look(final, name)
        key.subtitle = f"{tree.title} — {describe(opts)}"
        where = layout(final, key)
        questions.append(to_dot(start, look, where))
        answers.append(to_dot(final, key, where))
    drawn = draw_pdf_pages(questions + answers)
    n = len(questions)
    return (join(drawn[:n], title=f"{title}: questions"),
            join(drawn[n:], title=f"{title}: answers"))
