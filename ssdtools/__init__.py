"""The Python tools' one shared package (bench/, workload/, tests/).

Above the ssdsim binding (`import ssdsim`: the runner, its statistics,
completions and keys), below bench/ and workload/; it imports nothing of
theirs (tests/style/test_python_layering.py).  Run the tools as modules
(`python3 -m bench.run`, `python3 -m workload.run`, `python3 -m
ssdtools.demo`, `python3 -m ssdtools.sweep`).  One job per module:

  paths            where the repository keeps what the tools read and write
  vmrun            the qemu VM runner (boot, run one script, power off)
  initramfs        the VM's initramfs (cached base image, per-run overlay)
  stublibs         stub libraries that keep the initramfs small
  guest            what guest scripts print: tagged blocks, stats snapshots
  conf             the configs/*.conf reader, and a preset over the defaults
  cachesim         the host cache simulator's runners (cachesim, tracegen)
  procache_device  the ProCache paper's device, its scales and settings
  procache_hits    the ProCache paper's hit ratios from ssdsim's counters
  sweep/           grids of keys over traces: one table and plots
  demo             `make demo`: one VM, two devices, their stats

Nothing here imports from tests/.
"""
