"""Reading JSON into the located document, without recursion.

``json.loads`` recurses per nesting level, keeps no positions and lets the
last of two equal keys win silently. This small iterative parser reads
strict JSON (RFC 8259) with an explicit stack, records the line and column
of every value, refuses duplicate keys, counts nesting as it opens and tree
nodes as it goes. Strings are decoded by the standard library's (C)
``scanstring``.
"""
from __future__ import annotations

import json
import re
from json.decoder import scanstring

from .doc import (append_item, MAX_MAP_KEYS, Map, Positions, Scalar, Seq, map_too_big, to_int)
from .errors import N_, TreeFileError, TreeTooLarge, file_error, shorten
from .limits import Limits

_SPACE = re.compile(r"[ \t\n\r]*")
_VALUE = re.compile(r"""[ \t\n\r]*(?:
      (?P<open>[\[{])
    | (?P<str>")
    | (?P<num>-?(?:0|[1-9][0-9]*)(?P<frac>\.[0-9]+)?(?P<exp>[eE][-+]?[0-9]+)?)(?![0-9A-Za-z.])
    | (?P<lit>true|false|null)(?![0-9A-Za-z_])
)""", re.VERBOSE)
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|-?[0-9][0-9A-Za-z.+-]*|.", re.S)
_LITERALS = {"true": True, "false": False, "null": None}
# The standard library's complaints about a string (``scanstring``), as
# catalogue messages.
_STRING_ERRORS = {
    "Unterminated string starting at":
        N_("JSON syntax error: a string is not closed (a double quote is missing)"),
    "Invalid control character at":
        N_("JSON syntax error: a string holds a line break or a control character "
           "(write \\n)"),
    "Invalid \\escape":
        N_("JSON syntax error: invalid \\escape in a string (after a backslash come only "
           "\" \\ / b f n r t or u)"),
    "Invalid \\uXXXX escape":
        N_("JSON syntax error: invalid \\uXXXX escape in a string (\\u takes four "
           "hexadecimal digits)"),
}
_STRING_ERROR = N_("JSON syntax error: a string that cannot be read")


def read_json(text: str, limits: Limits):
    """The located document of a JSON text (``None`` if it is blank)."""
    if not text.strip(" \t\n\r"):
        return None
    return _Parser(text, limits).parse()


class _Parser:
    def __init__(self, text: str, limits: Limits):
        self.text = text
        self.limits = limits
        self.line, self.line_start, self.seen = 1, 0, 0

    def at(self, pos: int) -> tuple[int, int]:
        """(line, column) of ``pos``; positions only move forward, so count
        the line breaks since the last call."""
        if pos > self.seen:
            breaks = self.text.count("\n", self.seen, pos)
            if breaks:
                self.line += breaks
                self.line_start = self.text.rfind("\n", self.seen, pos) + 1
            self.seen = pos
        elif pos < self.seen:           # only for errors: look it up from scratch
            return Positions(self.text)(pos)
        return self.line, pos - self.line_start + 1

    def json_error(self, msgid: str, pos: int, **fields) -> TreeFileError:
        return file_error(msgid, *self.at(pos), **fields)

    def parse(self):
        text, at, limits = self.text, self.at, self.limits
        value_at, space = _VALUE.match, _SPACE.match
        max_nesting = limits.max_nesting
        stack: list = []     # open containers
        keys: list = []      # pending key (text, line, col) of each open Map
        nodes = 1
        pos = 0
        while True:
            # -- a value starts at pos (after optional spaces) ------------
            match = value_at(text, pos)
            if match is None:
                start = space(text, pos).end()
                msgid, fields = self._unexpected(text, start)
                raise self.json_error(msgid, start, **fields)
            group = match.lastgroup
            start = match.start(group)
            line, col = at(start)
            pos = match.end()
            if group == "open":
                if len(stack) >= max_nesting:
                    raise file_error("the file nests lists and objects more than {most} deep; "
                                     "a tree may be at most {depth} levels deep", line, col,
                                     cls=TreeTooLarge, most=max_nesting, depth=limits.max_depth)
                closer = "]" if text[start] == "[" else "}"
                pos = space(text, pos).end()
                if text[start] == "[":
                    stack.append(Seq(line, col, bool(keys) and keys[-1] is not None
                                     and keys[-1][0] == "children"))
                else:
                    stack.append(Map(line, col))
                keys.append(None)
                if not text.startswith(closer, pos):
                    if closer == "}":
                        pos = self._key(stack[-1], keys, pos)
                    continue
                pos += 1
                node = stack.pop()
                keys.pop()
            elif group == "num":
                token = match.group("num")
                if match.group("frac") or match.group("exp"):
                    value = float(token)
                else:
                    value = to_int(token)
                node = Scalar(value, token, line, col)
            elif group == "str":
                value, pos = self._string(start)
                node = Scalar(value, value, line, col)
            else:
                token = match.group("lit")
                node = Scalar(_LITERALS[token], token, line, col)
            # -- a value ended: attach it, then expect ',' or a closer -----
            while True:
                if not stack:
                    end = space(text, pos).end()
                    if end != len(text):
                        raise self.json_error("JSON syntax error: unexpected text after the end of "
                                        "the JSON value", end)
                    return node
                parent = stack[-1]
                if type(parent) is Seq:
                    nodes = append_item(parent, node, nodes, limits)
                    closer = "]"
                else:
                    key, kline, kcol = keys[-1]
                    parent.items[key] = (kline, kcol, node)
                    keys[-1] = None
                    closer = "}"
                pos = space(text, pos).end()
                char = text[pos:pos + 1]
                if char == closer:
                    pos += 1
                    node = stack.pop()
                    keys.pop()
                    continue
                if char != ",":
                    if not char:
                        raise self.json_error("JSON syntax error: the text ends before the closing "
                                        "{closer}", pos, closer=repr(closer))
                    raise self.json_error("JSON syntax error: expected ',' or {closer}, found {found}",
                                    pos, closer=repr(closer), found=repr(char))
                pos = space(text, pos + 1).end()
                if text.startswith(closer, pos):
                    raise self.json_error("JSON syntax error: trailing comma before {closer}", pos,
                                    closer=repr(closer))
                if closer == "}":
                    pos = self._key(parent, keys, pos)
                break

    def _string(self, pos: int) -> tuple[str, int]:
        try:
            return scanstring(self.text, pos + 1, True)
        except json.JSONDecodeError as exc:
            raise self.json_error(_STRING_ERRORS.get(exc.msg, _STRING_ERROR), exc.pos) from None

    def _key(self, parent: Map, keys: list, pos: int) -> int:
        """Read ``"key":`` at pos; return where its value starts."""
        text = self.text
        if not text.startswith('"', pos):
            if pos >= len(text):
                raise self.json_error("JSON syntax error: the text ends inside an object", pos)
            found = _WORD.match(text, pos).group()
            if found[0].isalpha() or found == "'":
                raise self.json_error("JSON syntax error: expected a key in double quotes, found "
                                "{found} (JSON keys need double quotes)", pos,
                                found=repr(shorten(found)))
            raise self.json_error("JSON syntax error: expected a key in double quotes, found {found}",
                            pos, found=repr(shorten(found)))
        line, col = self.at(pos)
        key, pos = self._string(pos)
        if key in parent.items:
            if "'" in key:
                raise file_error("duplicate key {key} (first given at line {first})", line, col,
                                 key=repr(shorten(key)), first=parent.items[key][0])
            raise file_error("duplicate key '{key}' (first given at line {first})", line, col,
                             key=shorten(key), first=parent.items[key][0])
        if len(parent.items) >= MAX_MAP_KEYS:
            raise map_too_big(parent.line, parent.col)
        pos = _SPACE.match(text, pos).end()
        if not text.startswith(":", pos):
            raise self.json_error("JSON syntax error: expected ':' after the key {key}", pos,
                            key=repr(shorten(key)))
        keys[-1] = (key, line, col)
        return pos + 1

    @staticmethod
    def _unexpected(text: str, pos: int) -> tuple:
        """(msgid, fields) of what stands where a value should."""
        if pos >= len(text):
            return N_("JSON syntax error: the text ends where a value should be"), {}
        word = _WORD.match(text, pos).group()
        if word in ("]", "}"):
            return N_("JSON syntax error: unexpected {word}: a value is missing"), {"word": repr(word)}
        if word == "'":
            return N_("JSON syntax error: JSON strings need double quotes, not single quotes"), {}
        if word in ("True", "False", "None", "NaN", "Infinity"):
            return (N_("JSON syntax error: {word} is not JSON (use true, false, null or a "
                       "finite number)"), {"word": repr(word)})
        if word[0] in "-0123456789":
            return (N_("JSON syntax error: {word} is not a valid JSON number"),
                    {"word": repr(shorten(word))})
        return (N_("JSON syntax error: unexpected {word} where a value should be"),
                {"word": repr(shorten(word))})
