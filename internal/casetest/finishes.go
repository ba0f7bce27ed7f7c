package casetest

import (
	"testing"
	"time"
)

// Finishes runs f and fails the test if it has not returned within d. A
// blocked f is abandoned (its goroutine stays blocked until the test
// binary exits).
func Finishes(t *testing.T, d time.Duration, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("%s did not finish within %v: it blocks (a special file opened? a symlink loop followed?)", what, d)
	}
}
