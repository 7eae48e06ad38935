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

# expect_refused ATTR_PATH VALUE ERRNO_TEXT KERNEL_MESSAGE
expect_refused() {
	if echo "$2" > "$1" 2>/tmp/refused.err; then
		fail "$1 accepted '$2'"
	fi
	grep -q "$3" /tmp/refused.err || fail "$1=$2: wrong error: $(cat /tmp/refused.err)"
	dmesg | tail -n 5 | grep -q "$4" || fail "$1=$2: no kernel message '$4'"
	# The matching line, not the last one: the platform may log in between
	# (clocksource notes under TCG).
	echo "refused $(basename "$1")=$2: $(dmesg | tail -n 5 | grep "$4" | tail -n 1 |
		sed 's/^\[[^]]*\] //')"
}

load_module() {
	insmod /lib/ssdemu/ssdemu.ko || fail "insmod ssdemu"
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
