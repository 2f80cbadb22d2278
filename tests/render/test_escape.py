"""Hostile text (markup, quotes, braces, backslashes) is drawn as text everywhere."""
from __future__ import annotations

import re

from app.render import export
from app.render.tikz import tex
from app.search import SearchOptions
from app.search.tree import Node, Tree

from .helpers import SVG, by_class, groups, svg_root, texts

AB = SearchOptions(algorithm="alphabeta")


def all_text(root) -> str:
    return " ".join(t.text for t in root.iter(f"{SVG}text") if t.text)


def test_svg_of_hostile_labels_is_well_formed_and_inert(hostile):
    data = export(hostile, AB, None, "svg")
    root = svg_root(data)  # parses: nothing broke out of an attribute or a text
    assert not [e for e in root.iter() if e.tag.rsplit("}", 1)[-1].lower() in
                ("script", "foreignobject", "img", "iframe")]
    for element in root.iter():
        assert not any(name.lower().startswith("on") for name in element.attrib)
    assert b"<script" not in data and b"<img" not in data
    text = all_text(root)
    assert "<script>alert(1)</script> {evil} \\ \"q\" $x$ 50% #1 & ]] -->" in text
    names = [" ".join(texts(g)) for g in by_class(root, "name")]
    assert "<img src=x onerror=alert(1)> {A} \\" in names
    assert 'say "hi" & {bye} \\N \\G' in names  # not expanded to Graphviz names
    assert "}{ unbalanced </text><script>x</script>" in names
    g = groups(root)
    for node in hostile.nodes:
        assert node.id in g  # ids with & ' { } ] % # come back exactly


def test_ids_with_quotes_backslashes_and_markup_survive():
    ids = ['a"b', "c\\N", "<script>", "x\\"]
    leaves = tuple(Node(id=i, label=i, player=1, depth=1, value=k) for k, i in enumerate(ids))
    tree = Tree(root=Node(id='r"\\G', label="r", player=0, depth=0, children=leaves),
                title='t"\\')
    root = svg_root(export(tree, SearchOptions(algorithm="minimax"), None, "svg"))
    g = groups(root)
    for node_id in ids + ['r"\\G']:
        assert node_id in g, node_id
    assert 't"\\' in all_text(root)
    names = [" ".join(texts(n)) for n in by_class(root, "name")]
    assert "c\\N" in names and "x\\" in names


def test_dot_keeps_hostile_text_inside_its_strings(hostile):
    dot = export(hostile, AB, None, "dot").decode()
    assert "<script>" not in dot and "<img" not in dot
    assert "&lt;script&gt;" in dot
    # Every quoted string closes on the line it opens: no quote escaped the escaping.
    for line in dot.splitlines():
        assert len(re.findall(r'(?<!\\)"', line)) % 2 == 0, line


def test_tex_escapes_every_special_character():
    assert tex("{}") == r"\{\}"
    assert tex("\\N") == r"\textbackslash{}N"
    assert tex("$x$ 50% #1 a_b &") == r"\$x\$ 50\% \#1 a\_b \&"
    assert tex("~ ^") == r"\textasciitilde{} \textasciicircum{}"
    assert tex("[a], b") == "{[}a{]}, b"
    assert tex("<script>") == r"\textless{}script\textgreater{}"
    assert tex("line\nbreak") == "line break"


def test_tikz_of_hostile_tree_is_balanced_and_escaped(hostile):
    source = export(hostile, AB, None, "tikz").decode()
    body = source[source.index(r"\begin{forest}"):source.index(r"\end{forest}")]
    unescaped = re.sub(r"\\[{}$%#&_]", "", body)
    assert unescaped.count("{") == unescaped.count("}")
    assert "%" not in unescaped and "#" not in unescaped
    assert "<" not in body and ">" not in body
    assert r"\textless{}img src=x onerror=alert(1)\textgreater{} \{A\} \textbackslash{}" in body
    # The title sits in a comment, on one line: it cannot start LaTeX code.
    first = source.splitlines()[0]
    assert first.startswith("% <script>") and first.endswith("-->")
