"""docs/papers.md can be checked row by row: every quote is on the lines
of the paper it cites, and every file it names exists with the lines it
cites.

Quotes are `"text" (file.txt:L)` or `(file.txt:L-M)`; in a quote `...`
elides and `[?]` stands for a symbol the text lost.  The papers live
outside the repository (../shared/papers, or $SSDEMU_PAPERS); without
them the quote test has nothing to check against and says so."""
from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "papers.md"
QUOTE = re.compile(r'"([^"]+)" \(([a-z0-9.-]+\.txt):(\d+)(?:-(\d+))?\)')
CODE = re.compile(r"(?<![\w/.-])((?:[a-z_-]+/)+[A-Za-z0-9_.-]+?"
                  r"\.(?:conf|md|py|sh|c|h))\b(?::(\d+)(?:-(\d+))?)?")


def papers_dir() -> Path | None:
    env = os.environ.get("SSDEMU_PAPERS")
    candidates = [Path(env)] if env else []
    candidates += [p / "shared" / "papers" for p in ROOT.parents]
    return next((p for p in candidates if (p / "README.md").exists()), None)


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


PAPERS = {"procache-plos-one-2017.txt", "kim-dedup-in-ssds-msst-2012-talk.txt",
          "plc-cache-msst-2014.txt", "plc-cache-msst-2014-slides.txt",
          "cdac-slides.txt"}


def test_quotes_name_the_papers_and_their_lines() -> None:
    """Without the papers: every quote names one of the five files and a
    line range in order, and every paper is quoted."""
    quotes = QUOTE.findall(DOC.read_text())
    assert len(quotes) > 50
    assert {name for _, name, _, _ in quotes} == PAPERS
    for quote, name, first, last in quotes:
        assert 1 <= int(first) <= int(last or first), (name, first, last)


def test_quotes_are_on_their_lines() -> None:
    papers = papers_dir()
    if papers is None:
        pytest.skip("the papers are not at hand (../shared/papers or"
                    " $SSDEMU_PAPERS): nothing to check the quotes against")
    quotes = QUOTE.findall(DOC.read_text())
    assert len(quotes) > 50
    bad = []
    for quote, name, first, last in quotes:
        lines = (papers / name).read_text().split("\n")
        lo, hi = int(first), int(last or first)
        assert 1 <= lo <= hi <= len(lines), (name, lo, hi)
        if not found(quote, normal(" ".join(lines[lo - 1:hi]))):
            bad.append(f"{name}:{first}: {quote!r}")
    assert not bad, "\n".join(bad)


def test_code_references_exist() -> None:
    bad = []
    for path, first, last in CODE.findall(DOC.read_text()):
        f = ROOT / path
        if not f.exists():
            bad.append(f"{path}: no such file")
            continue
        if first:
            lines = len(f.read_text().split("\n"))
            if int(last or first) > lines:
                bad.append(f"{path}:{first}: the file has {lines} lines")
    assert not bad, "\n".join(bad)
