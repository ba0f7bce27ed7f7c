//go:build unix

package gen

// Crash consistency (ARCHITECTURE.md, "Invariants"): kill -9 at any moment of a real
// `skillgen generate` leaves the output exactly the old state or exactly
// the new one, never a mix, as `skillgen check` judges it; the next run
// removes the leftovers.

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/skillgen/skillgen/internal/casetest"
)

// crashCLI builds cmd/skillgen into a temporary directory (once per test;
// the build cache makes the later ones a link step).
func crashCLI(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and runs the skillgen command")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	bin := filepath.Join(t.TempDir(), "skillgen")
	build := exec.Command("go", "build", "-o", bin, "../cmd/skillgen")
	build.Env = append(os.Environ(), "GOWORK=off", "GOTOOLCHAIN=local")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building skillgen: %v\n%s", err, out)
	}
	return bin
}

// crashWS is a workspace with two skill roots, A and B, of the same skills
// with different contents; a.toml lists root A, b.toml root B. Generating
// one over the other's output changes every blob and the Go file.
type crashWS struct {
	dir string
	bin string
}

func newCrashWS(t *testing.T, bin string, skills, files, size int) *crashWS {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, state := range []string{"a", "b"} {
		root := "root" + strings.ToUpper(state)
		writeTestFile(t, filepath.Join(dir, state+".toml"), fmt.Sprintf("[skills]\ndirectories = [%q]\n", root))
		for s := range skills {
			slug := fmt.Sprintf("skill-%02d", s)
			writeTestFile(t, filepath.Join(dir, root, slug, "SKILL.md"),
				fmt.Sprintf("---\nname: %s\ndescription: State %s of %s.\n---\nBody %s.\n", slug, state, slug, state))
			for f := range files {
				line := fmt.Sprintf("state %s, skill %d, file %d\n", state, s, f)
				writeTestFile(t, filepath.Join(dir, root, slug, "files", fmt.Sprintf("f%03d.txt", f)),
					strings.Repeat(line, max(1, size/len(line))))
			}
		}
	}
	if err := os.MkdirAll(filepath.Join(dir, ".insomnia"), 0o755); err != nil {
		t.Fatal(err)
	}
	return &crashWS{dir: dir, bin: bin}
}

func writeTestFile(t *testing.T, p, data string) {
	t.Helper()
	casetest.WriteFile(t, filepath.Dir(p), filepath.Base(p), data)
}

// cmd returns the command for `skillgen <sub>` on state ("a" or "b").
func (w *crashWS) cmd(sub, state string) *exec.Cmd {
	c := exec.Command(w.bin, sub, "-C", w.dir, "-manifest", state+".toml", "-workspace", w.dir, "-out", "out", "-pkg", "skills")
	c.Dir = w.dir
	// The hash cache, as a user's generate has it, but in the test's dir.
	c.Env = append(os.Environ(), "SKILLGEN_CACHE="+filepath.Join(w.dir, "hash-cache"))
	return c
}

// run runs `skillgen <sub>` on state to the end: its exit code (-1 if it
// could not run) and stderr. It is safe to call from any goroutine.
func (w *crashWS) run(sub, state string) (int, string) {
	c := w.cmd(sub, state)
	var stderr bytes.Buffer
	c.Stderr = &stderr
	err := c.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return 0, stderr.String()
	case errors.As(err, &exit):
		return exit.ExitCode(), stderr.String()
	}
	return -1, fmt.Sprintf("running skillgen %s: %v\n%s", sub, err, stderr.String())
}

// mustRun runs `skillgen <sub>` on state and fails unless it exits 0.
func (w *crashWS) mustRun(t *testing.T, sub, state string) string {
	t.Helper()
	code, stderr := w.run(sub, state)
	if code != 0 {
		t.Fatalf("skillgen %s (%s) exited %d:\n%s", sub, state, code, stderr)
	}
	return stderr
}

// outListing lists everything under out, recursively, as slash paths.
func outListing(t *testing.T, out string) []string {
	t.Helper()
	var names []string
	err := filepath.WalkDir(out, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(out, p)
		if rel != "." {
			names = append(names, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(names)
	return names
}

// TestCrashConsistency generates state A, then repeatedly starts a
// generate towards the other state and kills it with SIGKILL after a
// random delay spread over a whole run (every other one late in the run).
// After each kill, `check` against A and against B must pass for exactly
// one of them: the output is one whole state, plus leftovers that check
// reports as warnings. Kills that changed the output's listing landed
// while files were being written; enough of them must, for the test to
// mean something. A final clean generate leaves no leftovers.
func TestCrashConsistency(t *testing.T) {
	const skills, files = 20, 30
	w := newCrashWS(t, crashCLI(t), skills, files, 1000) // 620 files a state, all different
	w.mustRun(t, "generate", "a")
	w.mustRun(t, "check", "a")

	// How long a whole switch takes (process start to exit) on this
	// machine: the fastest of a few. Runs that finish before their kill
	// shorten it further, so that kills stay spread over a real run.
	full := time.Hour
	for _, s := range []string{"b", "a", "b", "a"} {
		start := time.Now()
		w.mustRun(t, "generate", s)
		full = min(full, time.Since(start))
	}
	t.Logf("a full switch takes %v", full)

	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 5))
	state, other := "a", "b"
	var kills, midWrite, afterSwitch, finished int
	out := filepath.Join(w.dir, "out")
	deadline := time.Now().Add(30 * time.Second)
	for run := 0; ; run++ {
		if kills >= 30 && midWrite >= 5 && afterSwitch >= 1 || run >= 200 || time.Now().After(deadline) {
			break
		}
		listed := outListing(t, out)
		c := w.cmd("generate", other)
		var stderr bytes.Buffer
		c.Stderr = &stderr
		started := time.Now()
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		// Every other kill comes late in the run, where the switch and
		// the removal of the old blobs happen.
		delay := time.Duration(rng.Int64N(int64(full)))
		if run%2 == 1 {
			delay = full/2 + delay/2
		}
		time.Sleep(delay)
		c.Process.Signal(syscall.SIGKILL)
		err := c.Wait()
		killed := false
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			if ws, ok := exit.Sys().(syscall.WaitStatus); ok && ws.Signaled() && ws.Signal() == syscall.SIGKILL {
				killed = true
			}
		}
		if !killed {
			if err != nil {
				t.Fatalf("generate %s failed on its own: %v\n%s", other, err, stderr.String())
			}
			finished++
			full = min(full, time.Since(started))
		} else {
			kills++
		}

		var codeB int
		var outB string
		checked := make(chan struct{})
		go func() { // both checks at once: they only read
			defer close(checked)
			codeB, outB = w.run("check", "b")
		}()
		codeA, outA := w.run("check", "a")
		<-checked
		if (codeA == 0) == (codeB == 0) {
			t.Fatalf("run %d, killed after %v: check a exited %d, check b exited %d; exactly one state must be on disk\ncheck a:\n%s\ncheck b:\n%s\nlisting: %q",
				run, delay, codeA, codeB, outA, outB, outListing(t, filepath.Join(w.dir, "out")))
		}
		now := "a"
		if codeB == 0 {
			now = "b"
		}
		// A kill that changed the listing landed while files were being
		// written (or removed); one that also switched the state landed
		// after the Go file was renamed into place.
		if killed && !slices.Equal(listed, outListing(t, out)) {
			midWrite++
			if now == other {
				afterSwitch++
			}
		}
		if now != state {
			state, other = other, state
		}
	}
	t.Logf("%d kills: %d while writing, %d of them after the switch; %d runs finished before their kill",
		kills, midWrite, afterSwitch, finished)
	if kills < 30 {
		t.Errorf("only %d runs were killed before they finished; want 30", kills)
	}
	if midWrite == 0 {
		t.Errorf("no kill landed while files were being written; the test shows nothing")
	}

	// A clean run removes every leftover.
	w.mustRun(t, "generate", state)
	stderr := w.mustRun(t, "check", state)
	if strings.Contains(stderr, "leftover") {
		t.Errorf("leftovers after a clean generate:\n%s", stderr)
	}
	for _, name := range outListing(t, filepath.Join(w.dir, "out")) {
		if name != GoFileName && name != DataDir && !(strings.HasPrefix(name, DataDir+"/") && isBlobName(strings.TrimPrefix(name, DataDir+"/"))) {
			t.Errorf("after a clean generate, out holds %s", name)
		}
	}
	if n := len(outListing(t, filepath.Join(w.dir, "out"))); n != 3+skills*(files+1) {
		t.Errorf("out holds %d entries, want the Go file, the data directory, the table and %d blobs", n, skills*(files+1))
	}
}
