"""What an edit did to the search: cuts gained and lost, the best move,
the root's value and the number of static evaluations, said in a sentence.

Runs are compared by the nodes' *keys* (see :mod:`.document`): an edit may
rename the nodes whose ids the loader makes, but a key stays with its node.

The words live in :data:`WORDS` (one place): catalogue messages, said
through ``tell`` (``app.i18n.words(lang)`` for the reader's language; the
core's :func:`~app.search.words.english` by default).
"""
from __future__ import annotations

from app.search.numbers import fmt
from app.search.words import english


def N_(msgid: str) -> str:
    """Mark ``msgid`` for the catalogue (said later through ``tell``)."""
    return msgid


WORDS = {
    "value": N_("changing {node} to {new}"),
    "eval": N_("setting the eval of {node} to {new}"),
    "probability": N_("setting the probability of {node} to {new}"),
    "label": N_("labelling {node} {new}"),
    "id": N_("renaming {old} to {new}"),
    "kind": N_("making {node} {new}"),
    "add-child": N_("adding {node}"),
    "add-sibling": N_("adding {node}"),
    "delete": N_("deleting {old}"),
    "move": N_("moving {node}"),
    "best-order": N_("ordering the children best first"),
    "players": N_("changing the players"),
    "text": N_("editing the text"),
    "options": N_("changing the search options"),
    "edit": N_("this edit"),
    "adds-cut": N_("cuts {skipped} at {node} ({cut} = {bound})"),
    "loses-cut": N_("no longer cuts {skipped}"),
    "best-move": N_("the best move changes from {old} to {new}"),
    "root-value": N_("the root's value goes from {old} to {new}"),
    "evaluations": N_("static evaluations {old} → {new}"),
    "saved": N_("static evaluations {old} → {new} ({saved} saved)"),
    "already-cut": N_("adds no cut: {node} is already cut by {cut} = {bound}"),
    "no-change": N_("changes no cut, and the best move stays {best}"),
    "no-change-no-move": N_("changes no cut"),
    "cutoffs": N_("takes the cut-offs from {old} to {new}"),
    "joined": N_("{edit} {effects}."),
    "first": N_("{text}"),
}
CUT_NAMES = {"alpha": "alpha", "beta": "beta"}


def _say(tell, key: str, **fields) -> str:
    """The message :data:`WORDS` ``[key]`` said by ``tell``."""
    return tell(WORDS[key], **fields)


def _ids(keys, ids) -> list[str]:
    return [ids[k] for k in keys if k in ids]


def _list(names: list[str], tell=english) -> str:
    if len(names) <= 1:
        return "".join(names)
    return tell("{first} and {second}", first=", ".join(names[:-1]), second=names[-1])


def compare(before, after, edit: dict | None, tell=english) -> dict:
    """The difference between two runs: ``before`` and ``after`` are
    ``(checked, outcome)`` pairs (:class:`.document.Checked`,
    :class:`.result.Outcome`); ``edit`` says what changed (``kind``, ``key``,
    ``old``, ``new``, as the page sends it); ``tell`` says the sentence."""
    (old_doc, old_run), (new_doc, new_run) = before, after
    shared = set(old_doc.ids) & set(new_doc.ids)
    old_cut = {old_doc.keys[i] for i in old_run.pruned}
    new_cut = {new_doc.keys[i] for i in new_run.pruned}
    gained = [k for k in (new_doc.keys[i] for i in new_run.pruned) if k not in old_cut and k in shared]
    lost = [k for k in (old_doc.keys[i] for i in old_run.pruned) if k not in new_cut and k in shared]
    old_best = old_doc.keys.get(old_run.best_move) if old_run.best_move else None
    new_best = new_doc.keys.get(new_run.best_move) if new_run.best_move else None
    effects: list[str] = []
    for cut in new_run.cuts:            # group the gained cuts by the cut-off that made them
        skipped = [i for i in cut["skipped"] if new_doc.keys[i] in gained]
        if skipped:
            effects.append(_say(tell, "adds-cut",
                skipped=_list(skipped, tell), node=cut["node"], cut=CUT_NAMES.get(cut["cut"], cut["cut"]),
                bound=fmt(cut["bound"])))
    if lost:
        effects.append(_say(tell, "loses-cut", skipped=_list(_ids(lost, new_doc.ids), tell)))
    best_changed = old_best != new_best and not (old_best is None and new_best is None)
    if best_changed:
        effects.append(_say(tell, "best-move",
            old=old_run.best_move or tell(NONE), new=new_run.best_move or tell(NONE)))
    if old_run.value != new_run.value:
        effects.append(_say(tell, "root-value", old=fmt(old_run.value), new=fmt(new_run.value)))
    old_n, new_n = old_run.stats["evaluated"], new_run.stats["evaluated"]
    if old_n != new_n:
        effects.append(_say(tell, "saved" if new_n < old_n else "evaluations",
                            old=old_n, new=new_n, saved=old_n - new_n))
    old_cuts, new_cuts = old_run.stats.get("cutoffs", 0), new_run.stats.get("cutoffs", 0)
    if not gained and not lost and old_cuts != new_cuts:
        # The cuts are on nodes the tree before had not (a whole tree typed or loaded).
        effects.insert(0, _say(tell, "cutoffs", old=old_cuts, new=new_cuts))
    elif not gained and not lost:
        already = _already_cut(new_doc, new_run, (edit or {}).get("key"), tell)
        lead = already or (_say(tell, "no-change", best=new_run.best_move) if new_run.best_move
                           and not best_changed else _say(tell, "no-change-no-move"))
        effects.insert(0, lead)
    sentence = _say(tell, "joined", edit=_edit_words(edit, old_doc, new_doc, tell),
                    effects="; ".join(effects))
    return {"new_cuts": _ids(gained, new_doc.ids), "lost_cuts": _ids(lost, new_doc.ids),
            "best_move": {"before": old_run.best_move, "after": new_run.best_move,
                          "changed": best_changed},
            "value": {"before": old_run.value, "after": new_run.value},
            "evaluated": {"before": old_n, "after": new_n},
            "sentence": sentence[:1].upper() + sentence[1:]}


def _already_cut(doc, outcome, key, tell=english) -> str | None:
    """'adds no cut: C is already cut by alpha = 3' when the edited node lies
    in a subtree a cut-off skipped."""
    node_id = doc.ids.get(key) if key else None
    if node_id is None or node_id not in doc.tree:
        return None
    for node in reversed(doc.tree.path_to(node_id)):
        cut = outcome.cut_at(node.id)
        if cut is not None:
            return _say(tell, "already-cut", node=cut["node"],
                        cut=CUT_NAMES.get(cut["cut"], cut["cut"]), bound=fmt(cut["bound"]))
    return None


def _edit_words(edit: dict | None, old_doc, new_doc, tell=english) -> str:
    if not edit:
        return _say(tell, "edit")
    kind = edit.get("kind") if isinstance(edit.get("kind"), str) else "edit"
    key = edit.get("key")
    node = new_doc.ids.get(key) or old_doc.ids.get(key) or "?"
    old = old_doc.ids.get(key, "?") if kind == "delete" else edit.get("old")
    new = edit.get("new")
    return _say(tell, kind if kind in WORDS else "edit", node=node, old=_shown(old, tell),
                new=_shown(new, tell))


NONE = N_("(none)")
NOTHING = N_("nothing")


def _shown(x, tell=english) -> str:
    if x is None:
        return tell(NOTHING)
    if isinstance(x, (list, tuple)):
        return fmt(list(x))
    text = str(x)
    return text if len(text) <= 40 else text[:39] + "…"
