"""A results file written in parts: a title, then "## heading" sections,
each rewritten by the run that measures it (the ssdsim part, one part per
kernel) while the others are kept."""
from __future__ import annotations

from pathlib import Path


def write_part(path: Path, title: str, first: tuple[str, ...],
               heading: str, lines: list[str]) -> None:
    """Put lines under "## heading" in path, keeping its other parts: the
    headings of `first` in that order, then the others by name."""
    parts: dict[str, str] = {}
    if path.exists():
        for part in ("\n" + path.read_text()).split("\n## ")[1:]:
            head, _, body = part.partition("\n")
            parts[head] = body.strip("\n")
    parts[heading] = "\n".join(lines)
    order = sorted(parts, key=lambda h: (
        first.index(h) if h in first else len(first), h))
    path.write_text(title + "\n" + "".join(
        f"\n## {h}\n\n{parts[h]}\n" for h in order))
