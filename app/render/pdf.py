"""Putting Graphviz's one-graph PDFs on printable pages, and joining them.

Graphviz makes each PDF exactly the size of its drawing. A worksheet wants
A4 sheets: each drawing is scaled to fit inside the margins (landscape when
it is wider than tall), centred, never blown up past :data:`MAX_ZOOM`, and the
pages are joined into one file with ``pypdf``.

The drawing's own content stream is kept as Graphviz wrote it (compressed):
the sheet's content is a ``q … cm`` before it and a ``Q`` after it. pypdf's
``merge_transformed_page`` parsed and re-wrote every drawing's content
instead, uncompressed: a 1,093-node worksheet took 2-4 s to join and came
out 1.2 MB from Graphviz's 170 kB (bench/README.md, issue 30).
"""
from __future__ import annotations

import io

from pypdf import PdfReader, PdfWriter
from pypdf.generic import ArrayObject, DecodedStreamObject, NameObject, RectangleObject

A4 = (595.276, 841.89)
"""Width and height of an A4 sheet in points."""
MARGIN = 36.0
"""Half an inch all round: inside every printer's reach."""
MAX_ZOOM = 1.6
"""A small tree grows to fill the sheet, but its text stays a sensible size."""


def placement(box, paper: tuple[float, float] = A4) -> tuple[float, float, float, float, float]:
    """``(sheet width, sheet height, zoom, dx, dy)`` for a drawing whose media
    box is ``box``: scaled to fit inside the margins, centred across, its top
    near the top of the sheet (a worksheet reads downward)."""
    width, height = float(box.width), float(box.height)
    short, long_ = sorted(paper)
    sheet_w, sheet_h = (long_, short) if width > height else (short, long_)
    zoom = min((sheet_w - 2 * MARGIN) / width, (sheet_h - 2 * MARGIN) / height, MAX_ZOOM)
    dx = (sheet_w - width * zoom) / 2 - float(box.left) * zoom
    dy = sheet_h - MARGIN - height * zoom - float(box.bottom) * zoom
    return sheet_w, sheet_h, zoom, dx, dy


def _stream(writer: PdfWriter, text: str):
    stream = DecodedStreamObject()
    stream.set_data(text.encode("ascii"))
    return writer._add_object(stream)


def add_sheet(writer: PdfWriter, pdf: bytes, paper: tuple[float, float] = A4) -> None:
    """The first page of ``pdf``, scaled and placed on a sheet of ``paper``,
    as the next page of ``writer``."""
    page = writer.add_page(PdfReader(io.BytesIO(pdf)).pages[0])
    sheet_w, sheet_h, zoom, dx, dy = placement(page.mediabox, paper)
    contents = page.get("/Contents")
    drawn = list(contents.get_object()) if isinstance(contents.get_object(), ArrayObject) else \
        ([contents] if contents is not None else [])
    before = _stream(writer, f"q {zoom:.6f} 0 0 {zoom:.6f} {dx:.4f} {dy:.4f} cm\n")
    page[NameObject("/Contents")] = ArrayObject([before, *drawn, _stream(writer, "\nQ\n")])
    sheet = RectangleObject([0, 0, sheet_w, sheet_h])
    page[NameObject("/MediaBox")] = sheet
    for name in ("/CropBox", "/BleedBox", "/TrimBox", "/ArtBox"):
        if name in page:
            page[NameObject(name)] = RectangleObject(sheet)


def join(pages: list[bytes], title: str = "", paper: tuple[float, float] = A4) -> bytes:
    """One PDF with one sheet per drawing, in order."""
    writer = PdfWriter()
    for pdf in pages:
        add_sheet(writer, pdf, paper)
    if title:
        writer.add_metadata({"/Title": title, "/Creator": "adversarial-search teaching app"})
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()
