package main

import (
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/skillgen/skillgen/gen"
	"github.com/skillgen/skillgen/internal/watch"
)

// A burst of writes (an editor's save, a git checkout) is one run: a run
// starts once the inputs have been quiet for quietPeriod, or maxDelay
// after the first change of a burst that does not end.
const (
	quietPeriod = 100 * time.Millisecond
	maxDelay    = time.Second
)

// watch runs generate, then again whenever one of its inputs changes,
// until SIGINT or SIGTERM; then it exits 0. A signal never interrupts a
// Write: one that arrives during a run lets the run finish, or stops it
// before it writes anything. A failed run prints its diagnostics, writes
// nothing (the last good output stays) and the watch goes on; a
// configuration that cannot work at all (no package name) ends it with
// status 1. See README.md, "Watch".
func (c *cli) watch(cfg gen.Config) int {
	stop := make(chan struct{})
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sig)
	go func() {
		<-sig
		close(stop)
		// A second signal is not caught: it ends the process at once, for
		// a run stuck on a file system that does not answer.
		signal.Stop(sig)
	}()
	stopped := func() bool {
		select {
		case <-stop:
			return true
		default:
			return false
		}
	}

	w := watch.New(os.Getenv("SKILLGEN_WATCH") == "poll")
	defer w.Close()
	var fellBack error
	for first := true; ; first = false {
		// The inputs are watched before the run reads them, so that no
		// change during the run goes unseen.
		in := gen.ResolveInputs(cfg)
		set := watch.Set{Files: in.Manifests, Trees: in.Roots}
		if in.WorkflowDir != "" {
			set.Trees = append([]string{in.WorkflowDir}, set.Trees...)
		}
		if err := w.Watch(set); err != nil {
			fmt.Fprintf(c.stderr, "skillgen: watch: %v\n", err)
		}
		if err := w.FellBack(); err != nil && err != fellBack {
			fellBack = err
			fmt.Fprintf(c.stderr, "skillgen: watch: %v; polling instead\n", err)
		}
		if first {
			fmt.Fprintf(c.stderr, "skillgen: watching %s and %s (%s); Ctrl-C stops\n",
				count(len(set.Files), "manifest path"), count(len(set.Trees), "directory tree"), w.Mode())
		}
		code := c.generateOnce(cfg, func() bool { return !stopped() })
		c.flush()
		if c.unworkable { // no change of the inputs can mend it
			return code
		}
		if !waitForChange(w, stop) {
			return exitOK
		}
	}
}

// waitForChange waits for a change and then for the burst it starts to
// end; it returns false when the watch is to stop instead.
func waitForChange(w *watch.Watcher, stop <-chan struct{}) bool {
	select {
	case <-stop:
		return false
	case <-w.C:
	}
	quiet := time.NewTimer(quietPeriod)
	defer quiet.Stop()
	late := time.NewTimer(maxDelay)
	defer late.Stop()
	for {
		select {
		case <-stop:
			return false
		case <-w.C:
			quiet.Reset(quietPeriod)
		case <-quiet.C:
			return true
		case <-late.C:
			return true
		}
	}
}

// flush writes out what main buffers, so that each run's lines appear as
// it ends.
func (c *cli) flush() {
	for _, w := range []io.Writer{c.stdout, c.stderr} {
		if f, ok := w.(interface{ Flush() error }); ok {
			f.Flush()
		}
	}
}
