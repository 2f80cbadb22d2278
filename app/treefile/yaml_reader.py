"""Reading YAML into the located document, safely and without recursion.

PyYAML's composer and constructor recurse once per nesting level and accept
aliases, which can blow a 1 KB file up into a billion nodes. So this reader
takes only the *event* stream of YAML's safe parser (libyaml's when
installed) and composes it itself with an explicit stack: anchors, aliases
and non-standard tags are refused where they stand, duplicate keys are
caught, and nesting is counted as it opens, so a deep file is refused long
before anything could recurse.

Plain scalars resolve as JSON and YAML 1.2 read them (``010`` is ten,
``1e5`` is a number), except that YAML 1.1's ``yes``/``no``/``on``/``off``
are booleans too, so that they are reported where a number is expected
instead of being taken silently.
"""
from __future__ import annotations

import re

import yaml
from yaml.events import (AliasEvent, DocumentStartEvent, MappingEndEvent,
                         MappingStartEvent, ScalarEvent, SequenceEndEvent,
                         SequenceStartEvent, StreamEndEvent)

from .doc import (append_item, MAX_MAP_KEYS, Map, Scalar, Seq, kind, map_too_big, to_int)
from .errors import N_, TreeFileError, TreeTooLarge, file_error, shorten
from .limits import Limits
from .yaml_words import plain_syntax_error

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

_NULLS = {"", "~", "null", "Null", "NULL"}
_BOOLS = {w: True for w in "yes Yes YES true True TRUE on On ON".split()}
_BOOLS.update({w: False for w in "no No NO false False FALSE off Off OFF".split()})
_INT = re.compile(r"[-+]?[0-9]+")
_FLOAT = re.compile(r"[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?")
_SPECIAL = {".inf": float("inf"), ".Inf": float("inf"), ".INF": float("inf"),
            "+.inf": float("inf"), "+.Inf": float("inf"), "+.INF": float("inf"),
            "-.inf": float("-inf"), "-.Inf": float("-inf"), "-.INF": float("-inf"),
            ".nan": float("nan"), ".NaN": float("nan"), ".NAN": float("nan")}

_TAG = "tag:yaml.org,2002:"
_SCALAR_TAGS = {_TAG + t for t in ("str", "int", "float", "bool", "null")}


def resolve_plain(text: str):
    """The value of an unquoted scalar.

    >>> [resolve_plain(t) for t in ("12", "-2.5", "1e3", "yes", "~", "B")]
    [12, -2.5, 1000.0, True, None, 'B']
    """
    if not text or text[0] in "0123456789-+.":
        if _INT.fullmatch(text):
            return to_int(text)
        if text.startswith(("0x", "0o")) and len(text) > 2:
            try:
                return to_int(text[2:], 16 if text[1] == "x" else 8)
            except ValueError:
                return text
        if _FLOAT.fullmatch(text):
            return float(text)
        if text in _SPECIAL:
            return _SPECIAL[text]
        return None if text == "" else text
    if text in _NULLS:
        return None
    if text in _BOOLS:
        return _BOOLS[text]
    return text


def _tagged(text: str, tag: str, line: int, col: int):
    """The value of a scalar with an explicit standard tag (``!!int 3``)."""
    name = tag[len(_TAG):]
    if name == "str":
        return text
    value = resolve_plain(text)
    wanted = {"int": int, "float": (int, float), "bool": bool, "null": type(None)}[name]
    if name != "bool" and isinstance(value, bool) or not isinstance(value, wanted):
        raise file_error("{text} is not a valid !!{name}", line, col, text=repr(text), name=name)
    return float(value) if name == "float" else value


# YAML's line breaks (libyaml's marks count every one of them) and the
# characters a YAML stream may not hold at all (YAML 1.1's printable set).
_BREAK = re.compile("\r\n|[\r\n\x85\u2028\u2029]")
_NOT_PRINTABLE = re.compile("[^\t\n\r\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd"
                            "\U00010000-\U0010ffff]")


def _position(text: str, index: int) -> tuple[int, int, str]:
    """(line, column, text of that line) of a character offset, lines counted
    the way libyaml counts them; an offset past the end (libyaml reads an
    implied final line break) is the end of the text."""
    index = max(0, min(index, len(text)))
    line, start = 1, 0
    for match in _BREAK.finditer(text, 0, index):
        line, start = line + 1, match.end()
    end = _BREAK.search(text, start)
    return line, index - start + 1, text[start:end.start() if end else len(text)]


def _refuse_unprintable(text: str) -> None:
    """Refuse a character YAML forbids, placed by our own count (libyaml
    reports it at a byte offset, not a character's)."""
    bad = _NOT_PRINTABLE.search(text)
    if bad:
        line, col, _ = _position(text, bad.start())
        raise file_error("the character U+{code} is not allowed in a YAML file", line, col,
                         code=f"{ord(bad.group()):04X}")


def _syntax_error(exc: yaml.YAMLError, text: str, limits: Limits) -> TreeFileError:
    # A problem no rule of yaml_words knows keeps libyaml's own (English) words,
    # quoted inside a catalogue sentence.
    if isinstance(exc, yaml.reader.ReaderError):   # not reached after _refuse_unprintable
        return file_error("the text cannot be read as YAML: {problem}", problem=exc.reason)
    mark = getattr(exc, "problem_mark", None)
    problem = getattr(exc, "problem", None) or str(exc)
    fields = {"problem": problem}
    context = getattr(exc, "context", None)
    context_mark = getattr(exc, "context_mark", None)
    if context and context_mark is not None:
        fields.update(context=context, start=_position(text, context_mark.index)[0])
    if mark is None:
        return file_error(_YAML_SYNTAX[len(fields) > 1, False], **fields)
    # Placed by the mark's character offset: its line and column may lie past
    # the end of the text, where libyaml reads an implied final line break.
    line, col, line_text = _position(text, mark.index)
    if "nesting depth" not in problem:
        start = _position(text, context_mark.index)[:2] if context_mark is not None else None
        plain = plain_syntax_error(problem, context, (line, col), start, text)
        if plain is not None:      # the common mistakes, in plain words at the line to fix
            return plain
    if "nesting depth" in problem:     # libyaml's own limit, met while scanning ahead
        return file_error("the file nests lists and mappings too deep; a tree may be at most "
                          "{depth} levels deep", line, col, cls=TreeTooLarge,
                          depth=limits.max_depth)
    tab = "\t" in line_text[:col]
    return file_error(_YAML_SYNTAX[len(fields) > 1, tab], line, col, **fields)


_YAML_SYNTAX = {   # (with a context?, a tab before the mark?) -> message
    (False, False): N_("YAML syntax error: {problem}"),
    (True, False): N_("YAML syntax error: {problem} ({context} that starts at line {start})"),
    (False, True): N_("YAML syntax error: {problem}; indent with spaces, not tabs"),
    (True, True): N_("YAML syntax error: {problem} ({context} that starts at line {start}); "
                     "indent with spaces, not tabs"),
}


def read_yaml(text: str, limits: Limits):
    """The located document of a YAML text (one document)."""
    _refuse_unprintable(text)
    loader = _Loader(text)
    try:
        return _compose(loader, limits)
    except yaml.YAMLError as exc:
        raise _syntax_error(exc, text, limits) from None
    finally:
        loader.dispose()


def _compose(loader, limits: Limits):
    max_nesting = limits.max_nesting
    stack: list = []          # open collections
    keys: list = []           # for each open collection: pending key (Map) or None
    root = None
    documents = 0
    nodes = 1                 # the root, then every item of a children list
    resolved: dict = {}
    get_event = loader.get_event
    while True:
        event = get_event()
        cls = type(event)
        mark = event.start_mark
        line, col = mark.line + 1, mark.column + 1
        if cls is ScalarEvent:
            if event.anchor is not None:
                _refuse_anchor(event.anchor, line, col)
            tag = event.tag
            text = event.value
            if tag is None:
                if event.implicit[0]:
                    # Numbers repeat a lot in big trees: resolve each text once.
                    value = resolved.get(text, resolved)
                    if value is resolved:
                        value = resolve_plain(text)
                        if len(resolved) < 4096:
                            resolved[text] = value
                else:
                    value = text
            elif tag in _SCALAR_TAGS:
                value = _tagged(event.value, tag, line, col)
            elif tag == "!":
                value = event.value
            else:
                _refuse_tag(tag, line, col)
            node = Scalar(value, text, line, col)
        elif cls is MappingStartEvent or cls is SequenceStartEvent:
            if event.anchor is not None:
                _refuse_anchor(event.anchor, line, col)
            is_map = cls is MappingStartEvent
            if event.tag not in (None, "!", _TAG + ("map" if is_map else "seq")):
                _refuse_tag(event.tag, line, col)
            if len(stack) >= max_nesting:
                raise file_error("the file nests lists and mappings more than {most} deep; a "
                                 "tree may be at most {depth} levels deep", line, col,
                                 cls=TreeTooLarge, most=max_nesting, depth=limits.max_depth)
            if is_map:
                stack.append(Map(line, col))
            else:
                key = keys[-1] if keys else None
                stack.append(Seq(line, col, key is not None and key.text == "children"))
            keys.append(None)
            continue
        elif cls is MappingEndEvent or cls is SequenceEndEvent:
            node = stack.pop()
            keys.pop()
        elif cls is AliasEvent:
            raise file_error("YAML aliases (*{name}) are not allowed: write the subtree out in "
                             "full", line, col, name=event.anchor)
        elif cls is DocumentStartEvent:
            documents += 1
            if documents > 1:
                raise file_error("a tree file holds one YAML document, but a second one "
                                 "starts here ('---')", line, col)
            continue
        elif cls is StreamEndEvent:
            return root
        else:
            continue
        # Attach the finished node to the collection that holds it.
        if not stack:
            root = node
            continue
        parent = stack[-1]
        if type(parent) is Seq:
            nodes = append_item(parent, node, nodes, limits)
        elif keys[-1] is None:
            if type(node) is not Scalar:
                raise file_error("a key must be a plain word, not {kind}", node.line, node.col,
                                 kind=kind(node))
            key = node.text
            if key in parent.items:
                first = parent.items[key][0]
                raise file_error("duplicate key '{key}' (first given at line {first})",
                                 node.line, node.col, key=shorten(key), first=first)
            if len(parent.items) >= MAX_MAP_KEYS:
                raise map_too_big(parent.line, parent.col)
            keys[-1] = node
        else:
            key_node = keys[-1]
            parent.items[key_node.text] = (key_node.line, key_node.col, node)
            keys[-1] = None


def _refuse_anchor(anchor: str, line: int, col: int):
    raise file_error("YAML anchors (&{name}) are not allowed: write the subtree out in full",
                     line, col, name=anchor)


def _refuse_tag(tag: str, line: int, col: int):
    shown = "!!" + tag[len(_TAG):] if tag.startswith(_TAG) else tag
    raise file_error("the YAML tag {tag} is not allowed (only the standard !!str, !!int, "
                     "!!float, !!bool, !!null, !!seq and !!map)", line, col,
                     tag=repr(shorten(shown)))
