"""The sections of `make bench`, in the order they run and print.

The one list of sections (bench/section.py says what each provides):
those measured in the one boot of the bench VM, then those that run on
their own.  A new section is a module and one line here.
"""
from __future__ import annotations

from bench import (cache_sweep, cache_vm, dedup_sweep, fidelity,
                   fig4_sweep, ftl_types, ftl_types_vm, gc, hostcache,
                   idle_overlap, kim_figs, overhead, procache_figs, readlat,
                   sim_latency, simspeed, snapshot, snapshot_vm)
from bench.section import OwnSection, Section, VmSection

IN_BENCH_VM: tuple[VmSection, ...] = (overhead, fidelity, gc, readlat)
OWN_RUN: tuple[OwnSection, ...] = (sim_latency, cache_sweep, cache_vm,
                                   dedup_sweep, idle_overlap, hostcache,
                                   snapshot, snapshot_vm, procache_figs,
                                   fig4_sweep, kim_figs, ftl_types,
                                   ftl_types_vm, simspeed)
SECTIONS: tuple[Section, ...] = IN_BENCH_VM + OWN_RUN
NAMES = tuple(s.NAME for s in SECTIONS)
VM_NAMES = tuple(s.NAME for s in IN_BENCH_VM)


def pick(names: list[str] | tuple[str, ...]) -> list[Section]:
    """The sections of names, in the order they run."""
    return [s for s in SECTIONS if s.NAME in names]
