"""Reading and writing tree files: YAML, JSON and the one-line notation.

>>> tree = load_tree('''
... title: AIMA Figure 5.2
... root:
...   children:
...     - children: [3, 12, 8]
...     - children: [2, 4, 6]
...     - children: [14, 5, 2]
... ''')
>>> [leaf.id for leaf in tree.leaves][:4], tree.root.children[0].id
(['b1', 'b2', 'b3', 'c1'], 'B')
>>> load_tree("title: x\\nroot: {vaule: 3}")
Traceback (most recent call last):
...
app.treefile.errors.TreeFileError: line 2, column 8: unknown key 'vaule' (did you mean 'value'?)

Everything a file can get wrong raises :class:`TreeFileError` (a
``ValueError``) with a message, line and column; :class:`TreeTooLarge` when
it is beyond the :class:`Limits`. The format is ``yaml``, ``json`` or
``notation``; by default it is guessed from the file name, then the text.
"""
from __future__ import annotations

import codecs
import gc
import os
import re

from app.search.tree import Tree

from .build import ALGORITHMS, NODE_KEYS, TOP_KEYS, build_tree, child_id
from .errors import TreeFileError, TreeTooLarge, file_error
from .json_reader import read_json
from .limits import Limits
from .notation import looks_like_notation, read_notation
from .writer import dump_json, dump_yaml, tree_to_dict
from .yaml_reader import read_yaml

__all__ = ["load_tree", "load_path", "decode_text", "sniff", "Limits", "TreeFileError",
           "TreeTooLarge", "tree_to_dict", "dump_yaml", "dump_json", "FORMATS", "ALGORITHMS",
           "TOP_KEYS", "NODE_KEYS", "child_id"]

_READERS = {"yaml": read_yaml, "json": read_json, "notation": read_notation}
FORMATS = tuple(_READERS)
_EXTENSIONS = {".yaml": "yaml", ".yml": "yaml", ".json": "json"}
_SURROGATE = re.compile("[\ud800-\udfff]")


def load_tree(text: str | bytes, *, filename: str | None = None, fmt: str | None = None,
              limits: Limits | None = None) -> Tree:
    """The tree a file describes, or a :class:`TreeFileError`."""
    limits = limits or Limits()
    text = decode_text(text, limits)
    fmt = fmt or sniff(text, filename)
    if fmt not in _READERS:
        raise file_error("unknown tree format {fmt} (one of {choices})", fmt=repr(fmt),
                         choices=", ".join(FORMATS))
    # Loading makes hundreds of thousands of small objects and no garbage
    # cycles that outlive it; the cyclic collector would only rescan them.
    collecting = gc.isenabled()
    gc.disable()
    try:
        return build_tree(_READERS[fmt](text, limits), limits)
    finally:
        if collecting:
            gc.enable()


def load_path(path: str | os.PathLike, *, fmt: str | None = None,
              limits: Limits | None = None) -> Tree:
    """The tree in the file at ``path`` (checked for size before it is read)."""
    limits = limits or Limits()
    try:
        size = os.path.getsize(path)
        if size > limits.max_bytes:
            raise _too_big(size, limits)
        with open(path, "rb") as handle:
            data = handle.read(limits.max_bytes + 1)
    except OSError as exc:
        # The system's own reason (in English) is quoted: it names what went wrong.
        raise file_error("cannot read the file: {reason}", reason=exc.strerror or str(exc)) \
            from None
    return load_tree(data, filename=os.fspath(path), fmt=fmt, limits=limits)


def sniff(text: str, filename: str | None = None) -> str:
    """The format of ``text``: by the file's extension, else by its first
    characters (``{`` or ``[`` for JSON, ``(`` or ``Id(`` for the notation).

    >>> sniff("((3 5) (2 9))"), sniff('{"title": "x"}'), sniff("title: x")
    ('notation', 'json', 'yaml')
    """
    if filename:
        fmt = _EXTENSIONS.get(os.path.splitext(str(filename))[1].lower())
        if fmt:
            return fmt
    start = text.lstrip()[:1]
    if start == "[" or start == "{" and text.lstrip()[1:].lstrip()[:1] in ('"', "}", ""):
        return "json"
    if looks_like_notation(text):
        return "notation"
    return "yaml"


def decode_text(data: str | bytes, limits: Limits | None = None) -> str:
    """The text of a file as every reader sees it (and the server keeps it):
    UTF-8, leading byte-order marks dropped, within the byte limit. Refuses
    what is not Unicode text, placed by line and *character* column."""
    limits = limits or Limits()
    if isinstance(data, str):
        size = len(data) if len(data) * 4 <= limits.max_bytes else \
            len(data.encode("utf-8", "surrogatepass"))
        if size > limits.max_bytes:
            raise _too_big(size, limits)
        # A str may hold lone surrogates (text decoded with "surrogateescape",
        # say): no reader can encode them, so they are refused like the
        # invalid UTF-8 they stand for.
        bad = _SURROGATE.search(data)
        if bad:
            offset = bad.start()
            line = data.count("\n", 0, offset) + 1
            col = offset - (data.rfind("\n", 0, offset) + 1) + 1
            raise file_error("the text holds a lone surrogate U+{code}, which is not a "
                             "character (is the file UTF-8?)", line, col,
                             code=f"{ord(bad.group()):04X}")
        return data.lstrip("\ufeff")
    if len(data) > limits.max_bytes:
        raise _too_big(len(data), limits)
    # Drop the marks before decoding: "utf-8-sig" would report error offsets
    # relative to the text after the mark.
    skip = 0
    while data.startswith(codecs.BOM_UTF8, skip):
        skip += len(codecs.BOM_UTF8)
    data = data[skip:] if skip else data
    try:
        return data.decode("utf-8").lstrip("\ufeff")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        # Columns count characters, as an editor shows them; the bytes before
        # the bad one are valid UTF-8.
        start = data.rfind(b"\n", 0, exc.start) + 1
        col = len(data[start:exc.start].decode("utf-8")) + 1
        raise file_error("the file is not UTF-8 text (byte 0x{byte})", line, col,
                         byte=f"{data[exc.start]:02x}") from None


def _too_big(size: int, limits: Limits) -> TreeTooLarge:
    return file_error("the file is too large: {size} bytes, at most {most}", cls=TreeTooLarge,
                      size=size, most=limits.max_bytes)
