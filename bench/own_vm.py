"""What the sections that boot a VM of their own (ftl_types_vm,
snapshot_vm) share around their run: the result saved per kernel as
JSON beside the section's part of its markdown file, the section's
`measure`, and the standalone command line (--kver, --ssdsim, the
table printed, the files written).
"""
from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any, Callable

from bench.section import Options, write_json
from ssdtools import initramfs
import ssdsim as sim

Result = dict[str, Any]
# write_part(heading, table lines, out_dir) of the section's markdown file.
PartWriter = Callable[[str, list[str], Path], None]


def save(result: Result, json_stem: str, write_part: PartWriter,
         heading: str, lines: list[str], out_dir: Path) -> None:
    """Writes <json_stem>-<kernel>.json and the section's part of its .md."""
    write_json(out_dir / f"{json_stem}-{result['kernel']}.json", result)
    write_part(heading, lines, out_dir)


def measure(opts: Options, run: Callable[[str, Path], Result],
            write_results: Callable[[Result], None]) -> Result:
    """The section's `measure` for `make bench` (bench/section.py): run on
    the bench's kernel and ssdsim, write the results, return them."""
    result = run(opts.kver, opts.ssdsim.resolve())
    write_results(result)
    return result


def show(title: str, lines: list[str]) -> None:
    """The section's table under its title, as `make bench` prints it."""
    print("\n".join(["", title] + lines))


def main(doc: str, run: Callable[[str, Path, argparse.Namespace], Result],
         table_lines: Callable[[Result], list[str]],
         write_results: Callable[[Result], None],
         add_arguments: Callable[[argparse.ArgumentParser], None]
         | None = None) -> int:
    """The section's standalone command line: run, print, write."""
    parser = argparse.ArgumentParser(description=doc.split("\n")[0])
    parser.add_argument("--kver", help="kernel of the VM (default: the"
                        " first of build/kernel-versions)")
    parser.add_argument("--ssdsim", type=Path, default=sim.SSDSIM)
    if add_arguments:
        add_arguments(parser)
    args = parser.parse_args()
    result = run(args.kver or initramfs.default_kernels()[0],
                 args.ssdsim.resolve(), args)
    print("\n".join(table_lines(result)))
    print(f"VM wall time: {result['vm_wall_s']} s")
    write_results(result)
    return 0
