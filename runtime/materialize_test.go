package runtime_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/skillgen/skillgen/runtime"
)

var wantDirs = []string{"a", "a-b", "a-b/notes", "a0", "names", "names/odd", "names/日本語",
	"pdf-tools", "pdf-tools/assets", "pdf-tools/assets/deep", "pdf-tools/assets/deep/nested",
	"pdf-tools/references", "pdf-tools/scripts"}

// checkTree checks that dir holds exactly the fixture's files, as regular
// files (not links), byte-exact, with their executable bits, and exactly the
// fixture's directories: no temporary or other leftovers.
func checkTree(t *testing.T, dir string) {
	t.Helper()
	seen := map[string]bool{}
	var dirs []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel != "." {
				dirs = append(dirs, rel)
			}
			return nil
		}
		f, ok := fixtureFiles[rel]
		if !ok {
			t.Errorf("unexpected %s in the output (%v)", rel, d.Type())
			return nil
		}
		seen[rel] = true
		fi, err := os.Lstat(p)
		if err != nil {
			return err
		}
		if !fi.Mode().IsRegular() {
			t.Errorf("%s: mode %v, want a regular file", rel, fi.Mode())
			return nil
		}
		// Exactly the recorded exec bits, whatever the umask.
		if got, want := fi.Mode().Perm()&0o111, f.mode&0o111; got != want {
			t.Errorf("%s: exec bits %#o, want %#o (mode %v)", rel, got, want, fi.Mode())
		}
		if fi.Mode().Perm()&0o600 != 0o600 {
			t.Errorf("%s: mode %v, want it readable and writable by its owner", rel, fi.Mode())
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if string(data) != f.data {
			t.Errorf("%s = %q, want %q", rel, data, f.data)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for name := range fixtureFiles {
		if !seen[name] {
			t.Errorf("%s is missing from the output", name)
		}
	}
	slices.Sort(dirs)
	want := slices.Clone(wantDirs)
	slices.Sort(want)
	if !slices.Equal(dirs, want) {
		t.Errorf("directories = %q, want %q", dirs, want)
	}
}

func wantGrantsUnder(dir string) []runtime.Grant {
	var gs []runtime.Grant
	for _, slug := range []string{"a", "a-b", "a0", "names", "pdf-tools"} {
		gs = append(gs, runtime.Grant{Target: filepath.Join(dir, slug), Permission: runtime.Read, Recursive: true})
	}
	return gs
}

func TestMaterialize(t *testing.T) {
	// With a umask of 077 a file created as 0o755 would come out 0o700;
	// Materialize must still restore every exec bit.
	setUmask(t, 0o077)
	dir := filepath.Join(t.TempDir(), "sub")

	grants, err := Registry.Materialize(dir)
	if err != nil {
		t.Fatal(err)
	}
	checkTree(t, dir)
	if fi, err := os.Stat(filepath.Join(dir, "pdf-tools/scripts/extract.sh")); err != nil || fi.Mode().Perm()&0o111 != 0o111 {
		t.Errorf("extract.sh: %v, %v; want every exec bit set", fi, err)
	}
	if !slices.Equal(grants, wantGrantsUnder(dir)) {
		t.Errorf("grants = %v, want %v", grants, wantGrantsUnder(dir))
	}
	for _, g := range grants {
		if !filepath.IsAbs(g.Target) {
			t.Errorf("grant %q is not absolute", g.Target)
		}
		if fi, err := os.Stat(g.Target); err != nil || !fi.IsDir() {
			t.Errorf("grant %q: %v, %v; want a directory", g.Target, fi, err)
		}
	}
	// The registry's own grants stay relative.
	if g := Registry.Grants(); g[0].Target != "a" {
		t.Errorf("Materialize changed Grants(): %v", g)
	}

	// Spoil the output, then materialize over it.
	write := func(name, data string, perm fs.FileMode) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), perm); err != nil {
			t.Fatal(err)
		}
	}
	write("a/SKILL.md", strings.Repeat("garbage ", 100), 0o644)
	write("names/empty", "not empty", 0o644)
	if err := os.Chmod(filepath.Join(dir, "pdf-tools/scripts/extract.sh"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Join(dir, "a0/skill.md"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, "names/A.md")); err != nil {
		t.Fatal(err)
	}

	// A symlink placed at a file's path is replaced, not written through:
	// the file it points to keeps its bytes, and a dangling link's target
	// is never created.
	outside := t.TempDir()
	victim := filepath.Join(outside, "victim")
	if err := os.WriteFile(victim, []byte("victim"), 0o644); err != nil {
		t.Fatal(err)
	}
	for name, target := range map[string]string{
		"pdf-tools/references/REFERENCE.md": victim,
		"pdf-tools/scripts/extract.sh":      victim,
		"a-b/notes/todo.md":                 filepath.Join(outside, "dangling"),
	} {
		p := filepath.Join(dir, name)
		if err := os.Remove(p); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, p); err != nil {
			t.Fatal(err)
		}
	}

	grants, err = Registry.Materialize(dir)
	if err != nil {
		t.Fatal(err)
	}
	checkTree(t, dir)
	if !slices.Equal(grants, wantGrantsUnder(dir)) {
		t.Errorf("grants = %v, want %v", grants, wantGrantsUnder(dir))
	}
	if b, err := os.ReadFile(victim); err != nil || string(b) != "victim" {
		t.Errorf("the symlink's target was written through: %q, %v", b, err)
	}
	if fi, err := os.Stat(victim); err != nil || fi.Mode().Perm() != 0o600 {
		// 0o644 & ^umask 077; a chmod through the link would have changed it.
		t.Errorf("the symlink's target changed mode: %v, %v", fi, err)
	}
	if _, err := os.Lstat(filepath.Join(outside, "dangling")); !os.IsNotExist(err) {
		t.Errorf("the dangling symlink's target was created: %v", err)
	}
}

func TestMaterializeRelative(t *testing.T) {
	base := t.TempDir()
	t.Chdir(base)
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	grants, err := Registry.Materialize(filepath.Join("rel", "out"))
	if err != nil {
		t.Fatal(err)
	}
	abs := filepath.Join(wd, "rel", "out")
	if !slices.Equal(grants, wantGrantsUnder(abs)) {
		t.Errorf("grants = %v, want %v", grants, wantGrantsUnder(abs))
	}
	checkTree(t, abs)
}

func TestMaterializeEmpty(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "x", "y")
	grants, err := registryOf(nil, nil, nil).Materialize(dir)
	if err != nil || len(grants) != 0 {
		t.Fatalf("Materialize of an empty table = %v, %v", grants, err)
	}
	list, err := os.ReadDir(dir)
	if err != nil || len(list) != 0 {
		t.Errorf("ReadDir = %v, %v; want an empty, existing directory", list, err)
	}
}

func TestMaterializeErrors(t *testing.T) {
	// The directory is a file.
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if g, err := Registry.Materialize(file); err == nil || g != nil {
		t.Errorf("Materialize onto a file = %v, %v; want an error", g, err)
	}

	// A file stands where a skill directory must go.
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "names"), []byte("in the way"), 0o644); err != nil {
		t.Fatal(err)
	}
	if g, err := Registry.Materialize(dir); err == nil || g != nil {
		t.Errorf("Materialize with a file in the way = %v, %v; want an error", g, err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "names")); err != nil || string(b) != "in the way" {
		t.Errorf("the file in the way changed: %q, %v", b, err)
	}

	// A non-empty directory stands where a file must go: the rename fails,
	// and the error is reported, not dropped; no temporary file is left.
	dir = t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "a", "SKILL.md", "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if g, err := Registry.Materialize(dir); err == nil || g != nil {
		t.Errorf("Materialize with a directory in a file's place = %v, %v; want an error", g, err)
	}
	if list, err := os.ReadDir(filepath.Join(dir, "a")); err != nil || len(list) != 1 || list[0].Name() != "SKILL.md" {
		t.Errorf("after the failed Materialize, dir/a holds %v, %v; want only SKILL.md", list, err)
	}

	// A table with an invalid path is refused, not written outside dir.
	for _, p := range []string{"../escape", "/abs", "a/../../escape", "", "./x", "a//b"} {
		out := filepath.Join(t.TempDir(), "out")
		r := registryOf([]runtime.Workflow{{Slug: "s", Description: "S.", Body: "b\n",
			Source: runtime.Source{Kind: runtime.KindSkill, Path: "skills/s/SKILL.md"},
			Files:  []runtime.File{{Path: "SKILL.md", Mode: 0o644}, {Path: p, Mode: 0o644}}}}, map[string]string{"s/" + p: "x"}, nil)
		if g, err := r.Materialize(out); err == nil || g != nil {
			t.Errorf("Materialize of path %q = %v, %v; want an error", p, g, err)
		}
		if _, err := os.Lstat(filepath.Join(filepath.Dir(out), "escape")); !os.IsNotExist(err) {
			t.Errorf("path %q escaped the output directory", p)
		}
	}
}
