#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `make fuzz` inside the VM: the packet fuzzer (wind_fuzz) at full strength,
# then the syscall fuzzer (wind_sysfuzz), with the figures a reader wants
# around them: duration, the receiver's /proc/net/wind_stat counters (the
# packet fuzzer's namespaces are its own and go away with it, so they are
# sampled while it runs and the last sample is printed), memory before and
# after, then rmmod and the kernel log since the start.
#
#   WIND_FUZZ_PACKETS    crafted packets (default 1000000)
#   WIND_SYSFUZZ_OPS     syscall-fuzzer operations (default 100000)
#   WIND_FUZZ_BIN        the packet fuzzer binary (default ./wind_fuzz; make fuzz
#                        builds one whose harness allows more than 30 s a test)
#   WIND_FUZZ_ONLY       "packet" or "sys" to run only one of them
#
# Not a test of the suite (no wind_ prefix): run by `make fuzz`.

set -u
cd "$(dirname "$0")" || exit 1
export WIND_FUZZ_PACKETS=${WIND_FUZZ_PACKETS:-1000000}
export WIND_SYSFUZZ_OPS=${WIND_SYSFUZZ_OPS:-100000}
FUZZ_BIN=${WIND_FUZZ_BIN:-./wind_fuzz}
ONLY=${WIND_FUZZ_ONLY:-}
SNAP=$(mktemp -d /tmp/windfuzz.XXXXXX)
rc=0

mem() {
	for f in /sys/kernel/slab/[!:]*/shrink; do echo 1 > "$f"; done 2>/dev/null
	echo 1 > /proc/sys/vm/stat_refresh 2>/dev/null
	awk '/^(MemAvailable|Slab|SUnreclaim):/ { printf "%s %s kB  ", $1, $2 }' /proc/meminfo
	awk '$1 ~ /^(skbuff_head_cache|kmalloc-512|kmalloc-192|kmalloc-1k|kmalloc-2k|kmalloc-4k)$/ {
		printf "%s %s  ", $1, $2 }' /proc/slabinfo 2>/dev/null
	awk '/^nr_foll_pin_(acquired|released) / { printf "%s %s  ", $1, $2 }' /proc/vmstat
	echo
}

MARK="wind-fuzz-full: start $$ $(date +%s)"
echo "$MARK" > /dev/kmsg 2>/dev/null
echo "# memory before: $(mem)"

if [ "$ONLY" != sys ]; then
	echo "# packet fuzzer: $WIND_FUZZ_PACKETS crafted packets ($FUZZ_BIN)"
	t0=$(date +%s)
	"$FUZZ_BIN" &
	fpid=$!
	# sample every receiver namespace's counters while the fuzzer runs
	while kill -0 "$fpid" 2>/dev/null; do
		for ns in $(ip netns list 2>/dev/null | awk '$1 ~ /^wind1-/ { print $1 }'); do
			ip netns exec "$ns" cat /proc/net/wind_stat > "$SNAP/$ns.tmp" 2>/dev/null &&
				[ -s "$SNAP/$ns.tmp" ] && mv "$SNAP/$ns.tmp" "$SNAP/$ns"
			ip netns exec "$ns" cat /proc/net/wind > "$SNAP/$ns.sock.tmp" 2>/dev/null &&
				mv "$SNAP/$ns.sock.tmp" "$SNAP/$ns.sock"
		done
		sleep 2
	done
	wait "$fpid"
	frc=$?
	echo "# packet fuzzer: exit $frc after $(( $(date +%s) - t0 )) s"
	[ $frc -eq 0 ] || rc=1
	for f in "$SNAP"/wind1-*; do
		[ -e "$f" ] || continue
		case "$f" in *.sock|*.tmp) continue ;; esac
		echo "# receiver counters, last sample of ${f##*/} (before: a new namespace, all 0):"
		awk '$2 != 0 { printf "#   %-18s %s\n", $1, $2 }' "$f"
		echo "# receiver sockets, last sample:"
		sed 's/^/#   /' "$f.sock"
	done
	echo "# memory after the packet fuzzer: $(mem)"
fi

if [ "$ONLY" != packet ]; then
	echo "# syscall fuzzer: $WIND_SYSFUZZ_OPS operations"
	t0=$(date +%s)
	./wind_sysfuzz
	frc=$?
	echo "# syscall fuzzer: exit $frc after $(( $(date +%s) - t0 )) s"
	[ $frc -eq 0 ] || rc=1
fi

# the module must unload, and the kernel log must be clean
for _ in $(seq 100); do
	grep -q '^wind ' /proc/modules || break
	rmmod wind 2>/dev/null && break
	sleep 0.05
done
if grep -q '^wind ' /proc/modules; then
	echo "# rmmod wind failed: $(rmmod wind 2>&1)"
	rc=1
fi
echo "# memory after rmmod: $(mem)"
BAD='WARNING:|BUG:|Oops|Call Trace|lockdep|KASAN|UBSAN|kmemleak|general protection|refcount_t:|list_add corruption|list_del corruption|[Rr][Cc][Uu].*[Ss]tall|blocked for more than|soft lockup|Kernel panic'
bad=$(dmesg | awk -v m="$MARK" 'found { print } index($0, m) { found = 1 }' | grep -E -A 20 "$BAD")
if [ -n "$bad" ]; then
	echo "# kernel log since the start:"
	printf '%s\n' "$bad" | sed 's/^/# dmesg: /' | head -n 200
	rc=1
else
	echo "# kernel log clean"
fi
rm -rf "$SNAP"
echo "# fuzz-full: $([ $rc -eq 0 ] && echo PASS || echo FAIL)"
exit $rc
