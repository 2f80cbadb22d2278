"""Play against the search: tic-tac-toe, Nim and Connect Four.

- ``GET  /play``                 choose a game
- ``GET  /play/<game>``          play it (``tictactoe``, ``nim``, ``connect4``;
  ``?position=<game id>`` starts from a position, ``?piles=7-3`` for Nim)
- ``POST /api/play``             JSON ``{position, move?, reply?, algorithm, depth, order, seed}``:
  plays the user's ``move`` (a move name from ``moves``) if given, then, when
  ``reply`` is true and the game goes on, the computer's answer by the
  search the options describe. Answers ``{position, before?, computer?}``,
  each position as :func:`app.games.play.position` gives it; ``computer``
  has the move, its value, the search's work and ``why``, the visualizer
  on the position it searched, at its first step.

The rules and the search live in :mod:`app.games`; this module only reads
the request and writes the answer.
"""
from __future__ import annotations

from urllib.parse import urlencode

from flask import Blueprint, current_app, jsonify, render_template, request

from app.budget import OverBudget
from app.games.ids import GameTooBig, UnknownGame, check_size, resolve
from app.games.play import KINDS, answer, position
from app.search import SearchError
from app.search.descriptors import BY_ID, REGISTRY

from .errors import ApiError, api_error, budget_message, said
from .i18n import error_message
from .library import game_too_big
from .offload import offload
from .params import MAX_DEPTH, _shown, argument_error, options_from_payload, refused_by_record

bp = Blueprint("play", __name__)

START = {"tictactoe": "game:tictactoe", "nim": "game:nim:7", "connect4": "game:connect4"}
DEFAULTS = {"tictactoe": {"algorithm": "alphabeta", "depth": None},
            "nim": {"algorithm": "minimax", "depth": None},
            "connect4": {"algorithm": "alphabeta", "depth": 4}}


# What the page offers: the records that search a game once and whose record gives no
# reason the play page refuses them (Monte Carlo tree search backs up no value to play by).
PLAYERS = tuple(a for a in REGISTRY if a.games and a.one_search and not a.reason("play"))


@bp.get("/play")
def choose():
    return render_template("play.html", game=None, kinds=KINDS, start=None, defaults=DEFAULTS,
                           algorithms=PLAYERS)


@bp.get("/play/<kind>")
def play(kind: str):
    if kind not in KINDS:
        return render_template("missing.html", tree_id=kind,
                               message=said("There is no game {kind} to play here.",
                                            kind=repr(kind))), 404
    start = request.args.get("position") or START[kind]
    piles = request.args.get("piles")
    if kind == "nim" and piles and "position" not in request.args:
        start = f"game:nim:{piles}"
    try:
        _check_size(start)
        first = position(start)
    except UnknownGame as exc:
        return render_template("missing.html", tree_id=start,
                               message=error_message(exc)), 404
    except OverBudget as exc:   # Nim from 40 tokens, say: named with its size
        return render_template("missing.html", tree_id=start,
                               message=budget_message(exc)), 413
    if first["game"] != kind:
        return render_template("missing.html", tree_id=start,
                               message=said("{position} is not a position of {game}.",
                                            position=start, game=kind)), 404
    return render_template("play.html", game=kind, kinds=KINDS, start=first, algorithms=PLAYERS,
                           defaults=DEFAULTS[kind])


@bp.post("/api/play")
def move():
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        raise api_error(400, "Send a JSON object: {fields}.",
                        fields="{position, move?, reply?, algorithm, depth, order}")
    where = data.get("position")
    if not isinstance(where, str):
        raise argument_error("position", "position must be a game id (a string)")
    name = data.get("move")
    reply = data.get("reply", True)
    if not isinstance(reply, bool):
        raise argument_error("reply", "reply must be true or false")
    opts = options_from_payload({k: v for k, v in data.items() if k not in ("position", "move", "reply")})
    if opts.depth == 0:     # a search that expands no move finds none to play
        raise argument_error("depth", "{name} must be between {low} and {high}, not {value}",
                             name="depth", low=1, high=MAX_DEPTH, value=0)
    budget = current_app.extensions["budget"].games
    record = BY_ID.get(opts.algorithm) if opts.algorithm is not None else None
    if record is not None and record.reason("play"):
        raise refused_by_record("algorithm", record, "play")
    if opts.algorithm is not None and record not in PLAYERS:
        raise argument_error("algorithm", "the computer plays by {choices}, not {algorithm}",
                             choices=", ".join(a.id for a in PLAYERS), algorithm=opts.algorithm)
    try:
        _check_size(where)
        now = position(where)
        out: dict = {}
        if name is not None:
            chosen = next((m for m in now["moves"] if m["name"] == name), None)
            if chosen is None:     # (the move quoted cut short: a client may send megabytes)
                if now["moves"]:
                    raise argument_error("move", "{move} is not a legal move here",
                                         move=_shown(name))
                raise argument_error("move", "{move} is not a legal move here: the game is over",
                                     move=_shown(name))
            out["before"] = now
            now = position(chosen["position"])
        if reply and not now["over"]:
            # Bounded in nodes and CPU seconds, in a worker thread (never on
            # gevent's loop), admitted per client (503/429 when busy).
            found = offload(answer, now["id"], opts.algorithm or "alphabeta", opts.depth,
                            opts.order, opts.seed, max_nodes=budget.game_nodes,
                            seconds=budget.search_seconds)
            query = {k: v for k, v in found["options"].items() if v is not None}
            found["why"] = f"/t/{now['id']}?{urlencode({**query, 'step': 1})}"
            found["searched"] = now["id"]
            out["computer"] = found
            now = position(found["position"])
    except GameTooBig as exc:
        raise game_too_big(exc) from None
    except (UnknownGame, SearchError) as exc:
        raise ApiError(400, str(exc)) from None
    out["position"] = now
    return jsonify(out)


def _check_size(game_id: str) -> None:
    """A game id over the games' budget: 413 with its size (an unknown one is
    :func:`position`'s to say)."""
    try:
        check_size(resolve(game_id), current_app.extensions["budget"].games.game_size)
    except UnknownGame:
        return
    except GameTooBig as exc:
        raise game_too_big(exc) from None
