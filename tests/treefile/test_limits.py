"""Cost limits: bytes, nodes, depth, aliases; and no input reaches recursion."""
import time

import pytest

from app.treefile import Limits, TreeFileError, TreeTooLarge, load_path, load_tree

DEEP = 5000


def flat(count: int, fmt: str) -> str:
    leaves = ", ".join(["0"] * count)
    if fmt == "yaml":
        return f"title: T\nroot:\n  children: [{leaves}]\n"
    if fmt == "json":
        return f'{{"title": "T", "root": {{"children": [{leaves}]}}}}'
    return f"({leaves})"


@pytest.mark.parametrize("fmt", ["yaml", "json", "notation"])
def test_node_limit_counts_the_tree(fmt):
    limits = Limits(max_nodes=10)
    assert len(load_tree(flat(9, fmt), fmt=fmt, limits=limits).nodes) == 10
    with pytest.raises(TreeTooLarge, match="more than 10 nodes") as caught:
        load_tree(flat(10, fmt), fmt=fmt, limits=limits)
    assert caught.value.line is not None


def test_default_node_limit_is_refused_while_reading():
    text = flat(200_000, "notation")      # 200,001 nodes in 600 KB
    start = time.process_time()
    with pytest.raises(TreeTooLarge, match="more than 200000 nodes"):
        load_tree(text)
    assert time.process_time() - start < 3


def _yaml_block_dashes(depth):        # block sequences nested on one line: - - - 1
    return "title: T\nroot:\n  children:\n  " + "- " * depth + "1\n"


def _yaml_block_nodes(depth):         # the tree format itself, indented per level
    return "title: T\nroot:\n" + "".join(
        " " * (2 * i + 2) + "children:\n" + " " * (2 * i + 2) + "-\n" for i in range(depth)) \
        + " " * (2 * depth + 2) + "value: 1\n"


DEEP_FILES = {
    "yaml block": _yaml_block_dashes,
    "yaml block nodes": _yaml_block_nodes,
    "yaml flow mapping": lambda d: "title: T\nroot: " + "{children: [" * d + "1" + "]}" * d,
    "yaml flow list": lambda d: "title: T\nroot: " + "[" * d + "1" + "]" * d,
    "json": lambda d: '{"title": "T", "root": ' + '{"children": [' * d + "1" + "]}" * d + "}",
    "json list": lambda d: '{"title": "T", "root": ' + "[" * d + "1" + "]" * d + "}",
    "notation": lambda d: "(" * d + "1" + ")" * d,
}


@pytest.mark.parametrize("name", DEEP_FILES)
def test_5000_deep_nesting_is_refused_without_recursion(name):
    text = DEEP_FILES[name](DEEP)
    limits = Limits(max_bytes=64 * 1024 * 1024)     # let the quadratic block file in
    start = time.process_time()
    with pytest.raises(TreeTooLarge, match="deep") as caught:
        load_tree(text, limits=limits)
    assert caught.value.line is not None and caught.value.column is not None
    assert time.process_time() - start < 2


@pytest.mark.parametrize("name", ["yaml flow mapping", "json", "notation", "yaml block nodes"])
def test_depth_limit_is_exact(name):
    make = DEEP_FILES[name]
    assert load_tree(make(200)).height == 200
    with pytest.raises(TreeTooLarge, match="deeper than 200 levels") as caught:
        load_tree(make(201))
    assert caught.value.line is not None


@pytest.mark.parametrize("name", ["json", "notation"])
def test_raised_depth_limit_builds_deep_trees_without_recursion(name):
    limits = Limits(max_depth=3000)
    tree = load_tree(DEEP_FILES[name](3000), limits=limits)
    assert tree.height == 3000 and len(tree.nodes) == 3001
    assert tree.path_to(tree.leaves[0].id)[0] is tree.root


BILLION_LAUGHS = """\
title: lol
root:
  a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]
  b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]
  c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]
  d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]
  e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]
  f: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e]
  g: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f]
  h: &h [*g, *g, *g, *g, *g, *g, *g, *g, *g]
  i: &i [*h, *h, *h, *h, *h, *h, *h, *h, *h]
"""


def test_billion_laughs_is_refused_at_once():
    start = time.perf_counter()
    with pytest.raises(TreeFileError, match="anchors") as caught:
        load_tree(BILLION_LAUGHS)
    assert time.perf_counter() - start < 0.5
    assert (caught.value.line, caught.value.column) == (3, 6)


def test_alias_without_anchor_in_a_children_list():
    with pytest.raises(TreeFileError, match=r"aliases \(\*x\)"):
        load_tree("title: T\nroot:\n  children: [1, *x]\n")


def test_byte_limit_for_text_bytes_and_paths(tmp_path):
    limits = Limits(max_bytes=100)
    text = "title: T\nroot:\n  children: [" + ", ".join(["1"] * 40) + "]\n"
    for data in (text, text.encode()):
        with pytest.raises(TreeTooLarge, match="too large"):
            load_tree(data, limits=limits)
    path = tmp_path / "big.yaml"
    path.write_text(text)
    with pytest.raises(TreeTooLarge, match=f"{len(text)} bytes"):
        load_path(path, limits=limits)
    assert len(load_path(path).leaves) == 40


def test_multibyte_text_is_measured_in_utf8_bytes():
    title = "é" * 60                       # 60 characters, 120 bytes
    text = f"title: {title}\nroot: 1\n"
    with pytest.raises(TreeTooLarge):
        load_tree(text, limits=Limits(max_bytes=120))
    assert load_tree(text, limits=Limits(max_bytes=200)).title == title


@pytest.mark.parametrize("fmt", ["yaml", "json", "notation"])
def test_a_2mib_file_is_answered_quickly(fmt):
    """The worst 2 MiB file of number leaves is refused by node count early."""
    text = flat(1024 * 1024 - 40, fmt)[:2 * 1024 * 1024]
    start = time.process_time()
    with pytest.raises(TreeFileError):
        load_tree(text, fmt=fmt)
    assert time.process_time() - start < 3


@pytest.mark.slow
def test_200k_node_file_loads_in_bounded_time():
    def leaves(i, j):
        return ", ".join(str((i * j * k) % 97 - 48) for k in range(24))
    branches = "\n".join(
        f"    - id: N{i}\n      eval: {i % 7}\n      children:\n" +
        "\n".join(f"        - children: [{leaves(i, j)}]" for j in range(20))
        for i in range(399))
    text = f"title: big\nroot:\n  children:\n{branches}\n"
    start = time.process_time()
    tree = load_tree(text)
    elapsed = time.process_time() - start
    assert len(tree.nodes) == 1 + 399 * (1 + 20 * (1 + 24)) == 199_900
    assert len(text.encode()) < 2 * 1024 * 1024
    assert elapsed < 4, f"{elapsed:.2f}s of CPU for {len(tree.nodes)} nodes"
