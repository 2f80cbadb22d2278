"""Putting Graphviz's one-graph PDFs on printable pages, and joining them.

Graphviz makes each PDF exactly the size of its drawing. A worksheet wants
A4 sheets: each drawing is scaled to fit inside the margins (landscape when
it is wider than tall), centred, never blown up past :data:`MAX_ZOOM`, and the
pages are joined into one file with ``pypdf``.
"""
from __future__ import annotations

import io

from pypdf import PageObject, PdfReader, PdfWriter, Transformation

A4 = (595.276, 841.89)
"""Width and height of an A4 sheet in points."""
MARGIN = 36.0
"""Half an inch all round: inside every printer's reach."""
MAX_ZOOM = 1.6
"""A small tree grows to fill the sheet, but its text stays a sensible size."""


def fit_page(pdf: bytes, paper: tuple[float, float] = A4) -> PageObject:
    """The first page of ``pdf`` scaled and centred on a sheet of ``paper``."""
    source = PdfReader(io.BytesIO(pdf)).pages[0]
    box = source.mediabox
    width, height = float(box.width), float(box.height)
    short, long_ = sorted(paper)
    sheet_w, sheet_h = (long_, short) if width > height else (short, long_)
    zoom = min((sheet_w - 2 * MARGIN) / width, (sheet_h - 2 * MARGIN) / height, MAX_ZOOM)
    sheet = PageObject.create_blank_page(width=sheet_w, height=sheet_h)
    # Keep the drawing's top near the top of the sheet: a worksheet reads downward.
    dx = (sheet_w - width * zoom) / 2 - float(box.left) * zoom
    dy = sheet_h - MARGIN - height * zoom - float(box.bottom) * zoom
    sheet.merge_transformed_page(source, Transformation().scale(zoom).translate(dx, dy))
    return sheet


def join(pages: list[bytes], title: str = "", paper: tuple[float, float] = A4) -> bytes:
    """One PDF with one sheet per drawing, in order."""
    writer = PdfWriter()
    for pdf in pages:
        writer.add_page(fit_page(pdf, paper))
    if title:
        writer.add_metadata({"/Title": title, "/Creator": "adversarial-search teaching app"})
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()
