"""The Python tools' one shared package (bench/, workload/, tests/).

Run the tools as modules from the repository's root (`python3 -m
bench.run`, `python3 -m workload.run`, `python3 -m ssdtools.demo`); pytest
finds the package through `pythonpath` in pytest.ini.  One job per module:

  paths      where the repository keeps what the tools read and write
  vmrun      the qemu VM runner (boot, run one script, power off, report)
  initramfs  the VM's initramfs (cached base image plus a per-run overlay)
  stublibs   stub libraries that keep the initramfs small
  guest      what guest scripts print: tagged blocks, stats snapshots
  conf       the configs/*.conf reader, and a preset over the defaults
  demo       `make demo`: one VM, one device, its stats

ssdsim itself (the runner, its statistics, completions and keys) is
the binding below this package: `import ssdsim`.  Nothing here imports
from tests/.
"""
