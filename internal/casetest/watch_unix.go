//go:build unix

package casetest

import (
	"os"
	"syscall"
	"testing"
	"time"
)

// FifoWatch notices whether anyone opens the named pipe at p for reading:
// a writer blocked in open(2) returns as soon as a reader opens the pipe.
// opened reports it; the watcher is released at cleanup.
func FifoWatch(t *testing.T, p string) (opened func() bool) {
	t.Helper()
	ch := make(chan *os.File, 1)
	go func() {
		f, err := os.OpenFile(p, os.O_WRONLY, 0) // blocks until a reader opens p
		if err != nil {
			f = nil
		}
		ch <- f
	}()
	// Let the writer reach open(2) before anything else can open p.
	time.Sleep(50 * time.Millisecond)
	var w *os.File
	done := false
	t.Cleanup(func() {
		// Release a still-blocked writer by opening the read side.
		if r, err := os.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK, 0); err == nil {
			if !done {
				select {
				case w = <-ch:
				case <-time.After(5 * time.Second):
				}
			}
			r.Close()
		}
		if w != nil {
			w.Close()
		}
	})
	return func() bool {
		select {
		case w = <-ch:
			done = true
			return true
		case <-time.After(20 * time.Millisecond):
			return false
		}
	}
}
