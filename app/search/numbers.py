"""Numbers as the reader sees them: strict JSON and lecture notation.

>>> jv(float("inf")), jv(-float("inf")), jv(8.0), jv(0.1 + 0.2), jv((1, 2.0))
('inf', '-inf', 8, 0.3, [1, 2])
>>> fmt(float("-inf")), fmt(3), fmt(2.5), fmt((1, 2, 6)), fmt("inf"), fmt(None)
('−∞', '3', '2.5', '(1, 2, 6)', '+∞', '—')
>>> fmt(-3), fmt(-2.5), fmt((7, 4, -1))    # one minus sign everywhere: U+2212, as −∞
('−3', '−2.5', '(7, 4, −1)')
"""
from __future__ import annotations

INF = float("inf")


def jv(x):
    """A value as strict JSON: infinities as strings, whole floats as ints,
    float noise (0.30000000000000004) rounded away, vectors as lists."""
    if x is None or type(x) is int or isinstance(x, (bool, str)):
        return x
    if isinstance(x, tuple) or isinstance(x, list):
        return [jv(i) for i in x]
    if isinstance(x, float):
        if x == INF:
            return "inf"
        if x == -INF:
            return "-inf"
        if x.is_integer() and abs(x) < 2 ** 53:
            return int(x)
        return float(f"{x:.12g}")
    return x


MINUS = "\u2212"
"""The typographic minus the page, the pictures and the sentences all write."""


def fmt(x) -> str:
    """A value as a lecturer writes it (negative numbers with a true minus sign)."""
    if type(x) is int:
        return str(x).replace("-", MINUS)
    if x is None:
        return "—"
    if x == "inf" or x == INF:
        return "+∞"
    if x == "-inf" or x == -INF:
        return "−∞"
    if isinstance(x, (tuple, list)):
        return "(" + ", ".join(fmt(i) for i in x) + ")"
    x = jv(x)
    if isinstance(x, float):
        return f"{x:g}".replace("-", MINUS)
    if type(x) is int:
        return str(x).replace("-", MINUS)
    return str(x)


def unview(x):
    """A view value back to a number ('inf' strings included)."""
    if x == "inf":
        return INF
    if x == "-inf":
        return -INF
    return x
