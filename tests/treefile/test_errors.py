"""Bad tree files: each mistake has its own message, at the right place."""
import json

import pytest

from app.treefile import TreeFileError, TreeTooLarge, load_tree

H = "title: T\nroot:\n"          # the root mapping's keys start on line 3
P3 = "title: T\nplayers: [A, B, C]\nroot:\n"

# (name, file, words the message must contain, line, column)
BAD_YAML = [
    ("yaml syntax", "title: T\nroot: {value: 1\n", "opened on line 2 is not closed", 2, 16),
    ("tab indentation", "title: T\nroot:\n\tvalue: 1\n", "not tabs", 3, 1),
    ("top-level list", "- 1\n- 2\n", "must be a mapping", 1, 1),
    ("top-level text", "just words\n", "must be a mapping", 1, 1),
    ("missing title", "root: {value: 3}\n", "missing 'title'", 1, 1),
    ("empty title", "title: ''\nroot: {value: 3}\n", "'title' is empty", 1, 8),
    ("missing root", "title: T\n", "missing 'root'", 1, 1),
    ("empty root", "title: T\nroot:\n", "'root' is empty", 2, 6),
    ("unknown top key", "title: T\nroot: {value: 3}\nauthor: me\n", "unknown key 'author'", 3, 1),
    ("misspelt top key", "titel: T\nroot: {value: 3}\n", "did you mean 'title'?", 1, 1),
    ("children at top", "title: T\nchildren: [1]\n", "under 'root:'", 2, 1),
    ("unknown node key", H + "  children:\n    - {vaule: 3}\n", "did you mean 'value'?", 4, 8),
    ("unknown deep key", H + "  children:\n    - children:\n        - colour: red\n",
     "unknown key 'colour'", 5, 11),
    ("duplicate key", H + "  children: [1]\n  children: [2]\n",
     "duplicate key 'children' (first given at line 3)", 4, 3),
    ("duplicate id", H + "  id: A\n  children:\n    - {id: B, value: 1}\n    - {id: B, value: 2}\n",
     "duplicate id 'B' (first used at line 5)", 6, 12),
    ("value and children", H + "  value: 3\n  children: [1]\n", "not both", 4, 3),
    ("leaf without value", H + "  children:\n    - id: x\n", "a leaf needs a 'value'", 4, 7),
    ("empty children", H + "  children: []\n", "children is empty", 3, 13),
    ("children not a list", H + "  children: {a: 1}\n", "children must be a list", 3, 13),
    ("probability missing", H + "  type: chance\n  children:\n    - {probability: 1, value: 1}\n"
     "    - {value: 2}\n", "needs a 'probability'", 6, 7),
    ("bare child of chance", H + "  type: chance\n  children: [1]\n", "needs a 'probability'",
     4, 14),
    ("negative probability",
     H + "  type: chance\n  children:\n    - {probability: -0.5, value: 1}\n",
     "probability -0.5 is negative", 5, 21),
    ("probability over 1", H + "  type: chance\n  children:\n    - {probability: 1.5, value: 1}\n",
     "probability 1.5 is more than 1", 5, 21),
    ("probabilities off", H + "  type: chance\n  children:\n    - {probability: 0.5, value: 1}\n"
     "    - {probability: 0.4, value: 2}\n", "sum to 0.9, not 1", 4, 3),
    ("probability not a number", H + "  type: chance\n  children:\n"
     "    - {probability: half, value: 1}\n", "probability must be a number", 5, 21),
    ("probability off chance", H + "  children:\n    - {probability: 0.5, value: 1}\n",
     "belongs only to the children of a chance node", 4, 8),
    ("bad type", H + "  type: max\n  children: [1]\n", "type must be 'chance'", 3, 9),
    ("chance without children", H + "  type: chance\n", "a chance node needs 'children'", 3, 3),
    ("chance with player", H + "  type: chance\n  player: MAX\n  children:\n"
     "    - {probability: 1, value: 1}\n", "no player to move", 4, 11),
    ("vector length", P3 + "  children:\n    - [1, 2]\n",
     "has 2 numbers, but the tree has 3 players", 5, 7),
    ("value vector length", P3 + "  value: [1, 2, 3, 4]\n", "value has 4 numbers", 4, 10),
    ("scalar in 3-player tree", P3 + "  children: [3]\n", "one number per player", 4, 14),
    ("numbers and lists mixed", H + "  children:\n    - [1, 2]\n    - 3\n", "lists throughout",
     5, 7),
    ("unknown player", H + "  player: MXA\n  children: [1]\n",
     "unknown player 'MXA' (did you mean 'MAX'?)", 3, 11),
    ("NaN", H + "  value: .nan\n", "finite number", 3, 10),
    ("infinity", H + "  children: [1, -.inf]\n", "finite number", 3, 17),
    ("float overflow", H + "  value: 1e400\n", "out of range", 3, 10),
    ("huge int", H + "  value: 1000000000000001\n", "out of range", 3, 10),
    ("5000-digit int", H + "  value: " + "7" * 5000 + "\n", "out of range", 3, 10),
    ("yes is not a number", H + "  value: yes\n", "not the boolean 'yes'", 3, 10),
    ("true is not a number", H + "  children: [1, true]\n", "not the boolean 'true'", 3, 17),
    ("quoted number", H + "  value: '3'\n", "not the text '3'", 3, 10),
    ("eval on a leaf", H + "  value: 1\n  eval: 2\n", "'eval' belongs to inner nodes", 4, 3),
    ("eval is text", H + "  eval: high\n  children: [1]\n", "eval must be a number", 3, 9),
    ("title too long", "title: " + "x" * 201 + "\nroot: {value: 1}\n", "at most 200", 1, 8),
    ("id too long", H + "  id: " + "x" * 65 + "\n  value: 1\n", "at most 64", 3, 7),
    ("label too long", H + "  label: " + "x" * 201 + "\n  value: 1\n", "at most 200", 3, 10),
    ("description too long", "title: T\ndescription: " + "x" * 20001 + "\nroot: {value: 1}\n",
     "at most 20000", 2, 14),
    ("id is a float", H + "  id: 1.5\n  value: 1\n", "an id must be text or a whole number", 3, 7),
    ("id is a list", H + "  id: [a]\n  value: 1\n", "an id must be text or a whole number", 3, 7),
    ("id is a boolean", H + "  id: no\n  value: 1\n", "an id must be text or a whole number", 3, 7),
    ("id with a quote", H + "  id: 'a\"b'\n  value: 1\n", "ids may not contain", 3, 7),
    ("multi-line title", 'title: "a\\nb"\nroot: {value: 1}\n', "single line", 1, 8),
    ("title is a boolean", "title: yes\nroot: {value: 1}\n", "put it in quotes", 1, 8),
    ("anchor", H + "  children:\n    - &x {value: 1}\n    - 2\n", "anchors (&x) are not allowed",
     4, 7),
    ("alias", H + "  children:\n    - 1\n    - *x\n", "aliases (*x) are not allowed", 5, 7),
    ("python tag", H + "  value: !!python/object/apply:os.system [ls]\n",
     "tag '!!python/object/apply:os.system'", 3, 10),
    ("local tag", H + "  value: !dice 3\n", "tag '!dice'", 3, 10),
    ("binary tag", H + "  value: !!binary aGk=\n", "tag '!!binary'", 3, 10),
    ("two documents", "title: T\nroot: {value: 1}\n---\ntitle: U\n", "second one", 3, 1),
    ("complex key", H + "  ? [a]\n  : 1\n", "a key must be a plain word", 3, 5),
    ("control character", "title: T\x07\nroot: {value: 1}\n", "U+0007", 1, 9),
    ("players duplicated", "title: T\nplayers: [A, A]\nroot: {value: 1}\n", "listed twice", 2, 14),
    ("one player", "title: T\nplayers: [A]\nroot: {value: 1}\n", "2 to 26 players", 2, 10),
    ("empty player name", "title: T\nplayers: [A, '']\nroot: {value: 1}\n", "must not be empty",
     2, 14),
    ("players not a list", "title: T\nplayers: MAX\nroot: {value: 1}\n", "list of names", 2, 10),
    ("CHANCE player", "title: T\nplayers: [MAX, CHANCE]\nroot: {value: 1}\n", "reserved", 2, 16),
    ("unknown algorithm", "title: T\nalgorithm: alphabet\nroot: {value: 1}\n",
     "did you mean 'alphabeta'?", 2, 12),
    ("two-player algorithm",
     "title: T\nalgorithm: minimax\nplayers: [A, B, C]\nroot: {value: [1, 2, 3]}\n",
     "for two players", 2, 12),
    ("too many keys", H + "  {" + ", ".join(f"k{i}: 1" for i in range(40)) + "}\n",
     "more than 32 keys", 3, 3),
    ("long non-children list", H + "  value: [" + ", ".join("1" * 30) + "]\n",
     "at most 26 items", 3, 10),
]


@pytest.mark.parametrize("name, text, words, line, column", BAD_YAML,
                         ids=[case[0] for case in BAD_YAML])
def test_bad_yaml(name, text, words, line, column):
    with pytest.raises(TreeFileError) as caught:
        load_tree(text)
    err = caught.value
    assert words in err.message
    assert (err.line, err.column) == (line, column), str(err)


def test_every_bad_yaml_case_has_its_own_message():
    messages = {}
    for name, text, *_ in BAD_YAML:
        with pytest.raises(TreeFileError) as caught:
            load_tree(text)
        messages.setdefault(caught.value.message, name)
    # cases that differ only in the place (or the number quoted) may share wording
    assert len(messages) >= len(BAD_YAML) - 8


BAD_JSON = [
    ("json syntax", '{"title": "T",\n "root": {"value": 1}', "ends before the closing '}'", 2, 22),
    ("json duplicate key", '{"title": "T",\n "title": "U", "root": {"value": 1}}',
     "duplicate key 'title' (first given at line 1)", 2, 2),
    ("json nested duplicate", '{"title": "T", "root": {"value": 1,\n  "value": 2}}',
     "duplicate key 'value'", 2, 3),
    ("json trailing comma", '{"title": "T", "root": {"children": [1, 2,]}}', "trailing comma",
     1, 43),
    ("json single quotes", "{'title': 'T'}", "double quotes", 1, 2),
    ("json NaN", '{"title": "T", "root": {"value": NaN}}', "is not JSON", 1, 34),
    ("json leading zero", '{"title": "T", "root": {"value": 012}}', "not a valid JSON number",
     1, 34),
    ("json bad escape", '{"title": "a\\qb", "root": {"value": 1}}', "invalid \\escape", 1, 13),
    ("json true as number", '{"title": "T", "root": {"value": true}}', "not the boolean 'true'",
     1, 34),
    ("json extra text", '{"title": "T", "root": {"value": 1}} x', "after the end", 1, 38),
    ("json big number", '{"title": "T", "root": {"value": 1e400}}', "out of range", 1, 34),
    ("json top array", '[1, 2]', "must be a mapping", 1, 1),
    ("json unknown key", '{"title": "T",\n "root": {"vlaue": 1}}', "did you mean 'value'?", 2, 11),
]


@pytest.mark.parametrize("name, text, words, line, column", BAD_JSON,
                         ids=[case[0] for case in BAD_JSON])
def test_bad_json(name, text, words, line, column):
    with pytest.raises(TreeFileError) as caught:
        load_tree(text, fmt="json")
    err = caught.value
    assert words in err.message
    assert (err.line, err.column) == (line, column), str(err)


BAD_NOTATION = [
    ("unclosed paren", "((3 12 8) (2 4 6)", "'(' is never closed", 1, 1),
    ("unmatched paren", "(3 12))", "unmatched ')'", 1, 7),
    ("empty parens", "((3) ())", "empty parentheses", 1, 6),
    ("two trees", "(1 2) (3 4)", "after the end", 1, 7),
    ("dangling id", "(B 3)", "expected '(' or '='", 1, 2),
    ("id without value", "(b1= )", "comes a leaf value", 1, 2),
    ("bad character", "(3 ; 4)", "unexpected ';'", 1, 4),
    ("vector mismatch", "([1 2 3] [1 2])", "has 2 numbers", 1, 10),
    ("duplicate id in notation", "(x=1 x=2)", "duplicate id 'x'", 1, 6),
    ("notation big number", "(1 99999999999999999)", "out of range", 1, 4),
    ("empty notation", "# nothing here\n(", "never closed", 2, 1),
]


@pytest.mark.parametrize("name, text, words, line, column", BAD_NOTATION,
                         ids=[case[0] for case in BAD_NOTATION])
def test_bad_notation(name, text, words, line, column):
    with pytest.raises(TreeFileError) as caught:
        load_tree(text, fmt="notation")
    err = caught.value
    assert words in err.message
    assert (err.line, err.column) == (line, column), str(err)


def test_error_object_api():
    with pytest.raises(ValueError) as caught:          # a ValueError for generic handlers
        load_tree("title: T\nroot:\n  children:\n    - {vaule: 3}\n")
    err = caught.value
    assert isinstance(err, TreeFileError) and not isinstance(err, TreeTooLarge)
    assert str(err) == "line 4, column 8: unknown key 'vaule' (did you mean 'value'?)"
    assert err.to_dict() == {"message": "unknown key 'vaule' (did you mean 'value'?)",
                             "line": 4, "column": 8}
    json.dumps(err.to_dict())
    empty = TreeFileError("the file is empty")
    assert str(empty) == "the file is empty" and empty.to_dict()["line"] is None


def test_invalid_utf8_bytes_report_their_place():
    with pytest.raises(TreeFileError) as caught:
        load_tree(b"title: T\nroot: {value: \xff}\n")
    assert "not UTF-8" in caught.value.message
    assert (caught.value.line, caught.value.column) == (2, 15)


@pytest.mark.parametrize("text", ["", "   \n", "# only a comment\n"])
def test_empty_files(text):
    with pytest.raises(TreeFileError, match="empty"):
        load_tree(text)


def test_unknown_format():
    with pytest.raises(TreeFileError, match="unknown tree format"):
        load_tree("title: T", fmt="toml")
