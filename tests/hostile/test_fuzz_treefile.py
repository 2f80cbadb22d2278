"""Fuzzing the tree-file loader: a bad file is refused, never a crash.

Every input either loads as a Tree or raises TreeFileError with a message
and a line/column inside the text, quickly; every accepted tree searches to
``done`` with its default algorithm (or SearchError), and what the server
would store and serve back of it reloads as the same tree.

The committed run is short. Hunt for more with, e.g.::

    HOSTILE_EXAMPLES=3000 .venv/bin/python -m pytest tests/hostile/test_fuzz_treefile.py
"""
from __future__ import annotations

import json
import os

import pytest
from hypothesis import HealthCheck, example, given, settings, strategies as st

from app.search import ALGORITHMS, ORDERS, STYLES, SearchOptions
from app.treefile import TreeFileError, load_tree

from .corpus import (check_load, check_round_trip, check_search, mutated_lectures,
                     plausible_trees, random_json, random_notation, random_texts)

EXAMPLES = int(os.environ.get("HOSTILE_EXAMPLES", "300"))
fuzz = settings(max_examples=EXAMPLES, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def check(data, **kwargs):
    """The property of :mod:`corpus`, then search and round trip of an accepted tree."""
    tree = check_load(data, **kwargs)
    if tree is not None:
        check_search(tree)
        check_round_trip(tree)
    return tree


@pytest.mark.slow
@fuzz
@given(random_texts())
# Each example crashed the loader or placed its error outside the text once:
@example("\ud800")             # a lone surrogate: UnicodeEncodeError inside libyaml
@example("title: x\nroot: [\ud800]")
@example("0:\n0")              # the error mark lies past the end: IndexError
@example("{0")
@example("title: x\r\rroot: [")   # '\r' breaks lines for YAML, not for split("\n")
@example("a: b\u2028c: [\t")
@example("\u0800\x1f")         # libyaml places a bad character by UTF-8 byte offset
@example("é\né\x07")
@example(b"\xe1\x80\x80\x80")  # the UTF-8 error's column counted bytes
@example(b"\xef\xbb\xbf\xe1\x80\x80\x80")  # ... and from after the byte-order mark
@example(b"\xef\xbb\xbf" * 3 + b"title: x\nroot: 1")
def test_random_text(data):
    check(data)


@fuzz
@given(mutated_lectures())
def test_mutated_lecture_files(text):
    check(text)


@fuzz
@given(mutated_lectures())
def test_mutated_lecture_files_as_bytes(text):
    check(text.encode("utf-8", "surrogatepass"))


@pytest.mark.slow
@fuzz
@given(random_json())
def test_random_json(text):
    check(text)
    check(text, fmt="json")


@fuzz
@given(random_notation())
def test_random_notation(text):
    check(text)
    check(text, fmt="notation")


@fuzz
@given(st.sampled_from(["yaml", "json", "notation"]), random_texts() | mutated_lectures())
def test_any_text_in_any_format(fmt, data):
    check(data, fmt=fmt)


@pytest.mark.slow
@fuzz
@given(plausible_trees(), st.sampled_from(ALGORITHMS + (None,)), st.none() | st.integers(0, 5),
       st.sampled_from(ORDERS), st.booleans(), st.sampled_from(STYLES))
def test_accepted_trees_search_under_any_options(doc, algorithm, depth, order, strict, style):
    tree = check_load(json.dumps(doc))
    if tree is not None:
        check_search(tree, SearchOptions(algorithm=algorithm, depth=depth, order=order,
                                         seed=depth, strict=strict, style=style))


def test_encoding_errors_are_placed_by_character():
    cases = {b"ab\n\xc3\xa9\xc3\xa9\xff": (2, 3, "0xff"),
             b"\xef\xbb\xbf\xe1\x80\x80\x80": (1, 2, "0x80"),
             "title: x\nroot: {value: '\u00e9\x07'}": (2, 17, "U+0007"),
             "title: x\nroot: {value: é\ud800}": (2, 16, "U+D800")}
    for data, (line, column, named) in cases.items():
        with pytest.raises(TreeFileError) as info:
            load_tree(data)
        assert (info.value.line, info.value.column) == (line, column), data
        assert named in info.value.message


def test_yaml_errors_at_the_end_of_the_text_are_placed_on_its_last_line():
    for text in ("{0", "0:\n0", "title: x\r\nroot: [", "title: x\rroot: [1,"):
        with pytest.raises(TreeFileError) as info:
            load_tree(text, fmt="yaml")
        lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
        assert info.value.line == len(lines), text
        assert info.value.column == len(lines[-1]) + 1, text
