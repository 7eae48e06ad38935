"""docs/papers.md can be checked row by row: every file it names exists
with the lines it cites; every quote names one of the five papers and an
ordered line range; and scripts/check-papers-doc.py, which checks the
quotes against the papers' text (kept outside the repository, so a
reviewer runs it with their folder), finds a quote on its lines and
refuses one that is not there."""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "papers.md"
CHECK = ROOT / "scripts" / "check-papers-doc.py"
QUOTE = re.compile(r'"([^"]+)" \(([a-z0-9.-]+\.txt):(\d+)(?:-(\d+))?\)')
CODE = re.compile(r"(?<![\w/.-])((?:[a-z_-]+/)+[A-Za-z0-9_.-]+?"
                  r"\.(?:conf|md|py|sh|c|h))\b(?::(\d+)(?:-(\d+))?)?")
PAPERS = {"procache-plos-one-2017.txt",
          "kim-dedup-in-ssds-msst-2012-talk.txt",
          "plc-cache-msst-2014.txt", "plc-cache-msst-2014-slides.txt",
          "cdac-slides.txt"}


def test_quotes_name_the_papers_and_their_lines() -> None:
    quotes = QUOTE.findall(DOC.read_text())
    assert len(quotes) > 50
    assert {name for _, name, _, _ in quotes} == PAPERS
    for _, name, first, last in quotes:
        assert 1 <= int(first) <= int(last or first), (name, first, last)


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


def test_the_quote_checker_finds_and_refuses(tmp_path: Path) -> None:
    papers = tmp_path / "papers"
    papers.mkdir()
    (papers / "a.txt").write_text("one line\nif the request size  c then\n"
                                  "It is cold data.\n")
    doc = tmp_path / "doc.md"

    def check(text: str) -> subprocess.CompletedProcess[str]:
        doc.write_text(text)
        return subprocess.run(["/usr/bin/python3", str(CHECK), str(papers),
                               str(doc)], capture_output=True, text=True)

    ok = check('| "if the request size [?] c then ... It is cold data."'
               ' (a.txt:2-3) |')
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert "1 of 1 quotes found" in ok.stdout
    moved = check('"It is cold data." (a.txt:2)')
    assert moved.returncode == 1 and "a.txt:2" in moved.stdout
    wrong = check('"It is hot data." (a.txt:3)')
    assert wrong.returncode == 1
