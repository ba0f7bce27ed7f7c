//go:build unix

package runtime_test

import (
	"syscall"
	"testing"
)

// setUmask sets the process umask for the rest of the test and restores it
// afterwards. The umask is process-wide: callers must not run in parallel.
func setUmask(t *testing.T, mask int) {
	old := syscall.Umask(mask)
	t.Cleanup(func() { syscall.Umask(old) })
}
