"""The narration's sentences, each written once: one catalogue message per
kind of sentence, named by its kind, its fields named in the message.

Read by the core's narrator (:mod:`app.search.narrate` and its parts:
``self.says(kind, *values)``, the values in the order the fields first appear,
``self.tells(kind, **fields)``), by the wire's fast path
(:mod:`app.search.wire`, the same kinds as JSON-escaped templates) and by the
page's twin (``static/js/narrate*.js``): the page gets this table with the
algorithms' records (``GET /api/algorithms``, ``<meta name="algorithms">``:
``sentences``) and says each message in its language through the catalogue
it already loads (``/i18n/<lang>.json``, :func:`app.i18n.js_messages`).
A sentence changed here changes all three (tests/search/test_wire.py,
tests/js/test_twins_agree_with_the_core.py, tests/browser/test_narrate_parity.py).

The sentences of algorithms with narrators of their own (MCTS, PVS) are
written in those narrators: only the server says them.

>>> FIELDS["keep_max"]
('player', 'node', 'value', 'child', 'v')
"""
from __future__ import annotations

from string import Formatter

from .states import N_

SENTENCES: dict[str, str] = {
    # How a sentence names a node
    "phrase": N_("{player} node {node}"),
    "position_phrase": N_("{position} ({player} to move)"),
    "the_root": N_("the root"),
    "root_position": N_("the root ({position})"),
    "root_node": N_("the root {node}"),
    # Entering a node
    "enter_chance": N_("Chance node {node}: v starts at 0 and becomes the probability-weighted "
                       "sum of its children."),
    "enter_vector": N_("{player} moves at {node}: it keeps the child whose vector is best in "
                       "{player}'s own component."),
    "start_ab": N_("Start at the root, {node} with α = {alpha}, β = {beta}; v starts at {v}."),
    "enter_ab": N_("Enter {node} with α = {alpha}, β = {beta}; v starts at {v}."),
    "enter_window": N_("Enter {node} with {alpha}, {beta}: the window in which this outcome (p ="
                       " {p}) decides {parent}, from {parent}'s α = {palpha} and β = {pbeta}, "
                       "{sum} from the outcomes searched and {rest} unseen, counted at U = {hi} "
                       "for α and L = {lo} for β; v starts at {v}."),
    "start": N_("Start at the root, {node}; v starts at {v}."),
    "enter": N_("Enter {node}; v starts at {v}."),
    # Leaves
    "depth": N_("Depth limit reached at {node}: not expanded; its evaluation {eval} = {value} is"
                " used."),
    "leaf_position": N_("Leaf {position}: value {value}."),
    "leaf": N_("Leaf {node} has value {value}."),
    # A child's value back at its parent: v updated, or kept
    "chance_sum": N_("Chance node {node}: v = {old} + {p} × {child_value} = {new}."),
    "keep_vector": N_("{player} at {node}: {value} from {child} is no better for {player} "
                      "({mine} ≤ {best}): v stays {v}."),
    "keep_max_tie": N_("{player} at {node}: {value} from {child} does not raise v: v stays {v} "
                       "(a tie keeps the child found first)."),
    "keep_max": N_("{player} at {node}: {value} from {child} does not raise v: v stays {v}."),
    "keep_min_tie": N_("{player} at {node}: {value} from {child} does not lower v: v stays {v} "
                       "(a tie keeps the child found first)."),
    "keep_min": N_("{player} at {node}: {value} from {child} does not lower v: v stays {v}."),
    "first_vector": N_("{player} at {node}: first result {value} (from {child})."),
    "better_vector": N_("{player} at {node}: {value} from {child} is better for {player} ({mine}"
                        " > {best}): keep it."),
    "update": N_("{player} at {node}: v = {op}({old}, {child_value}) = {new}, through {child}."),
    # Returns
    "returns": N_("{node} returns {value} to {parent}{note}."),
    "at_least": N_(" (a bound: its true value is at least {value})"),
    "at_most": N_(" (a bound: its true value is at most {value})"),
    "root_worth": N_("{root} is worth {value}."),
    # Bounds and alpha-beta's cut-offs (MAX cut by beta, MIN by alpha)
    "alpha": N_("MAX at {node}: α = max({old}, {new}) = {new}: MAX is sure of at least {new} on "
                "this path."),
    "beta": N_("MIN at {node}: β = min({old}, {new}) = {new}: MIN can hold MAX to at most {new} "
               "on this path."),
    "why_beta": N_("MIN already holds MAX to {bound} at {holder}"),
    "many_beta": N_("MAX at {node}: v = {v} {sign} β = {beta}. {why}, so MIN will never let play"
                    " reach {node}: its other children {names} cannot matter and are pruned (β "
                    "cut-off)."),
    "one_beta": N_("MAX at {node}: v = {v} {sign} β = {beta}. {why}, so MIN will never let play "
                   "reach {node}: its last child {names} cannot matter and is pruned (β "
                   "cut-off)."),
    "why_alpha": N_("MAX already has {bound} at {holder}"),
    "many_alpha": N_("MIN at {node}: v = {v} {sign} α = {alpha}. {why}, so MAX will never choose"
                     " {node}: its other children {names} cannot matter and are pruned (α "
                     "cut-off)."),
    "one_alpha": N_("MIN at {node}: v = {v} {sign} α = {alpha}. {why}, so MAX will never choose "
                    "{node}: its last child {names} cannot matter and is pruned (α cut-off)."),
    "through": N_(" (through {child})"),
    # Star1: an outcome cut at its window's edge, a chance node cut
    "outcome_one_alpha": N_("MIN at {node}: v = {v} {sign} α = {alpha}, {why}, so its last child"
                            " {names} cannot matter and is pruned (α cut-off)."),
    "outcome_many_alpha": N_("MIN at {node}: v = {v} {sign} α = {alpha}, {why}, so its other "
                             "children {names} cannot matter and are pruned (α cut-off)."),
    "outcome_one_beta": N_("MAX at {node}: v = {v} {sign} β = {beta}, {why}, so its last child "
                           "{names} cannot matter and is pruned (β cut-off)."),
    "outcome_many_beta": N_("MAX at {node}: v = {v} {sign} β = {beta}, {why}, so its other "
                            "children {names} cannot matter and are pruned (β cut-off)."),
    "outcome_why_alpha": N_("the low end of its window: chance node {parent} can no longer get "
                            "above its own α = {bound}, whatever its other outcomes score"),
    "outcome_why_beta": N_("the high end of its window: chance node {parent} can no longer get "
                           "below its own β = {bound}, whatever its other outcomes score"),
    "outcome_edge_alpha": N_("the least any leaf scores: {node} can go no lower"),
    "outcome_edge_beta": N_("the most any leaf scores: {node} can go no higher"),
    "chance_many_alpha": N_("Chance node {node}: even if {names} all scored the most, {limit}, "
                            "it would be worth at most {sum} = {bound} {sign} α = {alpha}: its "
                            "other outcomes {names} cannot matter and are pruned (chance "
                            "cut-off)."),
    "chance_one_alpha": N_("Chance node {node}: even if {names} scored the most, {limit}, it "
                           "would be worth at most {sum} = {bound} {sign} α = {alpha}: its last "
                           "outcome {names} cannot matter and is pruned (chance cut-off)."),
    "chance_many_beta": N_("Chance node {node}: even if {names} all scored the least, {limit}, "
                           "it would be worth at least {sum} = {bound} {sign} β = {beta}: its "
                           "other outcomes {names} cannot matter and are pruned (chance "
                           "cut-off)."),
    "chance_one_beta": N_("Chance node {node}: even if {names} scored the least, {limit}, it "
                          "would be worth at least {sum} = {bound} {sign} β = {beta}: its last "
                          "outcome {names} cannot matter and is pruned (chance cut-off)."),
    # Iterative deepening's rounds
    "iteration_bottom": N_("Iteration {depth}: search again from the root, to the bottom of the "
                           "tree."),
    "iteration_limit": N_("Iteration {depth}: search again from the root, with the depth limit "
                          "{depth}."),
    "iteration_done": N_("Iteration {depth} done: value {value}, best move {move}."),
    "none": N_("(none)"),
    # The summary (done): its head, then its counts (evaluations, cut-offs: 1 or n)
    "done_move": N_("Done: {root} is worth {value} and the best move is {move}."),
    "done": N_("Done: {root} is worth {value}."),
    "count_1": N_("{n} static evaluation."),
    "count_n": N_("{n} static evaluations."),
    "star_1_1": N_("{n} static evaluation, {cutoffs} cut-off; expectiminimax would make {plain} "
                   "({saved} saved)."),
    "star_1_n": N_("{n} static evaluation, {cutoffs} cut-offs; expectiminimax would make {plain}"
                   " ({saved} saved)."),
    "star_n_1": N_("{n} static evaluations, {cutoffs} cut-off; expectiminimax would make {plain}"
                   " ({saved} saved)."),
    "star_n_n": N_("{n} static evaluations, {cutoffs} cut-offs; expectiminimax would make "
                   "{plain} ({saved} saved)."),
    "plain_1_1": N_("{n} static evaluation, {cutoffs} cut-off; plain minimax would make {plain} "
                    "({saved} saved)."),
    "plain_1_n": N_("{n} static evaluation, {cutoffs} cut-offs; plain minimax would make {plain}"
                    " ({saved} saved)."),
    "plain_n_1": N_("{n} static evaluations, {cutoffs} cut-off; plain minimax would make {plain}"
                    " ({saved} saved)."),
    "plain_n_n": N_("{n} static evaluations, {cutoffs} cut-offs; plain minimax would make "
                    "{plain} ({saved} saved)."),
}
"""Kind -> message id (the English sentence, its fields in braces)."""

FIELDS: dict[str, tuple[str, ...]] = {
    kind: tuple(dict.fromkeys(f for _, f, _, _ in Formatter().parse(msgid) if f is not None))
    for kind, msgid in SENTENCES.items()}
"""Kind -> its fields, in the order they first appear (``says``'s values)."""

__all__ = ["SENTENCES", "FIELDS"]
