"""Running Graphviz: DOT text in, SVG/PNG/PDF bytes out.

The layout is ours (:mod:`app.render.layout`), so Graphviz runs as
``neato -n2``: it keeps every position and only routes straight edges and
draws. It runs as a subprocess with a time limit, so a request can never
hang the server.
"""
from __future__ import annotations

import shutil
import subprocess

from .state import RenderError


class GraphvizError(RenderError):
    """Graphviz is missing or failed: the server's fault, not the request's."""

TIMEOUT = 60.0
"""Seconds Graphviz may take before we give up."""

FORMATS = ("svg", "png", "pdf")
DPI = 144
"""PNG resolution: twice the screen's, sharp on a projector and in slides."""


def graphviz_available() -> bool:
    return shutil.which("neato") is not None


def draw(dot_text: str, fmt: str) -> bytes:
    """One picture in ``fmt`` (``svg``, ``png``, ``pdf``) of one DOT graph."""
    if fmt not in FORMATS:
        raise RenderError(f"unknown picture format {fmt!r}: choose one of {', '.join(FORMATS)}")
    args = ["neato", "-n2", f"-T{fmt}" + (":cairo" if fmt != "svg" else "")]
    if fmt == "png":
        args.append(f"-Gdpi={DPI}")
    return _run(args, dot_text)


def draw_pdf_pages(dot_texts: list[str]) -> list[bytes]:
    """One PDF per DOT graph, from a single Graphviz run (a flip-book has many)."""
    if not dot_texts:
        return []
    data = _run(["neato", "-n2", "-Tpdf:cairo"], "\n".join(dot_texts))
    # Graphviz writes one whole PDF per graph, one after the other.
    starts = []
    i = data.find(b"%PDF-")
    while i != -1:
        starts.append(i)
        i = data.find(b"%PDF-", i + 5)
    pages = [data[a:b] for a, b in zip(starts, starts[1:] + [len(data)])]
    if len(pages) != len(dot_texts):
        raise GraphvizError(f"Graphviz made {len(pages)} pages instead of {len(dot_texts)}")
    return pages


def _run(args: list[str], dot_text: str) -> bytes:
    if not graphviz_available():
        raise GraphvizError("Graphviz is not installed: install the 'graphviz' package "
                          "(bash scripts/bootstrap.sh does it)")
    try:
        proc = subprocess.run(args, input=dot_text.encode("utf-8"), capture_output=True,
                              timeout=TIMEOUT, check=False)
    except subprocess.TimeoutExpired:
        raise GraphvizError(f"Graphviz took more than {TIMEOUT:.0f} s: "
                            "the tree is too big to draw") from None
    if proc.returncode != 0 or not proc.stdout:
        message = proc.stderr.decode("utf-8", "replace").strip().splitlines()
        last = message[-1] if message else f"exit {proc.returncode}"
        raise GraphvizError(f"Graphviz failed: {last}")
    return proc.stdout
