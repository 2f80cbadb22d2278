"""Loading good tree files: the contract's example, ids, defaults, formats."""
import textwrap

import pytest

from app.treefile import load_path, load_tree, sniff
from app.treefile.notation import title as notation_title

CONTRACT_EXAMPLE = textwrap.dedent("""\
    title: AIMA Figure 5.2, a two-ply game     # required, short
    source: Russell & Norvig, AIMA 3rd ed., Fig. 5.2   # where the tree comes from
    description: optional free text (Markdown)
    algorithm: alphabeta          # optional suggested algorithm
    players: [MAX, MIN]           # optional; default [MAX, MIN]
    root:
      id: A                       # optional: ids are auto-made where absent
      label: optional display text (defaults to id)
      player: MAX                 # optional: default players[depth mod len(players)]
      eval: 4                     # optional heuristic value
      children:
        - id: B
          children:
            - {id: b1, value: 3}  # a leaf: `value` is a number (two players)
            - {id: b2, value: 12}
            - 8                   # a bare number is a leaf with an auto id
        - id: C
          children: [2, 4, 6]
        - id: D
          type: chance            # a chance node: every child carries `probability`
          children:
            - {id: d1, probability: 0.5, value: 14}
            - {id: d2, probability: 0.5, value: 2}
    """)

AIMA_LECTURE = textwrap.dedent("""\
    title: AIMA Figure 5.2
    root:
      id: A
      children:
        - id: B
          children: [3, 12, 8]
        - id: C
          children: [2, 4, 6]
        - id: D
          children: [14, 5, 2]
    """)


def shape(tree):
    """Everything a tree holds, node by node, with value types (so 3 != 3.0)."""
    return (tree.title, tree.source, tree.description, tree.algorithm, tuple(tree.players),
            [(n.id, n.label, n.player, n.depth, repr(n.value), repr(n.eval), n.chance,
              n.probability, [c.id for c in n.children]) for n in tree.nodes])


def test_contract_example_loads_with_every_field():
    tree = load_tree(CONTRACT_EXAMPLE)
    assert tree.title == "AIMA Figure 5.2, a two-ply game"
    assert tree.source == "Russell & Norvig, AIMA 3rd ed., Fig. 5.2"
    assert tree.algorithm == "alphabeta"
    assert tree.players == ("MAX", "MIN")
    root = tree.root
    assert (root.id, root.label, root.player, root.eval) == \
        ("A", "optional display text (defaults to id)", 0, 4)
    assert [n.id for n in tree.nodes] == \
        ["A", "B", "b1", "b2", "b3", "C", "c1", "c2", "c3", "D", "d1", "d2"]
    assert [tree.node(i).value for i in ("b1", "b2", "b3", "c1", "c2", "c3")] == \
        [3, 12, 8, 2, 4, 6]
    d = tree.node("D")
    assert d.chance and not tree.node("B").chance
    assert [(c.probability, c.value) for c in d.children] == [(0.5, 14), (0.5, 2)]
    assert tree.node("B").label == "B"          # label defaults to the id
    assert tree.node("B").player == 1 and tree.node("b1").player == 0


def test_node_lines_point_at_the_source():
    tree = load_tree(CONTRACT_EXAMPLE)
    assert tree.root.line == 7                  # the mapping starts at `id: A`
    assert tree.node("B").line == 12
    assert tree.node("b3").line == 16           # the bare 8
    assert [tree.node(i).line for i in ("c1", "c2", "c3")] == [18, 18, 18]


def test_aima_lecture_file_gives_the_contract_ids():
    tree = load_tree(AIMA_LECTURE)
    assert [leaf.id for leaf in tree.leaves] == \
        ["b1", "b2", "b3", "c1", "c2", "c3", "d1", "d2", "d3"]
    assert tree.height == 2 and len(tree.nodes) == 13


def test_anonymous_inner_nodes_are_lettered_breadth_first():
    tree = load_tree("title: t\nroot:\n  children:\n"
                     "    - children: [{children: [1, 2]}, 3]\n"
                     "    - children: [4, {children: [5]}]\n")
    assert [n.id for n in tree.nodes] == ["A", "B", "D", "d1", "d2", "b2", "C", "c1", "E", "e1"]


def test_auto_ids_avoid_given_ids():
    tree = load_tree("title: t\nroot:\n  id: A\n  children:\n"
                     "    - {id: B, children: [1, 2]}\n"
                     "    - {id: C, children: [{id: b2, value: 7}, 3]}\n")
    ids = [n.id for n in tree.nodes]
    assert ids == ["A", "B", "b1", "b2_2", "C", "b2", "c2"]
    assert len(set(ids)) == len(ids)


def test_long_parent_ids_use_dotted_paths():
    tree = load_tree("title: t\nroot:\n  id: root\n  children:\n"
                     "    - {id: left, children: [1, {children: [2, 3]}]}\n")
    # the one unnamed inner node takes a free letter; leaves follow their parent
    assert [n.id for n in tree.nodes] == ["root", "left", "left.1", "A", "a1", "a2"]


def test_many_anonymous_inner_nodes_fall_back_to_paths():
    inner = ", ".join("{children: [1, 2]}" for _ in range(30))
    tree = load_tree(f"title: t\nroot:\n  children: [{inner}]\n")
    assert tree.root.id == "A"
    assert [c.id for c in tree.root.children[:2]] == ["a1", "a2"]
    assert [c.id for c in tree.node("a30").children] == ["a30.1", "a30.2"]


def test_players_default_by_depth_and_override_by_name():
    tree = load_tree("title: t\nplayers: [A, B, C]\nroot:\n  children:\n"
                     "    - children: [[1, 2, 3]]\n"
                     "    - {player: A, children: [{value: [4, 5, 6], player: C}]}\n")
    players = {n.id: tree.players[n.player] for n in tree.nodes}
    assert players == {"A": "A", "B": "B", "b1": "C", "C": "A", "c1": "C"}
    assert tree.node("b1").value == (1, 2, 3) and tree.multiplayer


def test_two_player_vector_values_are_kept_as_tuples():
    tree = load_tree("title: t\nroot:\n  children: [[1, -1], [0, 0]]\n")
    assert [leaf.value for leaf in tree.leaves] == [(1, -1), (0, 0)]


def test_eval_number_and_vector():
    tree = load_tree("title: t\nroot:\n  eval: 2.5\n  children: [{eval: -1, children: [3]}]\n")
    assert tree.root.eval == 2.5 and tree.node("B").eval == -1
    tree = load_tree("title: t\nplayers: [A, B, C]\nroot:\n  eval: [1, 2, 3]\n"
                     "  children: [[1, 2, 3]]\n")
    assert tree.root.eval == (1, 2, 3)


def test_fraction_probabilities_for_dice():
    faces = "".join(f"    - {{probability: 1/6, value: {i}}}\n" for i in range(1, 7))
    tree = load_tree(f"title: die\nroot:\n  type: chance\n  children:\n{faces}")
    assert [c.probability for c in tree.root.children] == [pytest.approx(1 / 6)] * 6


def test_numbers_keep_their_type_and_yaml_12_forms():
    tree = load_tree("title: t\nroot:\n  children: [3, 2.5, 1e3, 0x10, 0o17, 010, -7, +4, .5]\n")
    values = [leaf.value for leaf in tree.leaves]
    assert [repr(v) for v in values] == \
        ["3", "2.5", "1000.0", "16", "15", "10", "-7", "4", "0.5"]


def test_text_fields_take_numbers_as_written():
    tree = load_tree("title: 2024\nroot:\n  id: 12\n  label: 3.50\n  children: [1]\n")
    assert tree.title == "2024" and tree.root.id == "12" and tree.root.label == "3.50"
    assert tree.root.children[0].id == "12.1"


def test_json_is_the_same_structure():
    yaml_tree = load_tree(CONTRACT_EXAMPLE)
    json_text = """{
      "title": "AIMA Figure 5.2, a two-ply game",
      "source": "Russell & Norvig, AIMA 3rd ed., Fig. 5.2",
      "description": "optional free text (Markdown)",
      "algorithm": "alphabeta",
      "players": ["MAX", "MIN"],
      "root": {"id": "A", "label": "optional display text (defaults to id)",
               "player": "MAX", "eval": 4, "children": [
        {"id": "B", "children": [{"id": "b1", "value": 3}, {"id": "b2", "value": 12}, 8]},
        {"id": "C", "children": [2, 4, 6]},
        {"id": "D", "type": "chance", "children": [
          {"id": "d1", "probability": 0.5, "value": 14},
          {"id": "d2", "probability": 0.5, "value": 2}]}]}}"""
    json_tree = load_tree(json_text)
    assert shape(json_tree) == shape(yaml_tree)
    assert json_tree.node("b3").line == 9


@pytest.mark.parametrize("text", [
    "((3 12 8) (2 4 6) (14 5 2))",
    "A(B(3 12 8) C(2 4 6) D(14 5 2))",
    "A(B(b1=3, b2=12, 8), C(2, 4, 6), D(14 5 2))",
    "# AIMA Figure 5.2\n(\n  (3 12 8)\n  (2 4 6)\n  (14 5 2)\n)\n",
])
def test_notation_matches_the_equivalent_yaml(text):
    typed = load_tree(text)
    yaml_tree = load_tree(AIMA_LECTURE)
    assert typed.title == notation_title(text)   # "Typed tree ((3 12 8) (2 4 6) …"
    assert typed.title.startswith("Typed tree ") and "12" in typed.title
    assert shape(typed)[4:] == shape(yaml_tree)[4:]


def test_notation_multiplayer_and_floats():
    tree = load_tree("([1 2 6] ([6, 1, 2] [-1.5 .5 7]))")
    assert tree.players == ("A", "B", "C")
    assert [leaf.value for leaf in tree.leaves] == [(1, 2, 6), (6, 1, 2), (-1.5, 0.5, 7)]


def test_notation_leaf_line_and_column():
    tree = load_tree("(\n  (3 12)\n  (2  x=4)\n)", fmt="notation")
    assert tree.node("x").line == 3 and tree.node("c1").line == 3


def test_sniffing_and_explicit_format():
    assert sniff("title: x") == "yaml"
    assert sniff('  {"title": 1}') == "json"
    assert sniff("{title: x, root: {value: 1}}") == "yaml"      # YAML flow mapping
    assert sniff("A (B(1 2))") == "notation"
    assert sniff("(1 2)", "tree.yaml") == "yaml"
    tree = load_tree("{title: x, root: {value: 1}}")
    assert tree.root.value == 1
    assert load_tree(b'{"title": "x", "root": {"value": 1}}', filename="t.json").title == "x"


def test_bytes_with_bom_and_load_path(tmp_path):
    path = tmp_path / "aima.yaml"
    path.write_bytes(b"\xef\xbb\xbf" + AIMA_LECTURE.encode())
    tree = load_path(path)
    assert tree.title == "AIMA Figure 5.2" and len(tree.leaves) == 9
    typed = tmp_path / "t.txt"
    typed.write_text("((3 12 8) (2 4 6) (14 5 2))\n")
    assert [n.id for n in load_path(typed).root.children] == ["B", "C", "D"]


def test_single_leaf_tree():
    tree = load_tree("title: t\nroot: 5\n")
    assert tree.root.id == "A" and tree.root.value == 5 and tree.height == 0


def test_unicode_text_survives():
    tree = load_tree("title: Minimax für Anfänger ♟\nroot:\n  label: Zug ∀\n  value: 1\n")
    assert tree.title == "Minimax für Anfänger ♟" and tree.root.label == "Zug ∀"
