"""`make workload`: the ProCache paper's Algorithm 2, `python3 -m
workload.run`."""
