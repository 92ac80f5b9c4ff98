# Sourced by the real-disk timing tests after TIERPROBE is set: they run
# one at a time, even when make -j starts them side by side (each disturbs
# the other's timing).  The lock is held until the test exits.
if command -v flock >/dev/null; then
	exec 9> "$(dirname "$TIERPROBE")/../tests/timing.lock" &&
	    flock 9 || { echo "FAIL: cannot lock tests/timing.lock"; exit 1; }
fi
