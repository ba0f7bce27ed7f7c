//go:build unix

package main

import (
	"bufio"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/skillgen/skillgen/internal/casetest"
)

// watchWorkspace has one in-house Workflow and two skills in one root;
// the watch test changes it step by step.
const watchWorkspace = `
-- .insomnia/manifest.toml --
[skills]
directories = ["skills"]
-- .insomnia/memory/workflow/deploy.md --
---
description: Deploy the app.
---
Deploy body.
-- skills/alpha/SKILL.md --
---
name: alpha
description: Alpha skill.
---
Alpha body.
-- skills/beta/SKILL.md --
---
name: beta
description: Beta skill.
---
Beta body.
-- more/epsilon/SKILL.md --
---
name: epsilon
description: In a root the manifest does not list yet.
---
`

// watched is a running skillgen generate -watch.
type watched struct {
	t     *testing.T
	cmd   *exec.Cmd
	lines chan string // stderr, line by line; closed at exit
	log   []string    // every line read so far, for failure messages
}

var (
	watchSummary = regexp.MustCompile(`^skillgen: (\d+) workflows?, (\d+) skills?, (\d+) shadowed, (\d+) skipped, .*; \d+ written, \d+ removed in out$`)
	watchFailed  = regexp.MustCompile(`^skillgen: generate failed: .*; nothing was written$`)
)

// next returns the next line of stderr matching re, failing the test at
// the deadline or at the end of the output.
func (w *watched) next(what string, re *regexp.Regexp, deadline time.Time) []string {
	w.t.Helper()
	timer := time.NewTimer(time.Until(deadline))
	defer timer.Stop()
	for {
		select {
		case line, ok := <-w.lines:
			if !ok {
				w.t.Fatalf("%s: skillgen exited while waiting for %s; its stderr:\n%s", what, re, strings.Join(w.log, "\n"))
			}
			w.log = append(w.log, line)
			if m := re.FindStringSubmatch(line); m != nil {
				return m
			}
		case <-timer.C:
			w.t.Fatalf("%s: no line matching %s in time; stderr so far:\n%s", what, re, strings.Join(w.log, "\n"))
		}
	}
}

// TestGenerateWatch runs generate -watch and changes every kind of input
// under it, checking after each change that a run printed its summary and
// that the output is what a fresh generate would write (skillgen check).
// A run that fails leaves the last good output. It runs in a subdirectory
// of the workspace, so that a manifest made there takes over, as a fresh
// generate would find it. SIGINT ends it with status 0 and no temp file
// anywhere. Both watchers: inotify (the default on
// Linux) and polling.
func TestGenerateWatch(t *testing.T) {
	for _, mode := range []string{"", "poll"} {
		t.Run("SKILLGEN_WATCH="+mode, func(t *testing.T) {
			t.Parallel()
			testWatch(t, mode)
		})
	}
}

func testWatch(t *testing.T, mode string) {
	ws := tempDir(t)
	writeTree(t, ws, watchWorkspace)
	cwd := filepath.Join(ws, "agent") // the manifest is found by walking up
	if err := os.Mkdir(cwd, 0o755); err != nil {
		t.Fatal(err)
	}
	cache := filepath.Join(tempDir(t), "cache")
	// -max-file-size makes one big file fail the whole run (size-limit).
	args := []string{"-out", "out", "-pkg", "skills", "-max-file-size", "4096"}
	env := []string{"SKILLGEN_CACHE=" + cache, "SKILLGEN_WATCH=" + mode}

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := skillgenCmd(ctx, t, cwd, env, append([]string{"generate", "-watch"}, args...)...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w := &watched{t: t, cmd: cmd, lines: make(chan string, 1000)}
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			w.lines <- sc.Text()
		}
		close(w.lines)
	}()
	defer func() {
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
			cmd.Wait()
		}
	}()

	// settled waits for a run whose summary has these counts and after
	// which skillgen check finds the output up to date. (A burst of
	// writes that a loaded machine spreads over two runs prints two
	// summaries: the first may precede the last write.)
	settled := func(step string, workflows, skills, skipped int) {
		t.Helper()
		deadline := time.Now().Add(30 * time.Second)
		for {
			m := w.next(step, watchSummary, deadline)
			if m[1] != strconv.Itoa(workflows) || m[2] != strconv.Itoa(skills) || m[4] != strconv.Itoa(skipped) {
				continue
			}
			r := skillgen(t, cwd, nil, append([]string{"check"}, args...)...)
			if r.code == 0 {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: the output does not follow the inputs:\n%s", step, r)
			}
		}
	}
	write := func(rel, data string) {
		t.Helper()
		casetest.WriteFile(t, ws, rel, data)
	}
	do := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	path := func(rel string) string { return filepath.Join(ws, filepath.FromSlash(rel)) }

	w.next("start", regexp.MustCompile(`^skillgen: watching 2 manifest paths and 2 directory trees \((inotify|polling)\); Ctrl-C stops$`), time.Now().Add(30*time.Second))
	settled("first run", 3, 2, 0)

	write("skills/alpha/SKILL.md", "---\nname: alpha\ndescription: Alpha, edited.\n---\nAlpha body.\n")
	settled("edit a SKILL.md", 3, 2, 0)

	write("skills/gamma/SKILL.md", "---\nname: gamma\ndescription: Gamma skill.\n---\n")
	settled("add a skill", 4, 3, 0)

	// The directory's new name no longer matches the skill's name: the
	// skill is skipped (a warning, not a failure).
	do(os.Rename(path("skills/gamma"), path("skills/delta")))
	settled("rename a skill directory", 3, 2, 1)

	do(os.RemoveAll(path("skills/delta")))
	settled("remove a skill", 3, 2, 0)

	write(".insomnia/memory/workflow/notes.md", "---\ndescription: Notes.\n---\nNotes body.\n")
	settled("add a Workflow", 4, 2, 0)

	do(os.Remove(path(".insomnia/memory/workflow/notes.md")))
	settled("remove a Workflow", 3, 2, 0)

	write(".insomnia/manifest.toml", "[skills]\ndirectories = [\"skills\", \"more\"]\n")
	settled("add a root to the manifest", 4, 3, 0)

	write("more/zeta/SKILL.md", "---\nname: zeta\ndescription: In the new root.\n---\n")
	settled("add a skill to the new root", 5, 4, 0)

	// A file over -max-file-size fails the run: nothing is written.
	before := snapshot(t, path("agent/out"))
	write("more/zeta/assets/big.bin", strings.Repeat("x", 5000))
	w.next("break a skill", watchFailed, time.Now().Add(30*time.Second))
	sameSnapshot(t, "a failed run", before, snapshot(t, path("agent/out")))
	if r := skillgen(t, cwd, nil, append([]string{"check"}, args...)...); r.code != 1 || !strings.Contains(r.stderr, "[size-limit]") {
		t.Errorf("check of the broken workspace: want exit 1 and a size-limit error:\n%s", r)
	}

	do(os.Remove(path("more/zeta/assets/big.bin")))
	settled("fix it", 5, 4, 0)

	// A manifest nearer the working directory takes over: its workspace
	// has no Workflows, and its one root is the other one.
	write("agent/.insomnia/manifest.toml", "[skills]\ndirectories = [\"../more\"]\n")
	settled("a nearer manifest appears", 2, 2, 0)

	do(cmd.Process.Signal(os.Interrupt))
	werr := cmd.Wait()
	for line := range w.lines {
		w.log = append(w.log, line)
	}
	var exit *exec.ExitError
	switch {
	case errors.As(werr, &exit):
		t.Errorf("after SIGINT: exit status %d, want 0; stderr:\n%s", exit.ExitCode(), strings.Join(w.log, "\n"))
	case werr != nil:
		t.Fatal(werr)
	}
	for _, l := range w.log {
		if strings.Contains(l, "panic:") {
			t.Fatalf("skillgen panicked:\n%s", strings.Join(w.log, "\n"))
		}
	}
	noTempFiles(t, path("agent/out"), path("agent/out/skills_data"), cache)
}

// noTempFiles fails the test if any of dirs holds a temp file: the Go
// file's (.skills_gen.go.tmp-*), a blob's (.tmp-*) or the hash cache's
// (hashes-*.tmp-*). The cache directory may not exist: files changed less
// than 2 s before a run are not remembered, so a quick run saves nothing.
func noTempFiles(t *testing.T, out, data, cache string) {
	t.Helper()
	for _, dir := range []string{out, data, cache} {
		ents, err := os.ReadDir(dir)
		if errors.Is(err, os.ErrNotExist) && dir == cache {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if len(ents) == 0 {
			t.Errorf("%s is empty: the test looks in the wrong place", dir)
		}
		for _, e := range ents {
			if strings.Contains(e.Name(), ".tmp-") {
				t.Errorf("temp file left behind: %s", filepath.Join(dir, e.Name()))
			}
		}
	}
}

// TestGenerateWatchUnworkable: a configuration no change of the inputs
// can mend (here: no package name) ends -watch at once, with status 1.
func TestGenerateWatchUnworkable(t *testing.T) {
	ws := newWorkspace(t) // my-agent: not a package name
	r := skillgen(t, ws, nil, "generate", "-watch")
	wantCode(t, r, 1)
	got := r.stderrLines()
	if len(got) != 2 || !strings.HasPrefix(got[0], "skillgen: watching ") {
		t.Fatalf("stderr is not the watching line and the error:\n%s", r)
	}
	wantLines(t, "the error", got[1:], []string{`skillgen: cannot use the output directory's name "my-agent" as a package name; give -pkg`})
}
