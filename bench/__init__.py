"""`make bench`: the benchmarks' host side, run as `python3 -m bench.run`."""
