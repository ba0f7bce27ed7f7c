package watch

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/skillgen/skillgen/internal/casetest"
)

// backends are the ways a Watcher can find changes here: the native one
// where the platform has it, and polling everywhere.
func backends(t *testing.T) map[string]bool {
	m := map[string]bool{"poll": true}
	if w := New(false); w.Mode() != "polling" {
		m[w.Mode()] = false
		w.Close()
	} else if runtime.GOOS == "linux" {
		t.Errorf("on Linux the watcher polls: %v", w.FellBack())
	}
	return m
}

// tree is a workspace for the watcher: a manifest, a Workflow directory
// that does not exist yet, a skill root with a skill, a linked skill and a
// dot-directory, a root that does not exist yet, a root two levels down
// (vendor/third/skills), and a root under a symlinked directory
// (linkdir/skills, linkdir pointing to elsewhere/a).
type tree struct {
	t   *testing.T
	dir string
}

func (tr tree) path(rel string) string { return filepath.Join(tr.dir, filepath.FromSlash(rel)) }

func (tr tree) write(rel, data string) {
	tr.t.Helper()
	casetest.WriteFile(tr.t, tr.dir, rel, data)
}

func (tr tree) set() Set {
	return Set{
		Files: []string{tr.path(".insomnia/manifest.toml")},
		Trees: []string{tr.path(".insomnia/memory/workflow"), tr.path("skills"), tr.path("later/skills"), tr.path("vendor/third/skills"), tr.path("linkdir/skills")},
	}
}

func newTree(t *testing.T) tree {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	tr := tree{t, dir}
	tr.write(".insomnia/manifest.toml", "[skills]\ndirectories = [\"skills\", \"later/skills\"]\n")
	tr.write(".insomnia/notes.txt", "not an input")
	tr.write("skills/alpha/SKILL.md", "---\nname: alpha\n---\n")
	tr.write("skills/alpha/scripts/run.sh", "#!/bin/sh\n")
	tr.write("skills/.git/HEAD", "ref: refs/heads/main\n")
	tr.write("elsewhere/linked/SKILL.md", "---\nname: linked\n---\n")
	if err := os.Symlink(tr.path("elsewhere/linked"), tr.path("skills/linked")); err != nil {
		t.Skipf("no symlinks here: %v", err)
	}
	tr.write("vendor/third/skills/zeta/SKILL.md", "---\nname: zeta\n---\n")
	tr.write("elsewhere/a/skills/eta/SKILL.md", "---\nname: eta\n---\n")
	tr.write("elsewhere/b/skills/eta/SKILL.md", "---\nname: eta\ndescription: b\n---\n")
	tr.symlink("linkdir", "elsewhere/a")
	return tr
}

// symlink makes rel a symlink to target (relative to the tree), replacing
// whatever rel was with one rename, as ln -sfn does.
func (tr tree) symlink(rel, target string) {
	tr.t.Helper()
	tmp := tr.path(rel + ".tmp")
	if err := os.Symlink(tr.path(target), tmp); err != nil {
		tr.t.Fatal(err)
	}
	if err := os.Rename(tmp, tr.path(rel)); err != nil {
		tr.t.Fatal(err)
	}
}

func TestWatcher(t *testing.T) {
	for name, poll := range backends(t) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			tr := newTree(t)
			w := New(poll)
			defer w.Close()
			if w.Mode() != name && !(poll && w.Mode() == "polling") {
				t.Fatalf("mode %q, want %q", w.Mode(), name)
			}
			// quiet: how long a change not reported by then counts as
			// not reported at all (polls every 250 ms on a tree this small,
			// and again 100 ms after a change).
			quiet := 200 * time.Millisecond
			if poll {
				quiet = 600 * time.Millisecond
			}
			steps := []struct {
				what   string
				change func()
				report bool
			}{
				{"edit a skill's file", func() { tr.write("skills/alpha/SKILL.md", "---\nname: alpha\ndescription: x\n---\n") }, true},
				{"edit a nested file", func() { tr.write("skills/alpha/scripts/run.sh", "#!/bin/sh\necho\n") }, true},
				{"chmod a script", func() { os.Chmod(tr.path("skills/alpha/scripts/run.sh"), 0o755) }, true},
				{"add a skill", func() { tr.write("skills/beta/SKILL.md", "---\nname: beta\n---\n") }, true},
				{"edit the new skill", func() { tr.write("skills/beta/SKILL.md", "---\nname: beta\ndescription: y\n---\n") }, true},
				{"add a directory to the new skill", func() { tr.write("skills/beta/references/a.md", "a") }, true},
				{"edit a file in the new directory", func() { tr.write("skills/beta/references/a.md", "ab") }, true},
				{"rename a skill", func() { os.Rename(tr.path("skills/beta"), tr.path("skills/gamma")) }, true},
				{"edit the renamed skill", func() { tr.write("skills/gamma/references/a.md", "abc") }, true},
				{"remove a skill", func() { os.RemoveAll(tr.path("skills/gamma")) }, true},
				{"edit the linked skill's target", func() { tr.write("elsewhere/linked/SKILL.md", "---\nname: linked\ndescription: z\n---\n") }, true},
				{"edit the manifest in place", func() { tr.write(".insomnia/manifest.toml", "[skills]\ndirectories = [\"skills\"]\n") }, true},
				{"replace the manifest (rename over it)", func() {
					tr.write(".insomnia/manifest.toml.new", "[skills]\ndirectories = [\"skills\", \"later/skills\"]\n")
					os.Rename(tr.path(".insomnia/manifest.toml.new"), tr.path(".insomnia/manifest.toml"))
				}, true},
				{"create the Workflow directory and a Workflow", func() { tr.write(".insomnia/memory/workflow/deploy.md", "---\n---\n") }, true},
				{"edit the Workflow", func() { tr.write(".insomnia/memory/workflow/deploy.md", "---\n---\nbody\n") }, true},
				{"create a root that did not exist", func() { tr.write("later/skills/delta/SKILL.md", "---\nname: delta\n---\n") }, true},
				{"edit a skill in that root", func() { tr.write("later/skills/delta/SKILL.md", "---\nname: delta\n---\nbody\n") }, true},
				{"remove that root", func() { os.RemoveAll(tr.path("later")) }, true},
				{"rename a directory two levels above a root", func() { os.Rename(tr.path("vendor"), tr.path("vendor.old")) }, true},
				{"rename it back", func() { os.Rename(tr.path("vendor.old"), tr.path("vendor")) }, true},
				{"retarget a symlink above a root", func() { tr.symlink("linkdir", "elsewhere/b") }, true},
				{"edit a skill under the retargeted link", func() { tr.write("elsewhere/b/skills/eta/SKILL.md", "---\nname: eta\n---\nb\n") }, true},
				{"write beside the manifest", func() { tr.write(".insomnia/notes.txt", "still not an input") }, false},
				{"write in a dot-directory of a root", func() { tr.write("skills/.git/HEAD", "ref: refs/heads/other\n") }, false},
				{"write outside the inputs", func() { tr.write("elsewhere/other.txt", "x") }, false},
				{"write beside the roots' ancestors", func() { tr.write("unrelated.txt", "x") }, false},
				{"write under the link's old target", func() { tr.write("elsewhere/a/skills/eta/SKILL.md", "---\nname: eta\n---\nold\n") }, false},
			}
			for _, s := range steps {
				// As skillgen generate -watch does before each run.
				if err := w.Watch(tr.set()); err != nil {
					t.Fatalf("%s: Watch: %v", s.what, err)
				}
				drain(w)
				s.change()
				deadline := quiet
				if s.report {
					deadline = 10 * time.Second
				}
				select {
				case <-w.C:
					if !s.report {
						t.Errorf("%s: reported as a change", s.what)
					}
				case <-time.After(deadline):
					if s.report {
						t.Errorf("%s: no change reported within %s", s.what, deadline)
					}
				}
				// Let a burst's trailing events arrive before the next step.
				time.Sleep(quiet)
			}
		})
	}
}

// drain drops a change reported before now.
func drain(w *Watcher) {
	select {
	case <-w.C:
	default:
	}
}

// TestAnchors: a path is watched through every existing ancestor, for the
// name that leads to it, the nearest first; a path that does not exist
// starts at its nearest existing ancestor.
func TestAnchors(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "a"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ path, dir, name string }{
		{filepath.Join(dir, "a"), dir, "a"},
		{filepath.Join(dir, "a", "b"), filepath.Join(dir, "a"), "b"},
		{filepath.Join(dir, "a", "b", "c", "d"), filepath.Join(dir, "a"), "b"},
		{filepath.Join(dir, "x", "y"), dir, "x"},
	} {
		as := anchors(tc.path)
		if len(as) == 0 || as[0] != (anchor{tc.dir, tc.name}) {
			t.Fatalf("anchors(%s) = %v; want it to start with %s, %q", tc.path, as, tc.dir, tc.name)
		}
		// Then every ancestor of the first, up to the root, each with the
		// name of the next one down.
		for i := 1; i < len(as); i++ {
			if as[i].dir != filepath.Dir(as[i-1].dir) || as[i].name != filepath.Base(as[i-1].dir) {
				t.Errorf("anchors(%s)[%d] = %v after %v", tc.path, i, as[i], as[i-1])
			}
		}
		if last := as[len(as)-1].dir; filepath.Dir(last) != last {
			t.Errorf("anchors(%s) ends at %s, not at the root of the file system", tc.path, last)
		}
	}
}
