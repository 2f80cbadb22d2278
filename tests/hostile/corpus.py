"""Hostile tree files: Hypothesis strategies and the property every one must keep.

Four families of input (the brief of ``test_fuzz_treefile``):

- :func:`random_texts`: any text or bytes, biased towards YAML's punctuation;
- :func:`mutated_lectures`: the real lecture files of ``trees/`` (and their
  JSON and one-line forms) with lines deleted, duplicated, swapped and
  re-indented, and hostile tokens put in anywhere;
- :func:`random_json`: JSON values, and tree-shaped objects with the loader's
  own keys and odd values, as JSON and as YAML;
- :func:`random_notation`: the one-line notation from random tokens.

:func:`check_load` is the property: a :class:`~app.search.tree.Tree` or a
:class:`~app.treefile.TreeFileError` with a message and a position inside the
text, never another exception, and quickly.
"""
from __future__ import annotations

import json
import re
import time
from pathlib import Path

from hypothesis import strategies as st

from app.search.tree import Tree
from app.treefile import TreeFileError, dump_json, load_path, load_tree, tree_to_dict

REPO = Path(__file__).resolve().parents[2]
LECTURE_PATHS = sorted((REPO / "trees").glob("*.yaml"))
LECTURES = [p.read_text(encoding="utf-8") for p in LECTURE_PATHS]
# The same trees as JSON and (two-player ones without chance) as typed trees.
LECTURES_JSON = [dump_json(load_path(p)) for p in LECTURE_PATHS]

SECONDS = 2.0
"""Most CPU time a single small hostile file may take to be refused or loaded."""

# -- the hostile pieces ---------------------------------------------------------
YAML_TOKENS = [
    "&a ", "*a", "&anchor {value: 1}", "*anchor", "!!python/object:os.system ",
    "!!python/object/apply:os.system [echo]", "!!binary aGk=", "!!set ", "!!omap ",
    "!!int ", "!!float ", "!!str ", "!!bool ", "!!null ", "!!map ", "!!seq ", "!local ",
    "!<tag:yaml.org,2002:int> ", "!<!> ", "!e!x ", "%YAML 1.2\n---\n",
    "%TAG !e! tag:x,2000:\n---\n",
    "{", "}", "[", "]", ": ", ":", "? ", "- ", "-", ",", "#", " #c", "|", ">", "|-", ">+2",
    "'", '"', "\\", "\\u", '"\\ud800"', '"\\x00"', '"\\uFFFE"', "\t", "\x00", "\ufeff",
    "\r", "\r\n", "\x85", "\u2028", "\u2029", "\x7f", "\x1b", "\ud800", "\udfff",
    "\U0001F600", "é", "---", "...", "--- |\n", "<<: ", "<<: *a", "=", "~", "null",
    "yes", "no", "on", "off", "True", "Null", "NaN", ".nan", ".NaN", ".inf", "-.inf",
    "+.INF", "Infinity", "-Infinity", "1e309", "-1e309", "1e15", "1e16", "-1e15",
    "1000000000000001", "9" * 30, "9" * 5000, "-" + "9" * 25, "0x", "0xFF", "0o777",
    "0b101", "0x" + "F" * 30, "1_000", "1:30", "2001-12-14", "1/0", "0/0", "1/3",
    "99999999999999999999/1", "-0", "-0.0", "+1", ".5", "5.", "1e", "e5",
    "0.1e-400", "[" * 60, "]" * 60, "{" * 60, "(" * 60, ")" * 60,
    "[" * 500 + "]" * 500, "{a: " * 300, "- " * 300, "children: ", "value: ",
    "probability: ", "eval: ", "type: chance", "player: MIN", "player: CHANCE",
    "id: A", "id: b1", "label: ", "players: [A, B, C]", "players: [MAX, MAX]",
    "algorithm: maxn", "algorithm: minimax", "algorithm: expectiminimax",
    "algorithm: iterative", "root: ", "title: ", "x" * 300,
]

_SCALAR_SPOT = re.compile(r"(?<=: )[^,{}\[\]\n]+|(?<=[\[,] )[^,\]]+")
_LINE_OPS = ("delete", "duplicate", "swap", "indent", "dedent", "tabify", "insert",
             "replace_scalar", "truncate", "split", "join")


@st.composite
def mutated(draw, texts: list[str]) -> str:
    """One of ``texts`` with one to six random mutations."""
    lines = draw(st.sampled_from(texts)).split("\n")
    for _ in range(draw(st.integers(1, 6))):
        if not lines:
            lines = [""]
        op = draw(st.sampled_from(_LINE_OPS))
        i = draw(st.integers(0, len(lines) - 1))
        line = lines[i]
        if op == "delete":
            del lines[i]
        elif op == "duplicate":
            lines.insert(i, line)
        elif op == "swap":
            j = draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
        elif op == "indent":
            lines[i] = " " * draw(st.integers(1, 5)) + line
        elif op == "dedent":
            lines[i] = line[draw(st.integers(1, 4)):]
        elif op == "tabify":
            stripped = line.lstrip(" ")
            lines[i] = "\t" * draw(st.integers(1, 2)) + stripped
        elif op == "insert":
            token = draw(st.sampled_from(YAML_TOKENS) | st.text(max_size=8))
            at = draw(st.integers(0, len(line)))
            lines[i] = line[:at] + token + line[at:]
        elif op == "replace_scalar":
            # a value after ': ' or in a flow list becomes a hostile token
            spots = [m.span() for m in _SCALAR_SPOT.finditer(line)]
            if spots:
                a, b = draw(st.sampled_from(spots))
                lines[i] = line[:a] + draw(st.sampled_from(YAML_TOKENS)) + line[b:]
        elif op == "truncate":
            lines = lines[:i] + [line[:draw(st.integers(0, len(line)))]]
        elif op == "split":
            at = draw(st.integers(0, len(line)))
            lines[i:i + 1] = [line[:at], line[at:]]
        elif op == "join" and i + 1 < len(lines):
            lines[i:i + 2] = [line + lines[i + 1]]
    newline = draw(st.sampled_from(["\n", "\n", "\n", "\r\n", "\r"]))
    return newline.join(lines)


def mutated_lectures():
    """Lecture files (YAML and JSON) with random damage."""
    return mutated(LECTURES) | mutated(LECTURES_JSON)


def random_texts():
    """Any text, biased towards YAML punctuation, and any bytes."""
    punctuation = st.sampled_from(list("{}[]:,-?&*!|>'\"%@`#\t\n\r ()=\\~.0123456789eE+")
                                  + ["\x00", "\ufeff", "\x85", "\u2028", "\ud800"])
    pieces = st.lists(punctuation | st.sampled_from(YAML_TOKENS) | st.text(max_size=5),
                      max_size=40).map("".join)
    return st.text() | pieces | st.binary(max_size=200)


# -- JSON and tree-shaped documents ---------------------------------------------
_SCALARS = (st.none() | st.booleans() | st.integers(-10**20, 10**20)
            | st.floats(allow_nan=True, allow_infinity=True)
            | st.text(max_size=12) | st.sampled_from(["chance", "MAX", "MIN", "A", "b1",
                                                       "alphabeta", "maxn", "1/2", "0.5"]))
_JSON = st.recursive(_SCALARS, lambda inner: st.lists(inner, max_size=5)
                     | st.dictionaries(st.text(max_size=8), inner, max_size=5),
                     max_leaves=30)

_NODE_KEYS = ["id", "label", "player", "type", "probability", "eval", "value", "children",
              "vaule", "Children", ""]


def _node(values):
    return st.recursive(
        values,
        lambda inner: st.dictionaries(
            st.sampled_from(_NODE_KEYS),
            st.one_of(values, st.lists(inner, min_size=0, max_size=4)), max_size=5)
        | st.lists(inner, max_size=4),
        max_leaves=25)


@st.composite
def tree_documents(draw):
    """A dict shaped like a tree file, with random (often wrong) contents."""
    values = _SCALARS | st.lists(st.integers(-5, 5) | st.floats(), max_size=4)
    doc = {"title": draw(st.sampled_from(["t", "", None, 3, "x" * 300]) | st.text(max_size=5)),
           "root": draw(_node(values))}
    if draw(st.booleans()):
        doc["players"] = draw(st.lists(st.sampled_from(["MAX", "MIN", "A", "B", "C", "CHANCE", ""]),
                                       max_size=4) | _SCALARS)
    if draw(st.booleans()):
        doc["algorithm"] = draw(st.sampled_from(["minimax", "alphabeta", "expectiminimax", "maxn",
                                                  "iterative", "alphabta"]) | _SCALARS)
    if draw(st.booleans()):
        del doc["title"]
    return doc


HOSTILE_VALUES = (_SCALARS | st.sampled_from([[], {}, [1, 2], [1, "a"], {"value": 1}, "1/0", "2/3",
                                               "CHANCE", "chance", " A", "a b", "x" * 70,
                                               10**15, 10**15 + 1, 1e15, -0.0, 5e-324]))


@st.composite
def plausible_trees(draw):
    """A valid-looking tree file (2 or 3 players, chance nodes, ids, labels,
    evals, players) with zero to two fields then spoiled: it gets past the
    reader into the builder and, often, into the search."""
    players = draw(st.sampled_from([None, ["MAX", "MIN"], ["A", "B", "C"], ["P", "Q"]]))
    n = len(players or ["MAX", "MIN"])
    number = st.integers(-10**16, 10**16) | st.integers(-9, 9) | st.floats(-1e3, 1e3)
    value = number if n == 2 else st.lists(number, min_size=n, max_size=n)
    ids = iter(f"n{i}" for i in range(10**6))

    def node(depth, chance_parent):
        item = {}
        if draw(st.booleans()):
            item["id"] = draw(st.sampled_from([next(ids)] * 6 + ["A", "b1", "B", 7, "a1.2"]))
        if draw(st.integers(0, 5)) == 0:
            item["label"] = draw(st.text(max_size=6))
        if chance_parent:
            item["probability"] = None          # filled in by the parent
        if depth < 4 and draw(st.integers(0, 2)):
            chance = draw(st.integers(0, 4)) == 0
            if chance:
                item["type"] = "chance"
            elif draw(st.integers(0, 5)) == 0:
                item["player"] = draw(st.sampled_from(players or ["MAX", "MIN"]))
            if draw(st.integers(0, 2)) == 0:
                item["eval"] = draw(value)
            kids = [node(depth + 1, chance) for _ in range(draw(st.integers(1, 4)))]
            if chance:
                weights = [draw(st.integers(1, 3)) for _ in kids]
                for kid, w in zip(kids, weights):
                    share = w / sum(weights)
                    kid["probability"] = draw(st.sampled_from([share, f"{w}/{sum(weights)}"]))
            item["children"] = kids
        elif not item and draw(st.booleans()):
            return draw(value)                  # a bare leaf
        else:
            item["value"] = draw(value)
        return item

    doc = {"title": "t", "root": node(0, False)}
    if players:
        doc["players"] = players
    if draw(st.integers(0, 3)) == 0:
        doc["algorithm"] = draw(st.sampled_from(["minimax", "alphabeta", "expectiminimax",
                                                  "maxn", "iterative"]))
    for _ in range(draw(st.sampled_from([0, 0, 1, 2]))):
        _spoil(draw, doc)
    return doc


def _spoil(draw, doc):
    """Replace, drop or add one field somewhere in ``doc``."""
    spots = []
    stack = [doc]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            spots.append(item)
            stack.extend(item.get("children", []) if isinstance(item.get("children"), list) else [])
    item = draw(st.sampled_from(spots))
    action = draw(st.sampled_from(["replace", "drop", "add"]))
    if action == "replace" and item:
        item[draw(st.sampled_from(sorted(item)))] = draw(HOSTILE_VALUES)
    elif action == "drop" and item:
        del item[draw(st.sampled_from(sorted(item)))]
    else:
        item[draw(st.sampled_from(_NODE_KEYS + ["players", "title"]))] = draw(HOSTILE_VALUES)


def random_json():
    """Random JSON texts: any value, and tree-shaped objects (JSON or YAML)."""
    import yaml  # the test's own writer of YAML; the loader never uses yaml.load

    docs = _JSON | tree_documents() | plausible_trees() | plausible_trees()
    as_json = docs.map(json.dumps)                                   # NaN, Infinity too
    as_yaml = (tree_documents() | plausible_trees()).map(
        lambda d: yaml.safe_dump(d, allow_unicode=True, default_flow_style=None))
    return as_json | as_yaml


# -- the one-line notation --------------------------------------------------------
_NOTATION_TOKENS = st.sampled_from(
    ["(", "(", "(", ")", ")", ")", "[", "]", "=", ",", " ", "\n", "# c\n", "A", "b1", "B(",
     "x=", "3", "-2", "2.5", "1e3", "1e400", "9" * 25, "-" + "9" * 30, ".5", "+7", "0",
     "1e15", "1000000000000001", "nan", "inf", "'", "_", "é", "\t", "{", ";"])


def random_notation():
    """Typed trees: parentheses, brackets, ids and numbers in random order,
    and mostly-balanced ones that get further into the builder."""
    soup = st.lists(_NOTATION_TOKENS, min_size=1, max_size=60).map("".join)
    numbers = st.integers(-20, 20).map(str) | st.sampled_from(["1e400", "9" * 25, "2.5", "x=3"])
    leaf = numbers | st.lists(numbers, min_size=1, max_size=4).map(lambda v: f"[{' '.join(v)}]")
    balanced = st.recursive(
        leaf, lambda inner: st.lists(inner, min_size=0, max_size=4).map(
            lambda kids: "(" + " ".join(kids) + ")"), max_leaves=30)
    return (soup.map(lambda s: "(" + s)
            | balanced.map(lambda s: s if s.startswith("(") else f"({s})"))


# -- the property ------------------------------------------------------------------
def text_bounds(text: str) -> tuple[int, int]:
    """(most lines, longest line + 1) of ``text`` under any reading of line
    breaks (``\\n`` only, or every break YAML and Unicode know)."""
    lines = max(len(text.splitlines()), text.count("\n") + 1, 1) + 1
    width = max((len(line) for line in text.split("\n")), default=0) + 1
    return lines, width


def check_load(data: str | bytes, **kwargs) -> Tree | None:
    """Load ``data``: the tree, or ``None`` after checking the error is a good one."""
    start = time.process_time()      # CPU time: the machine may be busy with others
    try:
        tree = load_tree(data, **kwargs)
    except TreeFileError as exc:
        assert isinstance(exc.message, str) and exc.message.strip(), repr(exc)
        text = data.decode("utf-8", "replace") if isinstance(data, bytes) else data
        lines, width = text_bounds(text)
        if exc.line is not None:
            assert isinstance(exc.line, int) and 1 <= exc.line <= lines, (exc.line, lines, str(exc))
        if exc.column is not None:
            assert exc.line is not None
            assert isinstance(exc.column, int) and 1 <= exc.column <= width, \
                (exc.column, width, str(exc))
        json.dumps(exc.to_dict(), allow_nan=False)  # the API sends it
        str(exc).encode("utf-8")  # printable on any terminal or page
        tree = None
    else:
        assert isinstance(tree, Tree)
    elapsed = time.process_time() - start
    assert elapsed < SECONDS, f"took {elapsed:.2f} s"
    return tree


def check_search(tree: Tree, options=None) -> dict | None:
    """Run ``options`` (default: the tree's default algorithm) to ``done``,
    every event strict JSON, or a :class:`SearchError`; the ``done`` event."""
    from app.search import SearchError, SearchOptions, run

    try:
        events = run(tree, options or SearchOptions())
    except SearchError as exc:
        assert str(exc)
        return None
    last = None
    for last in events:
        json.dumps(last, allow_nan=False)
    assert last is not None and last["type"] == "done", last
    return last


def check_round_trip(tree: Tree) -> None:
    """What the server stores and serves back reloads as the same tree."""
    from app.treefile import dump_yaml

    data = tree_to_dict(tree)
    json.dumps(data, sort_keys=True, ensure_ascii=False, allow_nan=False).encode("utf-8")
    for text in (dump_yaml(tree), dump_json(tree)):
        again = load_tree(text)
        assert tree_to_dict(again) == data, text
