#!/usr/bin/python3
"""Checks docs/papers.md against the papers: every quote is on the lines
it cites.

Quotes are `"text" (file.txt:L)` or `(file.txt:L-M)`; in a quote `...`
elides and `[?]` stands for a symbol the text lost; whitespace and line
breaks do not count.  The papers are not in the repository (docs/papers.md
says where they are): name their folder.

usage: scripts/check-papers-doc.py PAPERS_DIR [DOC]
Exit 0 if every quote is found, 1 (listing the others) if not.
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

QUOTE = re.compile(r'"([^"]+)" \(([a-z0-9.-]+\.txt):(\d+)(?:-(\d+))?\)')


def normal(text: str) -> str:
    return " ".join(text.split())


def found(quote: str, text: str) -> bool:
    """The quote's pieces (between `...` and `[?]`) in order in text."""
    at = 0
    for piece in re.split(r"\.\.\.|\[\?\]", quote):
        piece = normal(piece)
        if not piece:
            continue
        at = text.find(piece, at)
        if at < 0:
            return False
        at += len(piece)
    return True


def misquoted(papers: Path, doc: Path) -> list[str]:
    """The quotes of @doc not on their lines of @papers' files."""
    bad = []
    for quote, name, first, last in QUOTE.findall(doc.read_text()):
        path = papers / name
        if not path.exists():
            bad.append(f"{name}: no such paper in {papers}")
            continue
        lines = path.read_text().split("\n")
        lo, hi = int(first), int(last or first)
        if not 1 <= lo <= hi <= len(lines):
            bad.append(f"{name}:{first}: the file has {len(lines)} lines")
        elif not found(quote, normal(" ".join(lines[lo - 1:hi]))):
            bad.append(f"{name}:{first}: {quote!r}")
    return bad


def main(argv: list[str]) -> int:
    if len(argv) not in (2, 3):
        print(__doc__.strip().split("\n\n")[-2], file=sys.stderr)
        return 2
    doc = Path(argv[2]) if len(argv) == 3 else \
        Path(__file__).resolve().parents[1] / "docs" / "papers.md"
    bad = misquoted(Path(argv[1]), doc)
    for line in bad:
        print(f"check-papers-doc: {line}")
    count = len(QUOTE.findall(doc.read_text()))
    print(f"check-papers-doc: {count - len(bad)} of {count} quotes found")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
