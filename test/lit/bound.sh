#!/bin/sh
# lit's %bound: runs a command under a wall-time and a memory bound, so that
# a test of glc's limits fails (instead of hanging the suite or swapping)
# when a limit stops working. GLC_BOUND_SECONDS (default 60) bounds the
# time; GLC_BOUND_MB (default 2048) the memory. For the normal build that
# is `ulimit -v`. The ASan build reserves terabytes of address space for
# its shadow memory, so a virtual-memory limit cannot be used there
# (lit.cfg.py passes GLC_ASAN=1 for it); ASan's own options stand in:
# max_allocation_size_mb with allocator_may_return_null=1 makes an
# allocation larger than the bound fail (reaching glc's out-of-memory
# report, as the ulimit does), and hard_rss_limit_mb kills a process whose
# resident memory passes twice the bound (twice: ASan keeps freed blocks in
# quarantine and adds shadow memory).
secs=${GLC_BOUND_SECONDS:-60}
mb=${GLC_BOUND_MB:-2048}
if [ -n "${GLC_ASAN:-}" ]; then
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}hard_rss_limit_mb=$((mb * 2))"
	ASAN_OPTIONS="$ASAN_OPTIONS:max_allocation_size_mb=$mb:allocator_may_return_null=1"
	export ASAN_OPTIONS
else
	ulimit -v $((mb * 1024)) || exit 125
fi
exec timeout -k 5 "$secs" "$@"
