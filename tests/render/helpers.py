"""Reading what the renderer wrote: SVG groups, PNG headers, PDF pages."""
from __future__ import annotations

import io
import struct
import xml.etree.ElementTree as ET

from pypdf import PdfReader

SVG = "{http://www.w3.org/2000/svg}"


def svg_root(data: bytes) -> ET.Element:
    return ET.fromstring(data)


def groups(root: ET.Element) -> dict[str, ET.Element]:
    """Every ``<g>`` with an id, by id."""
    return {g.get("id"): g for g in root.iter(f"{SVG}g") if g.get("id")}


def classes(group: ET.Element) -> set[str]:
    return set((group.get("class") or "").split())


def texts(group: ET.Element) -> list[str]:
    return [t.text.strip() for t in group.iter(f"{SVG}text") if t.text and t.text.strip()]


def by_class(root: ET.Element, name: str) -> list[ET.Element]:
    return [g for g in root.iter(f"{SVG}g") if name in classes(g)]


def center_x(group: ET.Element) -> float:
    """The x of a node's shape: the middle of its polygon, or its ellipse's centre."""
    poly = group.find(f".//{SVG}polygon")
    if poly is not None:
        xs = [float(p.split(",")[0]) for p in poly.get("points").split()]
        return (min(xs) + max(xs)) / 2
    return float(group.find(f".//{SVG}ellipse").get("cx"))


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    assert data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def pdf_pages(data: bytes):
    assert data.startswith(b"%PDF-"), "not a PDF"
    return PdfReader(io.BytesIO(data)).pages


def page_text(page) -> str:
    return " ".join(page.extract_text().split())
