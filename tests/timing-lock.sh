# Sourced by the real-disk timing tests after TIERPROBE is set: they run
# one at a time, even when make -j starts them side by side, or when
# several build trees on one machine run their tests at once (each
# disturbs the others' timing).  The lock is one per machine,
# $TIERPROBE_TIMING_LOCK (default /tmp/tierprobe-timing.lock), held until
# the test exits.
if command -v flock >/dev/null; then
	tp_lock=${TIERPROBE_TIMING_LOCK:-/tmp/tierprobe-timing.lock}
	exec 9>> "$tp_lock" &&
	    flock 9 || { echo "FAIL: cannot lock $tp_lock"; exit 1; }
fi
