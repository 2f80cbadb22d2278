"""The pseudocode listings the lectures use, as data, and which line each
kind of step runs.

Two formulations of alpha-beta are taught: AIMA's MAX-VALUE / MIN-VALUE
(return when v >= beta; alpha raised after the test) and the Wikipedia-style
``alphabeta(node, depth, alpha, beta, maximizingPlayer)`` (alpha := max(alpha, v);
break when beta <= alpha). Minimax has the same two. Line numbers are 1-based
and do not change between the variants (strict, depth-limited) of a listing.

>>> listing("alphabeta", "aima")[9]
'    if v ≥ β then return v'
>>> listing("alphabeta", "aima", strict=True)[9]
'    if v > β then return v'
>>> listings_for("iterative")["aima"][5]
'  if CUTOFF-TEST(state, depth) then return EVAL(state)'
"""
from __future__ import annotations

from .descriptors import get

_AIMA_ALPHABETA = """\
function ALPHA-BETA-SEARCH(state) returns an action
  v ← MAX-VALUE(state, −∞, +∞)
  return the action in ACTIONS(state) with value v

function MAX-VALUE(state, α, β) returns a utility value
  if TERMINAL-TEST(state) then return UTILITY(state)
  v ← −∞
  for each a in ACTIONS(state) do
    v ← MAX(v, MIN-VALUE(RESULT(state, a), α, β))
    if v ≥ β then return v
    α ← MAX(α, v)
  return v

function MIN-VALUE(state, α, β) returns a utility value
  if TERMINAL-TEST(state) then return UTILITY(state)
  v ← +∞
  for each a in ACTIONS(state) do
    v ← MIN(v, MAX-VALUE(RESULT(state, a), α, β))
    if v ≤ α then return v
    β ← MIN(β, v)
  return v"""

_WIKI_ALPHABETA = """\
function alphabeta(node, depth, α, β, maximizingPlayer)
  if depth = 0 or node is a terminal node
    return the heuristic value of node
  if maximizingPlayer
    v := −∞
    for each child of node
      v := max(v, alphabeta(child, depth − 1, α, β, FALSE))
      α := max(α, v)
      if β ≤ α
        break (* β cut-off *)
    return v
  else
    v := +∞
    for each child of node
      v := min(v, alphabeta(child, depth − 1, α, β, TRUE))
      β := min(β, v)
      if β ≤ α
        break (* α cut-off *)
    return v

(* Initial call *)
alphabeta(origin, depth, −∞, +∞, TRUE)"""

_AIMA_MINIMAX = """\
function MINIMAX-DECISION(state) returns an action
  return arg max over a in ACTIONS(state) of MIN-VALUE(RESULT(state, a))

function MAX-VALUE(state) returns a utility value
  if TERMINAL-TEST(state) then return UTILITY(state)
  v ← −∞
  for each a in ACTIONS(state) do
    v ← MAX(v, MIN-VALUE(RESULT(state, a)))
  return v

function MIN-VALUE(state) returns a utility value
  if TERMINAL-TEST(state) then return UTILITY(state)
  v ← +∞
  for each a in ACTIONS(state) do
    v ← MIN(v, MAX-VALUE(RESULT(state, a)))
  return v"""

_WIKI_MINIMAX = """\
function minimax(node, depth, maximizingPlayer)
  if depth = 0 or node is a terminal node
    return the heuristic value of node
  if maximizingPlayer
    bestValue := −∞
    for each child of node
      v := minimax(child, depth − 1, FALSE)
      bestValue := max(bestValue, v)
    return bestValue
  else    (* minimizing player *)
    bestValue := +∞
    for each child of node
      v := minimax(child, depth − 1, TRUE)
      bestValue := min(bestValue, v)
    return bestValue"""

_EXPECTIMINIMAX = """\
function EXPECTIMINIMAX(s) returns a value
  if TERMINAL-TEST(s) then return UTILITY(s)
  if PLAYER(s) = MAX then
    v ← −∞
    for each a in ACTIONS(s) do v ← MAX(v, EXPECTIMINIMAX(RESULT(s, a)))
  if PLAYER(s) = MIN then
    v ← +∞
    for each a in ACTIONS(s) do v ← MIN(v, EXPECTIMINIMAX(RESULT(s, a)))
  if PLAYER(s) = CHANCE then
    v ← 0
    for each r in CHANCE-OUTCOMES(s) do v ← v + P(r) · EXPECTIMINIMAX(RESULT(s, r))
  return v"""

_MAXN = """\
function MAXN(s) returns a vector of utilities, one per player
  if TERMINAL-TEST(s) then return UTILITY-VECTOR(s)
  p ← PLAYER(s)
  best ← none
  for each a in ACTIONS(s) do
    u ← MAXN(RESULT(s, a))
    if best = none or u[p] > best[p] then best ← u
  return best"""

_STAR1 = """\
function STAR1-SEARCH(state) returns an action   (leaf values within [L, U])
  v ← VALUE(state, −∞, +∞)
  return the action in ACTIONS(state) with value v

function MAX-VALUE(state, α, β) returns a utility value
  if TERMINAL-TEST(state) then return UTILITY(state)
  v ← −∞
  for each a in ACTIONS(state) do
    v ← MAX(v, VALUE(RESULT(state, a), α, β))
    if v ≥ β then return v
    α ← MAX(α, v)
  return v

function MIN-VALUE(state, α, β) returns a utility value
  if TERMINAL-TEST(state) then return UTILITY(state)
  v ← +∞
  for each a in ACTIONS(state) do
    v ← MIN(v, VALUE(RESULT(state, a), α, β))
    if v ≤ α then return v
    β ← MIN(β, v)
  return v

function CHANCE-VALUE(state, α, β) returns a utility value
  if TERMINAL-TEST(state) then return UTILITY(state)
  v ← 0
  for each r in CHANCE-OUTCOMES(state) do
    rest ← P(the outcomes not yet searched, r excluded)
    a ← (α − v − U · rest) / P(r);  b ← (β − v − L · rest) / P(r)
    x ← VALUE(RESULT(state, r), MAX(a, L), MIN(b, U))
    v ← v + P(r) · x
    if x ≤ a then return v + U · rest
    if x ≥ b then return v + L · rest
  return v

(VALUE is MAX-VALUE, MIN-VALUE or CHANCE-VALUE, by PLAYER(state))"""

# Principal variation search (NegaScout, fail-soft), in AIMA's MAX-VALUE / MIN-VALUE form.
_PVS = """\
function PVS(state) returns an action
  v ← MAX-VALUE(state, −∞, +∞)
  return the action in ACTIONS(state) with value v

function MAX-VALUE(state, α, β) returns a utility value
  if TERMINAL-TEST(state) then return UTILITY(state)
  v ← −∞
  for each a in ACTIONS(state) do
    if a is the first action or RESULT(state, a) is a leaf then x ← MIN-VALUE(RESULT(state, a), α, β)
    else
      x ← MIN-VALUE(RESULT(state, a), α, α)      ▷ null-window test: is it worth more than α?
      if α < x < β then x ← MIN-VALUE(RESULT(state, a), α, β)      ▷ yes: re-search
    v ← MAX(v, x)
    if v ≥ β then return v
    α ← MAX(α, v)
  return v

function MIN-VALUE(state, α, β) returns a utility value
  if TERMINAL-TEST(state) then return UTILITY(state)
  v ← +∞
  for each a in ACTIONS(state) do
    if a is the first action or RESULT(state, a) is a leaf then x ← MAX-VALUE(RESULT(state, a), α, β)
    else
      x ← MAX-VALUE(RESULT(state, a), β, β)      ▷ null-window test: is it worth less than β?
      if α < x < β then x ← MAX-VALUE(RESULT(state, a), α, β)      ▷ yes: re-search
    v ← MIN(v, x)
    if v ≤ α then return v
    β ← MIN(β, v)
  return v

(inside a test on t, the cut answers it: for "more than t" MAX returns when v > t and
 MIN when v ≤ t; for "less than t" MAX when v ≥ t and MIN when v < t)"""

# AIMA 4th ed. Fig. 5.11, with the UCB1 formula of its Sect. 5.4.
_MCTS = """\
function MONTE-CARLO-TREE-SEARCH(state) returns an action
  tree ← NODE(state)
  while IS-TIME-REMAINING() do
    leaf ← SELECT(tree)
    child ← EXPAND(leaf)
    result ← SIMULATE(child)
    BACK-PROPAGATE(result, child)
  return the move in ACTIONS(state) whose node has highest number of playouts

SELECT: from the root, while every child is tried, go to the child with the highest
  UCB1(n) = U(n)/N(n) + C × √(log N(PARENT(n)) / N(n))"""

_LISTINGS = {
    ("alphabeta", "aima"): _AIMA_ALPHABETA,
    ("alphabeta", "wikipedia"): _WIKI_ALPHABETA,
    ("minimax", "aima"): _AIMA_MINIMAX,
    ("minimax", "wikipedia"): _WIKI_MINIMAX,
    ("expectiminimax", "aima"): _EXPECTIMINIMAX,
    ("maxn", "aima"): _MAXN,
    ("star1", "aima"): _STAR1,
    ("mcts", "aima"): _MCTS,
    ("pvs", "aima"): _PVS,
}

# (step kind, role) -> line, per listing. Roles: 'max', 'min', 'chance',
# 'player' (max^n); 'return-cut' is an exit through the pruning test.
_LINES = {
    ("alphabeta", "aima"): {
        ("enter", "max"): 7, ("enter", "min"): 16,
        ("evaluate", "max"): 6, ("evaluate", "min"): 15,
        ("update", "max"): 9, ("update", "min"): 18,
        ("prune", "max"): 10, ("prune", "min"): 19,
        ("alpha", "max"): 11, ("beta", "min"): 20,
        ("exit", "max"): 12, ("exit", "min"): 21,
        ("return-cut", "max"): 10, ("return-cut", "min"): 19,
        ("done", None): 3,
    },
    ("alphabeta", "wikipedia"): {
        ("enter", "max"): 5, ("enter", "min"): 13,
        ("evaluate", "max"): 3, ("evaluate", "min"): 3,
        ("update", "max"): 7, ("update", "min"): 15,
        ("alpha", "max"): 8, ("beta", "min"): 16,
        ("prune", "max"): 10, ("prune", "min"): 18,
        ("exit", "max"): 11, ("exit", "min"): 19,
        ("return-cut", "max"): 10, ("return-cut", "min"): 18,
        ("done", None): 22,
    },
    ("minimax", "aima"): {
        ("enter", "max"): 6, ("enter", "min"): 13,
        ("evaluate", "max"): 5, ("evaluate", "min"): 12,
        ("update", "max"): 8, ("update", "min"): 15,
        ("exit", "max"): 9, ("exit", "min"): 16,
        ("done", None): 2,
    },
    ("minimax", "wikipedia"): {
        ("enter", "max"): 5, ("enter", "min"): 11,
        ("evaluate", "max"): 3, ("evaluate", "min"): 3,
        ("update", "max"): 8, ("update", "min"): 14,
        ("exit", "max"): 9, ("exit", "min"): 15,
    },
    ("expectiminimax", "aima"): {
        ("enter", "max"): 4, ("enter", "min"): 7, ("enter", "chance"): 10,
        ("evaluate", "max"): 2, ("evaluate", "min"): 2, ("evaluate", "chance"): 2,
        ("update", "max"): 5, ("update", "min"): 8, ("update", "chance"): 11,
        ("exit", "max"): 12, ("exit", "min"): 12, ("exit", "chance"): 12,
    },
    ("maxn", "aima"): {
        ("enter", "player"): 4, ("evaluate", "player"): 2,
        ("update", "player"): 7, ("exit", "player"): 8,
    },
    # A chance node's cut returns on line 31 (it fails low) or 32 (high):
    # kinds 'prune-high' and 'return-cut-high' name the second.
    ("star1", "aima"): {
        ("enter", "max"): 7, ("enter", "min"): 16, ("enter", "chance"): 25,
        ("evaluate", "max"): 6, ("evaluate", "min"): 15, ("evaluate", "chance"): 24,
        ("update", "max"): 9, ("update", "min"): 18, ("update", "chance"): 30,
        ("prune", "max"): 10, ("prune", "min"): 19, ("prune", "chance"): 31,
        ("prune-high", "chance"): 32,
        ("alpha", "max"): 11, ("beta", "min"): 20,
        ("exit", "max"): 12, ("exit", "min"): 21, ("exit", "chance"): 33,
        ("return-cut", "max"): 10, ("return-cut", "min"): 19, ("return-cut", "chance"): 31,
        ("return-cut-high", "chance"): 32,
        ("done", None): 3,
    },
    ("pvs", "aima"): {
        ("enter", "max"): 7, ("enter", "min"): 20,
        ("evaluate", "max"): 6, ("evaluate", "min"): 19,
        ("scout", "max"): 11, ("scout", "min"): 24,
        ("research", "max"): 12, ("research", "min"): 25,
        ("update", "max"): 13, ("update", "min"): 26,
        ("prune", "max"): 14, ("prune", "min"): 27,
        ("alpha", "max"): 15, ("beta", "min"): 28,
        ("exit", "max"): 16, ("exit", "min"): 29,
        ("return-cut", "max"): 14, ("return-cut", "min"): 27,
        ("done", None): 3,
    },
    ("mcts", "aima"): {   # (any role)
        ("select", None): 4, ("expand", None): 5, ("simulate", None): 6,
        ("backpropagate", None): 7, ("done", None): 8,
    },
}

FORMULATIONS = ("aima", "wikipedia")


def _key(algorithm: str, formulation: str) -> tuple[str, str]:
    algorithm = get(algorithm).listing   # iterative deepening shows alpha-beta's
    if (algorithm, formulation) not in _LISTINGS:
        formulation = "aima"  # expectiminimax and max^n have one listing
    return algorithm, formulation


def listing(algorithm: str, formulation: str = "aima", *, strict: bool = False,
            depth_limited: bool = False) -> list[str]:
    """The lines of the listing for ``algorithm`` in ``formulation``."""
    text = _LISTINGS[_key(algorithm, formulation)]
    if strict:
        text = (text.replace("v ≥ β", "v > β").replace("v ≤ α", "v < α")
                .replace("if β ≤ α", "if β < α").replace("if x ≤ a", "if x < a")
                .replace("if x ≥ b", "if x > b"))
    if depth_limited:
        text = (text.replace("if TERMINAL-TEST(state) then return UTILITY(state)",
                             "if CUTOFF-TEST(state, depth) then return EVAL(state)")
                .replace("if TERMINAL-TEST(s) then return UTILITY(s)",
                         "if CUTOFF-TEST(s, depth) then return EVAL(s)"))
    return text.split("\n")


def line_of(algorithm: str, formulation: str, kind: str, role: str | None) -> int | None:
    """The 1-based line that a step of ``kind`` at a node of ``role`` runs."""
    return _LINES[_key(algorithm, formulation)].get((kind, role))


def listings_for(algorithm: str, *, strict: bool = False, depth_limited: bool = False) -> dict:
    """Every formulation's listing for ``algorithm``: what the page shows.
    Iterative deepening always stops at a depth limit, so its listing is the
    depth-limited one."""
    depth_limited = depth_limited or get(algorithm).evals == "every"
    return {f: listing(algorithm, f, strict=strict, depth_limited=depth_limited)
            for f in FORMULATIONS if _key(algorithm, f)[1] == f}
