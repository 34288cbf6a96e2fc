package testenv

import "testing"

// TestNeedsProcessesSkipsUnderShort: under -short a test past
// NeedsProcesses never runs its body and is reported skipped with
// ShortReason; without -short it runs.
func TestNeedsProcessesSkipsUnderShort(t *testing.T) {
	ran := false
	var inner *testing.T
	t.Run("gated", func(t *testing.T) {
		inner = t
		NeedsProcesses(t)
		ran = true
	})
	if ran == testing.Short() || inner.Skipped() != testing.Short() {
		t.Errorf("-short %v: the body ran %v, skipped %v", testing.Short(), ran, inner.Skipped())
	}
}
