"""A sweep's journal: the rows of the runs done, kept as they finish.

Owns the file DIR/NAME.journal.jsonl (JSON Lines): a first line naming
the sweep (its number of points and a digest of them: traces, preset,
keys, options, swept values), then one line per finished run (its
point's index and its row), appended and flushed as the run ends.  So a
sweep stopped by Ctrl-C or by a failing run keeps every row done: the
command writes them as NAME.partial.csv, and `--resume` reads the
journal back and runs only the points not in it.  A journal of another
sweep (a different grid) is refused by --resume, not mixed in; a sweep
that ends removes its journal (NAME.csv is then the whole table).
"""
from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import IO, Any

from ssdsim import SsdsimError

Row = dict[str, Any]


def digest(points: list[dict[str, Any]]) -> str:
    """The points' identity: what each run is, in order."""
    text = json.dumps(points, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


class Journal:
    """The journal at @path for these @points: with @resume, the rows of
    the same sweep's journal there are kept (done) and more appended;
    without, it starts empty."""

    def __init__(self, path: Path, points: list[dict[str, Any]],
                 resume: bool) -> None:
        self.path = path
        self.total = len(points)
        self.done: dict[int, Row] = {}
        head = {"sweep": digest(points), "points": self.total}
        if resume and path.exists():
            first, self.done = self._read(path)
            if first != head:
                raise SsdsimError(
                    f"ssdsim sweep: {path} is the journal of another sweep"
                    " (another grid, traces or options): --resume"
                    " continues the same command; remove it or give"
                    " another --name")
        path.parent.mkdir(parents=True, exist_ok=True)
        self._file: IO[str] | None = path.open("w")
        self._write(head)
        for index in sorted(self.done):
            self._write({"index": index, "row": self.done[index]})

    @staticmethod
    def _read(path: Path) -> tuple[dict[str, Any], dict[int, Row]]:
        """A journal's first line and its rows by index."""
        lines = path.read_text().splitlines()
        try:
            first = json.loads(lines[0]) if lines else {}
        except ValueError:
            first = {}
        done: dict[int, Row] = {}
        for line in lines[1:]:
            try:
                entry = json.loads(line)
            except ValueError:
                break  # the last line, cut short when the sweep stopped
            done[int(entry["index"])] = entry["row"]
        return first, done

    @classmethod
    def read_only(cls, path: Path) -> Journal:
        """The journal at @path as it is, to read its rows."""
        book = cls.__new__(cls)
        first, book.done = cls._read(path)
        book.path, book.total = path, int(first.get("points", 0))
        book._file = None
        return book

    def _write(self, entry: dict[str, Any]) -> None:
        assert self._file is not None
        self._file.write(json.dumps(entry) + "\n")
        self._file.flush()

    def add(self, index: int, row: Row) -> None:
        """Keep @row, the point @index's, now."""
        self.done[index] = row
        self._write({"index": index, "row": row})

    def rows(self) -> list[Row]:
        """The rows done, in the points' order."""
        return [self.done[i] for i in sorted(self.done)]

    def complete(self) -> bool:
        return len(self.done) == self.total

    def close(self, remove: bool = False) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None
        if remove:
            self.path.unlink(missing_ok=True)
