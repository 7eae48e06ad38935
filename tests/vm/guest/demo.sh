# demo.sh - what `make demo` shows (ssdtools/demo.py): two devices at once
# from the ProCache paper's preset, BASE (every write into the SLC cache)
# and ProCache with dedup, under the same small copy + compile + rewrite
# workload, then each device's statistics.  /etc/demo.conf sets
#   CONFIG     the preset (/configs/procache-tlc.conf)
#   DEVICES    "name:keys name:keys" (keys comma-separated key=value)
#   SRC        a host directory to copy (the repository; a host path)
#   COMPILE    its C files to compile, relative to SRC
# The host's / is shared read-only over virtio-9p: the steps run chrooted in
# it (the host's cp, gcc, fio), the files they write live on the devices,
# ext4 mounted on the host's /run (a tmpfs here).  Progress: "demo: ..."
# lines; results: "DEMO-STEP dev step wall_s", `ssdctl stats` of each
# device (grouped) and print_stats blocks tagged by device.
. /lib.sh
. /etc/demo.conf

mount_host_root

load_module
names=
for d in $DEVICES; do
	name=${d%%:*}
	keys=$(echo "${d#*:}" | tr ',' ' ')
	# shellcheck disable=SC2086
	dev=$(ssdctl create "$name" --config "$CONFIG" $keys) || fail "create $name"
	echo "demo: created $name as $dev: $keys"
	mkfs.ext4 -q -E nodiscard "$dev" || fail "mkfs.ext4 $name"
	mkdir -p "/host/run/demo/$name"
	mount -o nodiscard "$dev" "/host/run/demo/$name" || fail "mount $name"
	ssdctl reset "$dev" || fail "reset $name"
	eval "dev_$name=$dev"
	names="$names $name"
done

uptime_s() {
	cut -d' ' -f1 /proc/uptime
}

# step NAME COMMAND: COMMAND on each device in turn, in the host's
# userland (absolute paths: busybox would run its own applets for bare
# names), with $W the device's directory (and $SRC, $COMPILE).
nsteps=6
n=0
step() {
	n=$((n + 1))
	for name in $names; do
		echo "demo: [$n/$nsteps] $1 on $name"
		t0=$(uptime_s)
		chroot /host /usr/bin/env PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin TMPDIR=/run \
			W="/run/demo/$name" SRC="$SRC" \
			COMPILE="$COMPILE" /bin/sh -c "$2" || fail "step $1 on $name: $2"
		sync
		echo "DEMO-STEP $name $1 $(echo "$(uptime_s) $t0" | awk '{ print $1 - $2 }')"
	done
}

# shellcheck disable=SC2016
{
copy='mkdir -p $W/a/src && tar -C $SRC --exclude=./build --exclude=./.git -cf - . |
	tar -C $W/a/src -xf - && cp -a /usr/include/linux $W/a/'
compile='rm -rf $W/obj && mkdir -p $W/obj && cd $W/a/src &&
	for f in $COMPILE; do echo $f; done |
	xargs -P 2 -n 1 sh -c '"'"'gcc -std=gnu11 -O0 -I. -c "$0" -o "$W/obj/$(echo "$0" | tr / _).o"'"'"''
rewrite='fio --name=db --filename=$W/db --size=8M --io_size=24M --rw=randwrite --bs=4k \
	--direct=1 --ioengine=psync --randrepeat=1 --output-format=terse > /dev/null'
}
step copy "$copy"
step compile "$compile"
step copy-again 'cp -a $W/a $W/b'
step rewrite "$rewrite"
step recompile "$compile"
step remove 'rm -rf $W/a'

for name in $names; do
	eval "dev=\$dev_$name"
	umount "/host/run/demo/$name" || fail "umount $name"
	ssdctl check "$dev" || fail "check $name"
	echo "== ssdctl stats $dev ($name: the workload, counters reset after mkfs)"
	ssdctl stats "$dev" || fail "stats $name"
	print_stats "$dev" "$name"
done
echo "DEMO-DONE"
