//go:build unix

package gen

// Concurrency (ARCHITECTURE.md, "Invariants"): generate runs on one output take turns
// through an advisory lock on the output directory itself; they all
// succeed and leave the complete output, with no lock file in -out; a
// holder killed with SIGKILL never blocks the next run; check takes no
// lock.

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// concurrentRuns starts one `skillgen generate` per state at once and
// waits for all; it fails unless every one exits 0.
func concurrentRuns(t *testing.T, w *crashWS, states ...string) {
	t.Helper()
	type result struct {
		code   int
		stderr string
	}
	results := make(chan result, len(states))
	for _, s := range states {
		go func() {
			code, stderr := w.run("generate", s)
			results <- result{code, stderr}
		}()
	}
	for range states {
		if r := <-results; r.code != 0 {
			t.Errorf("a concurrent generate exited %d:\n%s", r.code, r.stderr)
		}
	}
}

// cleanOutput fails unless out holds exactly the Go file, the data
// directory and blobs: no lock file, no temp file, nothing else.
func cleanOutput(t *testing.T, out string, blobs int) {
	t.Helper()
	names := outListing(t, out)
	for _, name := range names {
		if name != GoFileName && name != DataDir && !(strings.HasPrefix(name, DataDir+"/") && isBlobName(strings.TrimPrefix(name, DataDir+"/"))) {
			t.Errorf("out holds %s", name)
		}
	}
	if len(names) != 2+blobs {
		t.Errorf("out holds %d entries, want the Go file, the data directory and %d blobs", len(names), blobs)
	}
}

// TestConcurrentGenerate runs six generate processes on one output at once:
// on an empty output, over the other state, and with both states mixed.
// Without the lock, one run removes another's temp files (as leftovers) or
// blobs (as stale) mid-write, and that run fails or the output is
// incomplete.
func TestConcurrentGenerate(t *testing.T) {
	const skills, files = 20, 20
	w := newCrashWS(t, crashCLI(t), skills, files, 1000)
	out := filepath.Join(w.dir, "out")
	blobs := skills*(files+1) + 1 // and the table

	concurrentRuns(t, w, "a", "a", "a", "a", "a", "a")
	if code, stderr := w.run("check", "a"); code != 0 || strings.Contains(stderr, "leftover") {
		t.Errorf("after six concurrent runs on an empty output, check exits %d:\n%s", code, stderr)
	}
	cleanOutput(t, out, blobs)

	concurrentRuns(t, w, "b", "b", "b", "b", "b", "b")
	if code, stderr := w.run("check", "b"); code != 0 || strings.Contains(stderr, "leftover") {
		t.Errorf("after six concurrent runs over the other state, check exits %d:\n%s", code, stderr)
	}
	cleanOutput(t, out, blobs)

	// Mixed: whichever ran last wins, completely.
	concurrentRuns(t, w, "a", "b", "a", "b", "a", "b")
	codeA, stderrA := w.run("check", "a")
	codeB, stderrB := w.run("check", "b")
	passed := stderrA
	if codeB == 0 {
		passed = stderrB
	}
	if (codeA == 0) == (codeB == 0) || strings.Contains(passed, "leftover") {
		t.Errorf("after mixed concurrent runs, check a exits %d and check b %d; want exactly one, with no leftovers:\n%s\n%s", codeA, codeB, stderrA, stderrB)
	}
	cleanOutput(t, out, blobs)
}

// lockHolderEnv makes TestConcurrencyLockHolderChild take the output lock.
const lockHolderEnv = "SKILLGEN_TEST_HOLD_LOCK"

// TestConcurrencyLockHolderChild is not a test: run by
// TestConcurrentKilledLockHolder as a separate process, it takes the lock
// generate takes on a directory, says so, and holds it until killed.
func TestConcurrencyLockHolderChild(t *testing.T) {
	dir := os.Getenv(lockHolderEnv)
	if dir == "" {
		t.Skip("a helper process of TestConcurrentKilledLockHolder")
	}
	unlock, err := lockDir(dir)
	if err != nil {
		fmt.Println("error", err)
		os.Exit(1)
	}
	fmt.Println("locked")
	time.Sleep(time.Hour) // until killed
	unlock()              // keeps the lock's file reachable: never closed by a finalizer
}

// TestConcurrentKilledLockHolder shows that the lock serializes writers and
// dies with its holder. A process holds the lock: generate waits for it,
// while check (which takes no lock) runs; the holder is killed with
// SIGKILL and the waiting generate completes. Then a real generate is
// killed while it holds the lock (seen in /proc/locks) and the next one
// runs to the end.
func TestConcurrentKilledLockHolder(t *testing.T) {
	w := newCrashWS(t, crashCLI(t), 20, 20, 1000)
	out := filepath.Join(w.dir, "out")
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}

	holder := exec.Command(os.Args[0], "-test.run=^TestConcurrencyLockHolderChild$")
	holder.Env = append(os.Environ(), lockHolderEnv+"="+out)
	stdout, err := holder.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := holder.Start(); err != nil {
		t.Fatal(err)
	}
	defer holder.Process.Kill()
	if line, _ := bufio.NewReader(stdout).ReadString('\n'); line != "locked\n" {
		t.Fatalf("the lock holder says %q", line)
	}

	gen := w.cmd("generate", "a")
	var genErr bytes.Buffer
	gen.Stderr = &genErr
	if err := gen.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- gen.Wait() }()
	select {
	case err := <-done:
		t.Fatalf("generate finished (%v) while another process held the lock:\n%s", err, genErr.String())
	case <-time.After(time.Second):
	}
	// check takes no lock: it finishes while the lock is held (and finds
	// the output stale: nothing has been written yet).
	checked := make(chan int, 1)
	go func() {
		code, _ := w.run("check", "a")
		checked <- code
	}()
	select {
	case code := <-checked:
		if code != 1 {
			t.Errorf("check on an empty output exited %d, want 1 (stale)", code)
		}
	case <-time.After(20 * time.Second):
		t.Fatalf("check blocked on the lock")
	}

	holder.Process.Signal(syscall.SIGKILL)
	holder.Wait()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("generate after the holder was killed: %v\n%s", err, genErr.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("generate still blocked 30s after the lock holder was killed")
	}
	w.mustRun(t, "check", "a")
	cleanOutput(t, out, 20*21+1) // the blobs and the table

	// A real generate, killed while it holds the lock.
	ino := dirInode(t, out)
	state := "b"
	killedHolding := false
	for try := 0; try < 10 && !killedHolding; try++ {
		c := w.cmd("generate", state)
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		pid := c.Process.Pid
		holding := false
		for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline) && !holding; {
			if holding = holdsFlock(t, pid, ino); !holding {
				time.Sleep(200 * time.Microsecond)
			}
		}
		c.Process.Signal(syscall.SIGKILL)
		err := c.Wait()
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			if ws, ok := exit.Sys().(syscall.WaitStatus); ok && ws.Signaled() && holding {
				killedHolding = true
				continue
			}
		}
		// It finished first: try again towards the other state.
		if state == "b" {
			state = "a"
		} else {
			state = "b"
		}
	}
	if !killedHolding {
		t.Fatalf("could not kill a generate while it held the lock")
	}
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		if code, stderr := w.run("generate", state); code != 0 {
			t.Errorf("generate after a holder was killed exited %d:\n%s", code, stderr)
		}
	}()
	select {
	case <-finished:
	case <-time.After(30 * time.Second):
		t.Fatalf("generate blocked by the lock of a killed run")
	}
	if code, stderr := w.run("check", state); code != 0 || strings.Contains(stderr, "leftover") {
		t.Errorf("check after the recovery run exits %d:\n%s", code, stderr)
	}
	cleanOutput(t, out, 20*21+1) // the blobs and the table
}

// dirInode returns the inode number of dir.
func dirInode(t *testing.T, dir string) uint64 {
	t.Helper()
	info, err := os.Stat(dir)
	if err != nil {
		t.Fatal(err)
	}
	return uint64(info.Sys().(*syscall.Stat_t).Ino)
}

// holdsFlock reports whether process pid holds a FLOCK on inode ino, from
// /proc/locks ("1: FLOCK  ADVISORY  WRITE 1234 fd:01:5678 0 EOF"). Where
// /proc/locks cannot be read, the test cannot tell and fails.
func holdsFlock(t *testing.T, pid int, ino uint64) bool {
	t.Helper()
	data, err := os.ReadFile("/proc/locks")
	if err != nil {
		t.Skipf("cannot see who holds locks: %v", err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.Fields(line)
		if len(f) < 6 || f[1] != "FLOCK" { // waiters read "2: -> FLOCK …"
			continue
		}
		dev := strings.Split(f[5], ":")
		if f[4] == strconv.Itoa(pid) && len(dev) == 3 && dev[2] == strconv.FormatUint(ino, 10) {
			return true
		}
	}
	return false
}
