"""From a located document to an immutable :class:`~app.search.tree.Tree`.

Three passes, each with an explicit stack or a flat loop (trees may be
deeper than Python's recursion limit): *walk* the nodes in preorder,
checking every key and value; *name* the nodes without an id; *make* the
immutable nodes bottom-up. Either the whole tree comes out, or an error.

Auto ids follow the textbook: unnamed inner nodes get the free capital
letters in breadth-first order (A; B C D; ...) while there are enough, and
a node's unnamed children are its lower-cased letter plus their position
(B's children b1 b2 b3), or ``<parent>.<i>`` under longer ids (a1.2). An id
written in the file always wins; a made one never clashes with it.
"""
from __future__ import annotations

import math
import string
from itertools import repeat

from app.search.descriptors import ALGORITHMS as _ALGORITHMS, BY_ID
from app.search.tree import Node, Tree

from . import fields
from .doc import Map, Scalar, Seq, kind
from .errors import TreeTooLarge, closest, file_error, key_name, phrase, shorten
from .fields import at
from .limits import (MAX_DESCRIPTION, MAX_ID, MAX_LABEL, MAX_NUMBER, MAX_PLAYER_NAME,
                     MAX_PLAYERS, MAX_SOURCE, MAX_TITLE, Limits)

TOP_KEYS = ("title", "source", "description", "algorithm", "depth", "players", "bounds", "root",
            "translations")
TRANSLATED_KEYS = ("title", "description")
NODE_KEYS = ("id", "label", "player", "type", "probability", "eval", "value", "children")
ALGORITHMS = _ALGORITHMS   # (every algorithm's record: app.search.descriptors)
DEFAULT_PLAYERS = ("MAX", "MIN")
PROBABILITY_TOLERANCE = 1e-9
_A_LEAF, _A_LIST, _A_NUMBER = phrase("a leaf"), phrase("a list"), phrase("a number")


def child_id(parent_id: str, index: int) -> str:
    """The id an unnamed child gets from its parent's id and its 1-based place.

    >>> child_id("B", 3), child_id("a1", 2), child_id("root", 1)
    ('b3', 'a1.2', 'root.1')
    """
    if len(parent_id) == 1 and parent_id in string.ascii_uppercase:
        return f"{parent_id.lower()}{index}"
    return f"{parent_id}.{index}"


class _Rec:
    """A node while it is being built (mutable; becomes a Node at the end)."""

    __slots__ = ("doc", "parent", "index", "depth", "id", "label", "player", "chance",
                 "probability", "value", "eval", "children", "node")

    def __init__(self, doc, parent, index: int, depth: int, player: int):
        self.doc, self.parent, self.index, self.depth = doc, parent, index, depth
        self.player = player
        self.id = self.label = self.probability = self.value = self.eval = None
        self.chance = False
        self.children: list = []


def build_tree(doc, limits: Limits) -> Tree:
    """Check ``doc`` (from a reader) and make the tree it describes."""
    if doc is None:
        raise file_error("the file is empty: a tree file needs a 'title' and a 'root'")
    if type(doc) is not Map:
        raise file_error("a tree file must be a mapping with 'title' and 'root' at the top, "
                         "not {kind}", *at(doc), kind=kind(doc))
    _check_keys(doc, TOP_KEYS, phrase("a tree file may have"))
    title = _required(doc, "title", MAX_TITLE)
    source = _optional(doc, "source", MAX_SOURCE)
    description = _optional(doc, "description", MAX_DESCRIPTION, multiline=True)
    players = _players(doc.get("players"))
    algorithm = _algorithm(doc, players)
    depth = _depth(doc)
    bounds = _bounds(doc)
    translations = _translations(doc.get("translations"))
    if "root" not in doc.items:
        raise file_error("missing 'root': the top node of the tree", *at(doc))
    root = doc.get("root")
    if type(root) is Scalar and root.value is None:
        raise file_error("'root' is empty: it must be the top node of the tree", *at(root))
    builder = _Builder(players, limits)
    records = builder.walk(root)
    builder.name(records)
    if bounds is not None:
        _within(records, bounds)
    return Tree(root=builder.make(records), players=players, title=title,
                source=source or "", description=description or "", algorithm=algorithm, depth=depth,
                translations=translations, bounds=bounds)


def _bounds(doc: Map) -> tuple | None:
    """``bounds: [L, U]``: every leaf value lies within them (Star1 prunes with them)."""
    if "bounds" not in doc.items:
        return None
    item = doc.get("bounds")
    if type(item) is Scalar and item.value is None:
        return None
    if type(item) is not Seq or len(item.items) != 2:
        raise file_error("bounds must be two numbers [L, U] with L < U", *at(item))
    lo, hi = (fields.number(x, "bounds") for x in item.items)
    if not lo < hi:
        raise file_error("bounds must be two numbers [L, U] with L < U", *at(item))
    return (lo, hi)


def _within(records, bounds: tuple) -> None:
    """Refuse a leaf whose value (MAX's, for a vector) lies outside ``bounds``."""
    lo, hi = bounds
    for rec in records:
        if rec.children:
            continue
        value = rec.value[0] if type(rec.value) is tuple else rec.value
        if value is not None and not lo <= value <= hi:
            raise file_error("the value {value} of leaf {node} lies outside the bounds "
                             "[{low}, {high}]", *at(rec.doc), value=repr(value), node=rec.id,
                             low=repr(lo), high=repr(hi))


def _translations(doc) -> dict:
    """``translations: {id: {title: ..., description: ...}}``: the title and
    description in other languages (language codes such as ``id``)."""
    if doc is None or (type(doc) is Scalar and doc.value is None):
        return {}
    if type(doc) is not Map:
        raise file_error("translations must be a mapping of languages, like "
                         "{{id: {{title: ...}}}}, not {kind}", *at(doc), kind=kind(doc))
    out = {}
    for lang in doc.items:
        if not (2 <= len(lang) <= 8 and lang.replace("-", "").isalpha()):
            line, col, _ = doc.items[lang]
            raise file_error("{lang} is not a language code (like id or en)", line, col,
                             lang=repr(shorten(lang)))
        entry = doc.get(lang)
        if type(entry) is not Map:
            raise file_error("translations.{lang} must be a mapping with title and/or "
                             "description, not {kind}", *at(entry), lang=lang, kind=kind(entry))
        _check_keys(entry, TRANSLATED_KEYS, phrase("a translation may have"))
        texts = {"title": _optional(entry, "title", MAX_TITLE),
                 "description": _optional(entry, "description", MAX_DESCRIPTION, multiline=True)}
        out[lang] = {k: v for k, v in texts.items() if v}
    return out


# -- the top level ---------------------------------------------------------
def _check_keys(doc: Map, allowed, what: str) -> None:
    for key, (line, col, _) in doc.items.items():
        if key not in allowed:
            near = closest(key, allowed)
            if near is not None and "'" not in key + near:
                raise file_error("unknown key '{key}' (did you mean '{near}'?)", line, col,
                                 key=shorten(key), near=near)
            shown = repr(shorten(key))
            if near is not None:
                raise file_error("unknown key {key} (did you mean {near}?)", line, col,
                                 key=shown, near=repr(near))
            if key == "children" and "root" in allowed:
                raise file_error("unknown key {key} (put the top node's children under "
                                 "'root:')", line, col, key=shown)
            raise file_error("unknown key {key} ({what} {allowed})", line, col, key=shown,
                             what=what, allowed=", ".join(allowed))


def _required(doc: Map, key: str, limit: int) -> str:
    if key not in doc.items:
        raise file_error("missing '{key}': every tree file needs a short {key}", doc.line,
                         doc.col, key=key)
    value = fields.text(doc.get(key), key, limit)
    if not value or not value.strip():
        raise file_error("'{key}' is empty", doc.get(key).line, doc.get(key).col, key=key)
    return value


def _optional(doc: Map, key: str, limit: int, multiline: bool = False) -> str | None:
    return fields.text(doc.get(key), key, limit, multiline=multiline) \
        if key in doc.items else None


def _players(doc) -> tuple[str, ...]:
    if doc is None:
        return DEFAULT_PLAYERS
    if type(doc) is not Seq:
        if type(doc) is Map:
            raise file_error("players must be a list of names, like [MAX, MIN], not a mapping",
                             *at(doc))
        raise file_error("players must be a list of names, like [MAX, MIN], not {kind}",
                         *at(doc), kind=kind(doc))
    if not 2 <= len(doc.items) <= MAX_PLAYERS:
        raise file_error("a game needs 2 to {most} players, not {count}", *at(doc),
                         most=MAX_PLAYERS, count=len(doc.items))
    names: dict[str, Scalar] = {}
    for item in doc.items:
        name = fields.text(item, phrase("a player's name"), MAX_PLAYER_NAME)
        if not name or not name.strip():
            raise file_error("a player's name must not be empty", *at(item))
        if name in names:
            raise file_error("the player {name} is listed twice", *at(item), name=repr(name))
        if name == "CHANCE":
            raise file_error("'CHANCE' is reserved for chance nodes (type: chance)", *at(item))
        names[name] = item
    return tuple(names)


def _algorithm(doc: Map, players: tuple[str, ...]) -> str | None:
    if "algorithm" not in doc.items:
        return None
    item = doc.get("algorithm")
    name = fields.text(item, "algorithm", 40)
    if name is None:                  # `algorithm:` left empty: no suggestion
        return None
    if name not in ALGORITHMS:
        near = closest(str(name), ALGORITHMS)
        if near:
            raise file_error("unknown algorithm {name} (did you mean {near}?)", *at(item),
                             name=repr(shorten(str(name))), near=repr(near))
        raise file_error("unknown algorithm {name} (one of {choices})", *at(item),
                         name=repr(shorten(str(name))), choices=", ".join(ALGORITHMS))
    if BY_ID[name].players == "two" and len(players) > 2:
        raise file_error("{name} is for two players; a {count}-player tree uses maxn",
                         *at(item), name=name, count=len(players))
    return name


def _depth(doc: Map) -> int | None:
    """The suggested depth limit: a whole number from 0, or absent."""
    if "depth" not in doc.items:
        return None
    item = doc.get("depth")
    if type(item) is Scalar and item.value is None:   # `depth:` left empty: no limit
        return None
    value = fields.number(item, "depth")
    if type(value) is not int or value < 0:
        raise file_error("depth must be a whole number from 0 (the root), not {text}",
                         *at(item), text=item.text)
    return value


# -- the nodes -------------------------------------------------------------
class _Builder:
    def __init__(self, players: tuple[str, ...], limits: Limits):
        self.players = players
        self.limits = limits
        self.given: dict[str, int | None] = {}   # id -> line
        self.shape: tuple[bool, object] | None = None  # (vectors?, first value doc)

    def walk(self, root) -> list[_Rec]:
        """Every node's record, in preorder, checked."""
        records: list[_Rec] = []
        append = records.append
        max_nodes, max_depth = self.limits.max_nodes, self.limits.max_depth
        nplayers = len(self.players)
        value_of = self._value
        fast = False     # bare numbers need no checks once a number leaf was seen
        chances: list[_Rec] = []
        stack = [(root, None, 1)]
        pop, push = stack.pop, stack.extend
        while stack:
            doc, parent, index = pop()
            depth = 0 if parent is None else parent.depth + 1
            if depth > max_depth:
                raise file_error("the tree is deeper than {most} levels (the root is level 0)",
                                 *at(doc), cls=TreeTooLarge, most=max_depth)
            if len(records) >= max_nodes:
                raise file_error("the tree has more than {most} nodes", *at(doc),
                                 cls=TreeTooLarge, most=max_nodes)
            rec = _Rec(doc, parent, index, depth, depth % nplayers)
            append(rec)
            if parent is not None:
                parent.children.append(rec)
            kind_ = type(doc)
            if kind_ is Map:
                kids = self._node(rec, doc)
                if rec.chance:
                    chances.append(rec)
                if kids:
                    push(zip(reversed(kids), repeat(rec), range(len(kids), 0, -1)))
            elif fast and kind_ is Scalar and type(doc.value) in (int, float) \
                    and -MAX_NUMBER <= doc.value <= MAX_NUMBER:
                rec.value = doc.value       # the common case: a bare number leaf
            else:
                rec.value = value_of(doc, _A_LEAF)
                fast = nplayers == 2 and not self.shape[0]
            if parent is not None and parent.chance and rec.probability is None:
                raise file_error("every child of a chance node needs a 'probability', "
                                 "as in {{probability: 0.5, value: 3}}", doc.line, doc.col)
        for rec in chances:
            total = math.fsum(child.probability for child in rec.children)
            if abs(total - 1) > PROBABILITY_TOLERANCE:
                line, col = rec.doc.key_at("children")
                raise file_error("the probabilities of this chance node's children sum to "
                                 "{total}, not 1", line, col, total=f"{total:.10g}")
        return records

    def _node(self, rec: _Rec, doc: Map):
        """Check a node written as a mapping; return its children's documents."""
        _check_keys(doc, NODE_KEYS, phrase("a node may have"))
        get = doc.get
        if "id" in doc.items:
            rec.id = fields.node_id(get("id"))
            if rec.id in self.given:
                if "'" in rec.id:
                    raise file_error("duplicate id {id} (first used at line {first})",
                                     *at(get("id")), id=repr(rec.id), first=self.given[rec.id])
                raise file_error("duplicate id '{id}' (first used at line {first})",
                                 get("id").line, get("id").col, id=rec.id,
                                 first=self.given[rec.id])
            self.given[rec.id] = get("id").line
        if "label" in doc.items:
            rec.label = fields.text(get("label"), "label", MAX_LABEL)
        if "type" in doc.items:
            kind_doc = get("type")
            if type(kind_doc) is not Scalar or kind_doc.value != "chance":
                raise file_error("type must be 'chance' (players' nodes need no type)",
                                 *at(kind_doc))
            rec.chance = True
        if "player" in doc.items:
            rec.player = self._player(get("player"), rec)
        if "probability" in doc.items:
            if rec.parent is None or not rec.parent.chance:
                line, col = doc.key_at("probability")
                raise file_error("'probability' belongs only to the children of a chance "
                                 "node (type: chance), and this node's parent is not one",
                                 line, col)
            rec.probability = fields.probability(get("probability"))
        has_children = "children" in doc.items
        if has_children and "value" in doc.items:
            line, col = doc.key_at(max(("value", "children"), key=doc.key_at))
            raise file_error("a node has either a 'value' (a leaf) or 'children' "
                             "(an inner node), not both", line, col)
        if "value" in doc.items:
            if rec.chance:
                raise file_error("a chance node has children, not a 'value'", *at(get("value")))
            rec.value = self._value(get("value"), "value")
        elif not has_children:
            raise (file_error("a chance node needs 'children'", doc.line, doc.col) if rec.chance
                   else file_error("a leaf needs a 'value' (or give the node 'children')",
                                   doc.line, doc.col))
        if "eval" in doc.items:
            if not has_children:
                line, col = doc.key_at("eval")
                raise file_error("'eval' belongs to inner nodes (it is used when a depth "
                                 "limit stops there); a leaf has its 'value'", line, col)
            rec.eval = self._value(get("eval"), "eval")
        if not has_children:
            return ()
        kids = get("children")
        if type(kids) is not Seq:
            if type(kids) is Map:
                raise file_error("children must be a list, not a mapping", *at(kids))
            raise file_error("children must be a list, not {kind}", *at(kids), kind=kind(kids))
        if not kids.items:
            raise file_error("children is empty: a node without children is a leaf, "
                             "and a leaf needs a 'value'", kids.line, kids.col)
        return kids.items

    def _player(self, doc, rec: _Rec) -> int:
        if rec.chance:
            raise file_error("a chance node has no player to move: remove 'player'", *at(doc))
        name = fields.text(doc, "player", MAX_PLAYER_NAME)
        if name not in self.players:
            near = closest(str(name), self.players)
            if near:
                raise file_error("unknown player {name} (did you mean {near}?) "
                                 "(the players are {players})", *at(doc),
                                 name=repr(shorten(str(name))), near=repr(near),
                                 players=", ".join(self.players))
            raise file_error("unknown player {name} (the players are {players})", *at(doc),
                             name=repr(shorten(str(name))), players=", ".join(self.players))
        return self.players.index(name)

    def _value(self, doc, what: str):
        """A leaf value or an eval: a number, or one number per player."""
        if type(doc) is Seq:
            value = fields.vector(doc, what, self.players)
        elif len(self.players) > 2 and type(doc) is Scalar:
            raise file_error("{what} must list one number per player ({players}), "
                             "like [1, 2, 6]", *at(doc), what=key_name(what),
                             players=", ".join(self.players))
        else:
            value = fields.number(doc, what)
        vectors = type(doc) is Seq
        if self.shape is None:
            self.shape = (vectors, doc)
        elif self.shape[0] != vectors:
            raise file_error("{what} is {kind}, but the first value (line {first}) is "
                             "{first_kind}: use numbers throughout, or lists throughout",
                             *at(doc), what=key_name(what), first=self.shape[1].line,
                             kind=_A_LIST if vectors else _A_NUMBER,
                             first_kind=_A_LIST if self.shape[0] else _A_NUMBER)
        return value

    def name(self, records: list[_Rec]) -> None:
        """Give every unnamed node an id (see the module docstring)."""
        used = set(self.given)
        unnamed_inner = [r for r in records if r.id is None and r.children]
        letters = [c for c in string.ascii_uppercase if c not in used]
        if len(unnamed_inner) <= len(letters):
            unnamed_inner.sort(key=lambda r: r.depth)    # stable: breadth-first order
            for rec, letter in zip(unnamed_inner, letters):
                rec.id = letter
                used.add(letter)
        prefixes: dict[int, str] = {}       # id(parent record) -> prefix of its children
        for number, rec in enumerate(records):
            if rec.id is not None:
                continue
            parent = rec.parent
            if parent is None:
                wanted = "A"
            else:
                prefix = prefixes.get(id(parent))
                if prefix is None:
                    prefix = prefixes[id(parent)] = child_id(parent.id, 0)[:-1]
                wanted = prefix + str(rec.index)
                if len(wanted) > MAX_ID:     # very deep: keep ids short
                    wanted = f"n{number}"
            if wanted in used:
                wanted = _fresh(wanted, used)
            rec.id = wanted
            used.add(wanted)

    def make(self, records: list[_Rec]) -> Node:
        """The immutable nodes, bottom-up; returns the root."""
        for rec in reversed(records):
            kids = rec.children
            rec.node = Node(rec.id, rec.id if rec.label is None else rec.label, rec.player,
                            rec.depth, tuple([c.node for c in kids]) if kids else (),
                            rec.value, rec.eval, rec.chance, rec.probability, rec.doc.line)
            rec.children = rec.doc = None    # let the documents go
        return records[0].node


def _fresh(wanted: str, used: set) -> str:
    if wanted not in used:
        return wanted
    n = 2
    while f"{wanted}_{n}" in used:
        n += 1
    return f"{wanted}_{n}"
