"""Trees for the picture tests, read from YAML like a lecturer's files."""
from __future__ import annotations

import pytest

from app.treefile import load_tree

HOSTILE = r'''
title: "<script>alert(1)</script> {evil} \\ \"q\" $x$ 50% #1 & ]] -->"
source: "a <b>bold</b> & 'quoted' source"
root:
  id: "A&{x}"
  label: "<img src=x onerror=alert(1)> {A} \\"
  children:
    - id: "q'uote"
      label: 'say "hi" & {bye} \N \G'
      children:
        - {id: "l]1", label: "a,b=[c]", value: 3}
        - {id: "l%2", label: "100% $5 #tag _u ~t ^c", value: 5}
    - id: "b{1}"
      label: "}{ unbalanced </text><script>x</script>"
      children:
        - {id: "l&3", value: 1}
        - {id: "l#4", value: 9}
'''

CHANCE = '''
title: A small dice game
root:
  id: A
  children:
    - id: C1
      type: chance
      children:
        - {id: x1, probability: 0.5, value: 4}
        - {id: x2, probability: 0.5, value: 1}
    - id: C2
      type: chance
      children:
        - {id: y1, probability: 0.25, value: 10}
        - {id: y2, probability: 0.75, value: -2}
'''

MAXN = '''
title: Three players
players: [A, B, C]
root:
  id: R
  children:
    - id: S
      children:
        - {id: s1, value: [1, 2, 6]}
        - {id: s2, value: [4, 2, 3]}
    - id: T
      children:
        - {id: t1, value: [6, 1, 2]}
        - {id: t2, value: [7, 4, 1]}
'''

DEPTH = '''
title: Depth-limited
root:
  id: A
  children:
    - id: B
      eval: 4
      children: [3, 12]
    - id: C
      eval: 1
      children: [2, 9]
'''


@pytest.fixture(scope="session")
def fig52(fig52_yaml):
    return load_tree(fig52_yaml, filename="fig52.yaml")


@pytest.fixture(scope="session")
def hostile():
    return load_tree(HOSTILE, filename="hostile.yaml")


@pytest.fixture(scope="session")
def chance_tree():
    return load_tree(CHANCE, filename="chance.yaml")


@pytest.fixture(scope="session")
def maxn_tree():
    return load_tree(MAXN, filename="maxn.yaml")


@pytest.fixture(scope="session")
def depth_tree():
    return load_tree(DEPTH, filename="depth.yaml")
