// Package fsutil holds the file-system helpers that compile and gen share:
// reading many files on every core, copying through pooled buffers, and
// opening without blocking on special files.
package fsutil

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// Parallel calls f(i) for every i in [0, n) on all CPUs. Results go to
// index i of the caller's slices, so order never depends on scheduling.
func Parallel(n int, f func(i int)) {
	workers := min(runtime.GOMAXPROCS(0), n)
	if workers <= 1 {
		for i := range n {
			f(i)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				f(i)
			}
		}()
	}
	wg.Wait()
}
