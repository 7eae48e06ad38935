# stats_watch.sh - `ssdctl stats` for people and `ssdctl watch`.  Two
# devices: small-test.conf as it is (no cache, no dedup: those groups must
# be left out) and with an SLC cache and dedup (their groups shown).  The
# watch test cannot race: the reading before the write is saved first
# (`stats --json`), the write finishes (fsync), then `watch --since` reports
# the change since that reading.
. /lib.sh
load_module
plain=$(ssdctl create plain --config /configs/small-test.conf) || fail "create plain"
both=$(ssdctl create both --config /configs/small-test.conf slc_blocks_per_chip=8 \
	cache_policy=always dedup=1 dedup_filter_live_chunks=1) || fail "create both"
for dev in "$plain" "$both"; do
	dd if=/dev/urandom of=/tmp/data bs=1M count=2 2>/dev/null || fail "dd urandom"
	# The same 2 MiB twice, a sync between: dedup finds the second copy
	# (with the filter over the live chunks: Kim's sees the buffer only).
	dd if=/tmp/data of="$dev" bs=1M count=2 conv=fsync 2>/dev/null || fail "dd 1"
	dd if=/tmp/data of="$dev" bs=1M seek=2 count=2 conv=fsync 2>/dev/null || fail "dd 2"
	echo "GROUPED-BEGIN $dev"
	ssdctl stats "$dev" || fail "stats $dev"
	echo "GROUPED-END $dev"
	ssdctl stats "$dev" --raw > /tmp/raw || fail "stats --raw $dev"
	grep -q "^host_write_bytes  *4194304$" /tmp/raw || fail "raw form: $(head -n 3 /tmp/raw)"
	# The erase-count histogram: a bucket width and 16 buckets, in --raw and --json.
	echo "RAW-BEGIN $dev"
	grep -E "^(total_blocks|erase_count_max|erase_hist_[a-z0-9_]+) " /tmp/raw
	echo "RAW-END $dev"
	ssdctl stats "$dev" --json > /tmp/stats.json || fail "stats --json $dev"
	[ "$(grep -c '"erase_hist_' /tmp/stats.json)" = 17 ] || fail "json: no histogram"
done

ssdctl stats "$plain" --json > /tmp/before.json || fail "stats --json"
dd if=/dev/urandom of="$plain" bs=1M seek=8 count=4 conv=fsync 2>/dev/null || fail "dd watched"
echo "WATCH-BEGIN since"
ssdctl watch "$plain" --since /tmp/before.json --count 1 || fail "watch --since"
echo "WATCH-END since"
echo "WATCH-BEGIN idle"
ssdctl watch "$plain" --interval 0.2 --count 2 || fail "watch idle"
echo "WATCH-END idle"

# Bad input: a clear message, status 2 (usage) or 1, nothing printed to stdout.
for args in "--interval 0" "--interval -1" "--interval x" "--count 0" "--count 1.5" \
	"--bogus"; do
	# shellcheck disable=SC2086
	if ssdctl watch "$plain" $args > /tmp/out 2> /tmp/err; then
		fail "watch $args accepted"
	fi
	[ -s /tmp/out ] && fail "watch $args printed: $(cat /tmp/out)"
	echo "refused watch $args: $(head -n 1 /tmp/err)"
done
echo "not json" > /tmp/bad.json
for file in /tmp/bad.json /tmp/missing.json; do
	if ssdctl watch "$plain" --since "$file" --count 1 > /tmp/out 2> /tmp/err; then
		fail "watch --since $file accepted"
	fi
	[ -s /tmp/out ] && fail "watch --since $file printed: $(cat /tmp/out)"
	echo "refused watch --since $file: $(cat /tmp/err)"
done
ssdctl destroy plain || fail "destroy plain"
ssdctl destroy both || fail "destroy both"
echo "stats_watch ok"
