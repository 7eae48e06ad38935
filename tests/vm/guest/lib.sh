# lib.sh - helpers for guest scripts (sourced; busybox sh).
# Prints "FAIL: ..." and exits non-zero on the first broken expectation.

CFS=/sys/kernel/config/ssdemu

fail() {
	echo "FAIL: $*"
	exit 1
}

# print_stats DEV TAG: JSON stats between markers the host test parses.
print_stats() {
	echo "STATS-BEGIN $2"
	ssdctl stats "$1" --json || fail "ssdctl stats $1"
	echo "STATS-END $2"
}

# kmsg_mark: a numbered line in the kernel log; kmsg_since prints the
# kernel's lines after the last mark.  A fixed "tail -n N" of dmesg is not
# enough: the platform logs when it likes (clocksource and hrtimer notes
# under a loaded TCG host), and such a line can push the one looked for out.
KMSG_SEQ=0
kmsg_mark() {
	KMSG_SEQ=$((KMSG_SEQ + 1))
	echo "lib.sh mark $KMSG_SEQ" > /dev/kmsg
}

kmsg_since() {
	dmesg | sed -n "/lib\.sh mark $KMSG_SEQ\$/,\$p" | tail -n +2
}

# wait_until SECONDS WHAT COMMAND [ARG...]: poll COMMAND every 0.1 s until
# it succeeds; fail naming WHAT after SECONDS of guest time (a bound far
# above what the condition needs: a slow TCG run waits, never fails).
wait_until() {
	_wu_limit=$1
	_wu_what=$2
	shift 2
	read -r _wu_t0 _ < /proc/uptime
	until "$@"; do
		read -r _wu_now _ < /proc/uptime
		[ $((${_wu_now%.*} - ${_wu_t0%.*})) -lt "$_wu_limit" ] ||
			fail "waited $_wu_limit s for $_wu_what"
		sleep 0.1
	done
}

# disk_wrote DEV: DEV completed a write (field 5 of /sys/block/DISK/stat;
# reads say nothing: the kernel's partition scan reads every new disk).
disk_wrote() {
	read -r _ _ _ _ _dw_w _ < "/sys/block/${1#/dev/}/stat"
	[ "$_dw_w" != 0 ]
}

# blktrace_start DEV DIR [ARG...]: blktrace on DEV writing its files into
# DIR (its pid in BT_PID, its stdout and stderr in DIR.out and DIR.err);
# returns once blktrace's setup has registered its tracepoints, and the
# caller must run no I/O before that.  Registering a tracepoint patches
# kernel text (an int3 first, then the new bytes); under TCG a CPU that runs
# a site being patched can take the int3 as an oops ("Oops: int3" in
# dd_insert_requests during a read, once in a CI run).  The wait needs no
# I/O: reading /sys/block/DISK/trace/enable takes the queue's debugfs_mutex,
# which the BLKTRACESETUP ioctl holds until its tracepoints are registered
# (kernel/trace/blktrace.c, blk_trace_setup), and reads 1 only after that.
# Events are recorded from BLKTRACESTART on, a moment later: a caller that
# needs every request must still see blktrace's first events before its
# workload (timing.sh's probes).  blktrace_stop: stop it and wait (its
# tracepoints are unregistered then: no I/O may run until it returns).
blktrace_start() {
	_bt_dev=$1
	_bt_dir=$2
	shift 2
	rm -rf "$_bt_dir" && mkdir -p "$_bt_dir" || fail "mkdir $_bt_dir"
	blktrace -d "$_bt_dev" "$@" -D "$_bt_dir" -o trace \
		> "$_bt_dir.out" 2> "$_bt_dir.err" &
	BT_PID=$!
	wait_until 300 "blktrace to set up $_bt_dev" blktrace_set_up "$_bt_dev"
}

blktrace_set_up() {
	kill -0 "$BT_PID" 2>/dev/null ||
		fail "blktrace ended: $(cat "$_bt_dir.err")"
	read -r _bt_on < "/sys/block/${1#/dev/}/trace/enable"
	[ "$_bt_on" = 1 ]
}

blktrace_stop() {
	kill -INT "$BT_PID" || fail "stop blktrace"
	wait "$BT_PID"
}

# expect_refused ATTR_PATH VALUE ERRNO_TEXT KERNEL_MESSAGE
expect_refused() {
	kmsg_mark
	if echo "$2" > "$1" 2>/tmp/refused.err; then
		fail "$1 accepted '$2'"
	fi
	grep -q "$3" /tmp/refused.err || fail "$1=$2: wrong error: $(cat /tmp/refused.err)"
	# The kernel logs the refusal before the write returns: it is there.
	kmsg_since | grep -q "$4" || fail "$1=$2: no kernel message '$4'"
	echo "refused $(basename "$1")=$2: $(kmsg_since | grep "$4" | tail -n 1 |
		sed 's/^\[[^]]*\] //')"
}

load_module() {
	insmod /lib/ssdemu/ssdemu.ko || fail "insmod ssdemu"
}

# mount_host_root: the host's / shared read-only over virtio-9p (tag
# hostroot) on /host, with its /proc, /sys, /dev and /run mounted, so that
# steps can run chrooted in it (the host's tools, files on a tmpfs /run).
mount_host_root() {
	for mod in virtio_pci 9pnet_virtio 9p; do
		[ -d /sys/module/$mod ] || modprobe $mod || fail "module $mod"
	done
	mkdir -p /host
	mount -t 9p -o trans=virtio,version=9p2000.L,ro hostroot /host ||
		fail "mount the host's / (9p)"
	for fs in proc sysfs devtmpfs tmpfs; do
		case $fs in
		proc) dir=/host/proc ;; sysfs) dir=/host/sys ;;
		devtmpfs) dir=/host/dev ;; tmpfs) dir=/host/run ;;
		esac
		mount -t $fs $fs $dir || fail "mount $fs on $dir"
	done
}

# summary DEV TITLE: one line of what the flash went through since the
# last reset.
summary() {
	ssdctl stats "$1" --raw | awk -v title="$2" '
		{ v[$1] = $2 }
		END {
			printf "%-34s host wrote %5d MiB, flash programmed %5d MiB, WAF %s, GC moved %d pages, %d erases\n",
				title, v["host_write_bytes"] / 1048576,
				v["flash_program_pages"] * v["page_size_bytes"] / 1048576,
				v["waf"], v["gc_relocated_pages"], v["flash_erase_blocks"]
		}'
}
