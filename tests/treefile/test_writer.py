"""Writing trees: the dict form, YAML and JSON, and load(dump(t)) == t."""
import json
import math

import pytest
import yaml
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from app.search.tree import Node, Tree
from app.treefile import Limits, dump_json, dump_yaml, load_tree, tree_to_dict

from .test_load import CONTRACT_EXAMPLE, shape


def test_contract_example_dict_is_compact():
    data = tree_to_dict(load_tree(CONTRACT_EXAMPLE))
    assert data == {
        "title": "AIMA Figure 5.2, a two-ply game",
        "source": "Russell & Norvig, AIMA 3rd ed., Fig. 5.2",
        "description": "optional free text (Markdown)",
        "algorithm": "alphabeta",
        "root": {
            "id": "A", "label": "optional display text (defaults to id)", "eval": 4,
            "children": [
                {"id": "B", "children": [3, 12, 8]},      # b1 b2 b3 are the auto ids
                {"id": "C", "children": [2, 4, 6]},
                {"id": "D", "type": "chance", "children": [
                    {"id": "d1", "probability": 0.5, "value": 14},
                    {"id": "d2", "probability": 0.5, "value": 2}]}]}}


def test_yaml_output_is_readable():
    text = dump_yaml(load_tree(CONTRACT_EXAMPLE))
    assert text.splitlines()[:2] == ["title: AIMA Figure 5.2, a two-ply game",
                                     "source: Russell & Norvig, AIMA 3rd ed., Fig. 5.2"]
    assert "  children:\n    - id: B\n      children: [3, 12, 8]\n" in text
    assert "        - {id: d1, probability: 0.5, value: 14}\n" in text


def test_dumps_reload_to_the_same_tree():
    tree = load_tree(CONTRACT_EXAMPLE)
    assert shape(load_tree(dump_yaml(tree))) == shape(tree)
    assert shape(load_tree(dump_json(tree))) == shape(tree)
    assert json.loads(dump_json(tree)) == tree_to_dict(tree)


def test_non_default_players_labels_and_moved_players_are_written():
    tree = load_tree("title: t\nplayers: [Ann, Bob, Cy]\nroot:\n  player: Bob\n  label: start\n"
                     "  children: [[1, 2, 3], {id: x, label: 'yes', value: [4, 5, 6]}]\n")
    data = tree_to_dict(tree)
    assert data["players"] == ["Ann", "Bob", "Cy"]
    assert data["root"]["player"] == "Bob" and data["root"]["label"] == "start"
    assert data["root"]["children"] == [[1, 2, 3], {"id": "x", "label": "yes", "value": [4, 5, 6]}]
    assert "label: \"yes\"" in dump_yaml(tree)       # else YAML would read a boolean
    assert shape(load_tree(dump_yaml(tree))) == shape(tree)


def test_trees_built_in_code_round_trip():
    """Trees from games or generators carry ids the loader would not make."""
    leaf = lambda i, v, d: Node(id=i, label=i, player=d % 2, depth=d, value=v)
    root = Node(id="start", label="Nim 3", player=0, depth=0, children=(
        Node(id="take 1", label="take 1", player=1, depth=1, eval=0.25,
             children=(leaf("s/1/1", 1, 2), leaf("s.1.2", -1.0, 2))),
        leaf("start.2", 1e-7, 1)))
    tree = Tree(root=root, title="Nim", description="line one\n\n  indented\nlast\n")
    again = load_tree(dump_yaml(tree))
    assert shape(again) == shape(tree)
    assert shape(load_tree(dump_json(tree))) == shape(tree)
    assert tree_to_dict(tree)["root"]["children"][1] == 1e-7     # auto id: a bare leaf


def test_deep_trees_dump_without_recursion():
    depth = 1500
    node = Node(id=f"n{depth}", label=f"n{depth}", player=depth % 2, depth=depth, value=1)
    for d in range(depth - 1, -1, -1):
        node = Node(id=f"n{d}", label=f"n{d}", player=d % 2, depth=d, children=(node,))
    tree = Tree(root=node, title="deep")
    limits = Limits(max_depth=depth, max_bytes=64 * 1024 * 1024)
    again = load_tree(dump_json(tree), limits=limits)
    assert again.height == depth and again.node(f"n{depth}").value == 1
    assert dump_yaml(tree).count("children:") == depth


def test_floats_are_written_so_yaml_11_reads_them_as_numbers():
    tree = load_tree("title: t\nroot:\n  children: [1e-7, 2.5e+14, 3.0, -0.0]\n")
    text = dump_yaml(tree)
    assert yaml.safe_load(text) == tree_to_dict(tree)
    values = [leaf.value for leaf in load_tree(text).leaves]
    assert [repr(v) for v in values] == ["1e-07", "250000000000000.0", "3.0", "-0.0"]


# -- property: random files survive dump and reload ------------------------
TEXT = st.characters(blacklist_categories=("Cs", "Cc"))
PUNCTUATION = st.text(st.sampled_from("ab :#-,[]{}'\"!?%@*&|>=~\\"), min_size=1, max_size=12)
LINE = st.text(TEXT, max_size=30) | PUNCTUATION
TITLE = (st.text(TEXT, min_size=1, max_size=40) | PUNCTUATION).filter(lambda s: s.strip())
DESCRIPTION = (
    st.text(st.one_of(TEXT, st.sampled_from("\n\n\t  #:-|>\"\\\\")), max_size=80)
    | st.lists(st.text(st.sampled_from("ab #:-\t\"\\\\"), max_size=6), min_size=2, max_size=5)
    .map("\n".join))
IDS = st.one_of(
    st.from_regex(r"[A-Za-z_][A-Za-z0-9_.'-]{0,8}", fullmatch=True),
    st.sampled_from(["yes", "No", "null", "true", "1e5", "0x1F", "12", "B", "b1", "a1.2",
                     "n3", "A", "c2_2", "~", "- x", "#1", "a: b", "[x]", "Zug ∀"]))
NUMBER = st.one_of(st.integers(-10**15, 10**15),
                   st.floats(-1e15, 1e15, allow_nan=False, allow_infinity=False))


@st.composite
def tree_files(draw):
    nplayers = draw(st.sampled_from([2, 2, 2, 3, 4]))
    data = {"title": draw(TITLE)}
    if draw(st.booleans()):
        data["source"] = draw(LINE)
    if draw(st.booleans()):
        data["description"] = draw(DESCRIPTION)
    players = ["MAX", "MIN"]
    if nplayers > 2 or draw(st.booleans()):
        players = draw(st.lists(st.from_regex(r"[A-Za-z][A-Za-z0-9 ]{0,6}", fullmatch=True)
                                .filter(lambda s: s.strip() == s and s != "CHANCE"),
                                min_size=nplayers, max_size=nplayers, unique=True))
        data["players"] = players
    vectors = nplayers > 2 or draw(st.booleans())
    used_ids = set()

    def value():
        if vectors:
            return draw(st.lists(NUMBER, min_size=nplayers, max_size=nplayers))
        return draw(NUMBER)

    def node(depth, probability=None):
        item = {}
        if draw(st.booleans()):
            new_id = draw(IDS)
            if new_id not in used_ids:
                used_ids.add(new_id)
                item["id"] = new_id
        if draw(st.integers(0, 4)) == 0:
            item["label"] = draw(LINE)
        if probability is not None:
            item["probability"] = probability
        leaf = depth >= 3 or draw(st.integers(0, 2)) == 0
        if leaf:
            item["value"] = value()
            if len(item) == 1 and draw(st.booleans()):
                return item["value"]                  # a bare leaf
            return item
        chance = not vectors and draw(st.integers(0, 3)) == 0
        if chance:
            item["type"] = "chance"
        elif draw(st.integers(0, 3)) == 0:
            item["player"] = draw(st.sampled_from(players))
        if draw(st.booleans()):
            item["eval"] = value()
        count = draw(st.integers(1, 4))
        if chance:
            weights = [draw(st.integers(1, 9)) for _ in range(count)]
            item["children"] = [node(depth + 1, w / sum(weights)) for w in weights]
        else:
            item["children"] = [node(depth + 1) for _ in range(count)]
        return item

    data["root"] = node(0)
    if isinstance(data["root"], (int, float, list)):
        data["root"] = {"value": data["root"]}
    return data


@pytest.mark.slow
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tree_files())
@example({"title": "0", "root": {"label": "A?", "value": 0}})  # '?' in a flow mapping
def test_random_trees_survive_dump_and_reload(data):
    tree = load_tree(json.dumps(data), fmt="json")
    as_yaml = dump_yaml(tree)
    as_json = dump_json(tree)
    assert shape(load_tree(as_yaml)) == shape(tree), as_yaml
    assert shape(load_tree(as_json)) == shape(tree), as_json
    assert json.loads(as_json) == tree_to_dict(tree)
    assert yaml.safe_load(as_yaml) == tree_to_dict(tree), as_yaml
    # and the file form is stable: dumping the reloaded tree gives the same text
    assert dump_yaml(load_tree(as_yaml)) == as_yaml


@settings(max_examples=60, deadline=None)
@given(tree_files())
def test_random_trees_keep_probabilities_summing_to_one(data):
    tree = load_tree(json.dumps(data))
    for node in tree.nodes:
        if node.chance:
            assert math.isclose(math.fsum(c.probability for c in node.children), 1,
                                abs_tol=1e-9)


TRICKY = ["a: b", "a:b", "a #b", "a#b", "yes", "No", "null", "x:", "- x", "[x]", "x [y]",
          "{x}", "x, y", "'q'", 'say "hi"', "a\\b", "a | b", "@home", "%x", "!x", "x!",
          "1st", "~", "Zug ∀", " lead", "trail ", "tab\there", "é", "a\u2028b", "\ufeffx"]


def test_tricky_text_is_quoted_only_when_needed():
    for text in TRICKY:
        tree = Tree(root=Node(id="A", label=text, player=0, depth=0, value=1), title=text,
                    source=text)
        dumped = dump_yaml(tree)
        assert yaml.safe_load(dumped)["title"] == text, dumped
        again = load_tree(dumped)
        assert (again.title, again.source, again.root.label) == (text, text, text)
    plain = {t for t in TRICKY
             if f"title: {t}\n" in dump_yaml(Tree(root=Node(id="A", label="A", player=0,
                                                            depth=0, value=1), title=t))}
    assert plain == {"a:b", "a#b", "x [y]", "x, y", 'say "hi"', "a\\b", "a | b", "x!", "é"}


def test_a_leaf_eval_from_code_is_dropped_so_the_file_loads():
    leaf = Node(id="a1", label="a1", player=1, depth=1, value=3, eval=9)
    tree = Tree(root=Node(id="A", label="A", player=0, depth=0, eval=1, children=(leaf,)),
                title="t")
    assert tree_to_dict(tree)["root"] == {"id": "A", "eval": 1, "children": [3]}
    again = load_tree(dump_yaml(tree))
    assert again.node("a1").value == 3 and again.node("a1").eval is None
