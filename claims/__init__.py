"""The papers' claims reports that rest on both the benchmarks (bench/)
and the workload's replays (workload/): on top of the Python side, the one
package that may import both (tests/style/test_python_layering.py).
`python3 -m claims.procache` writes bench/results/procache-claims.md."""
