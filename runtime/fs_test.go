package runtime_test

import (
	"errors"
	"io"
	"io/fs"
	"maps"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/skillgen/skillgen/runtime"
)

// TestFSConformance runs testing/fstest.TestFS over the fixture's files.
// TestFS refuses any name holding a backslash ("child name contains
// backslash"), a rule of its own: io/fs accepts such names and only forbids
// treating it as a separator. So the conformance run leaves out the one such
// file, names/odd/*?:\.txt (which the other tests serve, stat and list by its
// own name), and a run over the whole tree must fail for that name only.
func TestFSConformance(t *testing.T) {
	var ws []runtime.Workflow
	var expected []string
	for _, w := range fixtureWorkflows {
		w.Files = slices.DeleteFunc(slices.Clone(w.Files), func(f runtime.File) bool { return strings.Contains(f.Path, `\`) })
		for _, f := range w.Files {
			expected = append(expected, w.Slug+"/"+f.Path)
		}
		ws = append(ws, w)
	}
	if len(expected) != len(fixtureFiles)-1 {
		t.Fatalf("left out %d files, want 1", len(fixtureFiles)-len(expected))
	}
	// Directories too, so that TestFS checks they exist.
	expected = append(expected, "a", "a-b", "a-b/notes", "a0", "names", "names/日本語",
		"pdf-tools", "pdf-tools/assets", "pdf-tools/assets/deep", "pdf-tools/assets/deep/nested",
		"pdf-tools/references", "pdf-tools/scripts")
	fsys := registryOf(ws, fixtureContents(), nil).FS()
	if err := fstest.TestFS(fsys, expected...); err != nil {
		t.Fatal(err)
	}
	// The whole tree: TestFS's only complaints are about the backslash name.
	err := fstest.TestFS(Registry.FS(), append(expected, "names/odd", `names/odd/*?:\.txt`)...)
	if err == nil {
		t.Fatal("TestFS accepted a name with a backslash; drop the exclusion above")
	}
	lines := strings.Split(err.Error(), "\n")
	if lines[0] != "TestFS found errors:" || len(lines) < 2 {
		t.Fatalf("TestFS over the whole tree: %v", err)
	}
	for _, l := range lines[1:] {
		if !strings.Contains(l, `*?:\.txt`) {
			t.Errorf("TestFS over the whole tree: %s", l)
		}
	}

	// Each skill directory on its own, as a host would fs.Sub it.
	for _, g := range Registry.Grants() {
		sub, err := fs.Sub(fsys, g.Target)
		if err != nil {
			t.Fatal(err)
		}
		var subExpected []string
		for _, name := range expected {
			if rest, ok := strings.CutPrefix(name, g.Target+"/"); ok {
				subExpected = append(subExpected, rest)
			}
		}
		if err := fstest.TestFS(sub, subExpected...); err != nil {
			t.Errorf("fs.Sub(%s): %v", g.Target, err)
		}
	}
}

func TestFSEmptyConformance(t *testing.T) {
	fsys := registryOf(nil, nil, nil).FS()
	if err := fstest.TestFS(fsys); err != nil {
		t.Fatal(err)
	}
	list, err := fs.ReadDir(fsys, ".")
	if err != nil || len(list) != 0 {
		t.Errorf("ReadDir(.) of an empty FS = %v, %v", list, err)
	}
	if _, err := fsys.Open("a"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Open(a) of an empty FS: %v", err)
	}
}

// TestFSWalk checks that the tree holds exactly the expected files and
// directories, nothing more.
func TestFSWalk(t *testing.T) {
	fsys := Registry.FS()
	var files, dirs []string
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			dirs = append(dirs, p)
		} else {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(files)
	if want := slices.Sorted(maps.Keys(fixtureFiles)); !slices.Equal(files, want) {
		t.Errorf("files = %q\nwant %q", files, want)
	}
	wantDirs := []string{".", "a", "a-b", "a-b/notes", "a0", "names", "names/odd", "names/日本語",
		"pdf-tools", "pdf-tools/assets", "pdf-tools/assets/deep", "pdf-tools/assets/deep/nested",
		"pdf-tools/references", "pdf-tools/scripts"}
	slices.Sort(dirs)
	slices.Sort(wantDirs)
	if !slices.Equal(dirs, wantDirs) {
		t.Errorf("dirs = %q\nwant %q", dirs, wantDirs)
	}
}

func TestFSReadFile(t *testing.T) {
	fsys := Registry.FS()
	for name, f := range fixtureFiles {
		got, err := fs.ReadFile(fsys, name)
		if err != nil || string(got) != f.data {
			t.Errorf("ReadFile(%q) = %q, %v; want %q", name, got, err, f.data)
		}
		// Through Open and Read as well, not only the ReadFileFS shortcut.
		file, err := fsys.Open(name)
		if err != nil {
			t.Errorf("Open(%q): %v", name, err)
			continue
		}
		got, err = io.ReadAll(file)
		if err != nil || string(got) != f.data {
			t.Errorf("Open(%q) + ReadAll = %q, %v; want %q", name, got, err, f.data)
		}
		file.Close()
	}
	// The returned bytes are a copy: writing to them changes nothing.
	b, _ := fs.ReadFile(fsys, "a/SKILL.md")
	b[0] = 'X'
	if b2, _ := fs.ReadFile(fsys, "a/SKILL.md"); string(b2) != dataASkill {
		t.Errorf("ReadFile result aliases the table: %q", b2)
	}
}

func TestFSStat(t *testing.T) {
	fsys := Registry.FS()
	for name, f := range fixtureFiles {
		fi, err := fs.Stat(fsys, name)
		if err != nil {
			t.Errorf("Stat(%q): %v", name, err)
			continue
		}
		if fi.Mode() != f.mode || fi.IsDir() || !fi.Mode().IsRegular() || fi.Size() != int64(len(f.data)) || fi.Name() != name[lastSlash(name)+1:] {
			t.Errorf("Stat(%q) = %s %v size %d name %q; want %v size %d", name, fi.Mode(), fi.IsDir(), fi.Size(), fi.Name(), f.mode, len(f.data))
		}
	}
	if fi, err := fs.Stat(fsys, "pdf-tools/scripts/extract.sh"); err != nil || fi.Mode() != 0o755 || fi.Mode()&0o111 != 0o111 {
		t.Errorf("Stat(extract.sh) = %v, %v; want -rwxr-xr-x", fi, err)
	}
	if fi, err := fs.Stat(fsys, "a/SKILL.md"); err != nil || fi.Mode() != 0o644 {
		t.Errorf("Stat(a/SKILL.md) = %v, %v; want -rw-r--r--", fi, err)
	}
	for _, name := range []string{".", "a", "a-b/notes", "names/odd", "names/日本語", "pdf-tools/assets/deep/nested"} {
		fi, err := fs.Stat(fsys, name)
		if err != nil {
			t.Errorf("Stat(%q): %v", name, err)
			continue
		}
		wantName := name[lastSlash(name)+1:]
		if !fi.IsDir() || fi.Mode().Type() != fs.ModeDir || fi.Mode()&fs.ModeDir == 0 || fi.Name() != wantName {
			t.Errorf("Stat(%q) = %s name %q; want a directory named %q", name, fi.Mode(), fi.Name(), wantName)
		}
	}
}

func lastSlash(s string) int {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == '/' {
			return i
		}
	}
	return -1
}

func TestFSReadDir(t *testing.T) {
	fsys := Registry.FS()
	tests := []struct {
		dir  string
		want []string // name, with "/" appended for directories
	}{
		// "a" < "a-b" < "a0" as names, though "a-b/…" < "a/…" as paths.
		{".", []string{"a/", "a-b/", "a0/", "names/", "pdf-tools/"}},
		{"a", []string{"SKILL.md"}},
		{"a-b", []string{"SKILL.md", "notes/"}},
		{"a-b/notes", []string{"empty.txt", "todo.md"}},
		// Byte order: '#' < 'A' < 'S' < '_' < 'a' …; "odd" < "odd-one.md".
		{"names", []string{"#hash.md", "A.md", "SKILL.md", "_underscore.md", "a.md", "con.md", "empty",
			"has space.md", "odd/", "odd-one.md", "ünïcödé.md", "日本語/"}},
		{"names/odd", []string{"*?:\\.txt"}},
		{"names/日本語", []string{"メモ.txt"}},
		// "scripts" < "scripts.md" as names, though "scripts.md" < "scripts/…" as paths.
		{"pdf-tools", []string{"SKILL.md", "assets/", "references/", "scripts/", "scripts.md"}},
		{"pdf-tools/assets", []string{"deep/", "logo.bin"}},
		{"pdf-tools/assets/deep", []string{"nested/"}},
	}
	for _, tt := range tests {
		list, err := fs.ReadDir(fsys, tt.dir)
		if err != nil {
			t.Errorf("ReadDir(%q): %v", tt.dir, err)
			continue
		}
		var got []string
		for _, e := range list {
			n := e.Name()
			if e.IsDir() {
				n += "/"
				if e.Type() != fs.ModeDir {
					t.Errorf("ReadDir(%q): %s has type %v", tt.dir, e.Name(), e.Type())
				}
			} else if e.Type() != 0 {
				t.Errorf("ReadDir(%q): %s has type %v", tt.dir, e.Name(), e.Type())
			}
			got = append(got, n)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("ReadDir(%q) = %q, want %q", tt.dir, got, tt.want)
		}

		// The same through Open + ReadDir(n) in pages of one.
		f, err := fsys.Open(tt.dir)
		if err != nil {
			t.Errorf("Open(%q): %v", tt.dir, err)
			continue
		}
		d, ok := f.(fs.ReadDirFile)
		if !ok {
			t.Errorf("Open(%q) is not a ReadDirFile", tt.dir)
			continue
		}
		var paged []string
		for {
			page, err := d.ReadDir(1)
			if err == io.EOF {
				break
			}
			if err != nil || len(page) != 1 {
				t.Errorf("ReadDir(1) on %q = %v, %v", tt.dir, page, err)
				break
			}
			n := page[0].Name()
			if page[0].IsDir() {
				n += "/"
			}
			paged = append(paged, n)
		}
		if !slices.Equal(paged, tt.want) {
			t.Errorf("paged ReadDir(%q) = %q, want %q", tt.dir, paged, tt.want)
		}
		f.Close()
	}
	// An entry's Info agrees with Stat.
	list, _ := fs.ReadDir(fsys, "pdf-tools/scripts")
	if len(list) != 1 {
		t.Fatalf("ReadDir(pdf-tools/scripts) = %v", list)
	}
	if fi, err := list[0].Info(); err != nil || fi.Mode() != 0o755 || fi.Size() != int64(len(dataPDFShell)) {
		t.Errorf("extract.sh Info = %v, %v", fi, err)
	}
}

func TestFSOpen(t *testing.T) {
	fsys := Registry.FS()

	// "." and directories open as directories; reading one is an error.
	for _, name := range []string{".", "a", "pdf-tools/assets/deep"} {
		f, err := fsys.Open(name)
		if err != nil {
			t.Errorf("Open(%q): %v", name, err)
			continue
		}
		fi, err := f.Stat()
		if err != nil || !fi.IsDir() {
			t.Errorf("Open(%q).Stat() = %v, %v; want a directory", name, fi, err)
		}
		if n, err := f.Read(make([]byte, 8)); n != 0 || err == nil {
			t.Errorf("Open(%q).Read = %d, %v; want an error", name, n, err)
		}
		if err := f.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	}

	// An empty file opens and reads as empty.
	f, err := fsys.Open("names/empty")
	if err != nil {
		t.Fatal(err)
	}
	if n, err := f.Read(make([]byte, 8)); n != 0 || err != io.EOF {
		t.Errorf("Read of an empty file = %d, %v; want 0, EOF", n, err)
	}
	f.Close()

	// A file seeks and reads at offsets.
	f, err = fsys.Open("pdf-tools/assets/logo.bin")
	if err != nil {
		t.Fatal(err)
	}
	if s, ok := f.(io.ReadSeeker); !ok {
		t.Errorf("an open file is not an io.ReadSeeker")
	} else if off, err := s.Seek(4, io.SeekStart); err != nil || off != 4 {
		t.Errorf("Seek(4) = %d, %v", off, err)
	} else if b, err := io.ReadAll(s); err != nil || string(b) != dataPDFBin[4:] {
		t.Errorf("read after Seek(4) = %q, %v", b, err)
	}
	if r, ok := f.(io.ReaderAt); !ok {
		t.Errorf("an open file is not an io.ReaderAt")
	} else {
		b := make([]byte, 3)
		if n, err := r.ReadAt(b, 5); n != 3 || err != nil || string(b) != "PNG" {
			t.Errorf("ReadAt(5) = %d %q, %v", n, b, err)
		}
	}
	f.Close()
}

func TestFSErrors(t *testing.T) {
	fsys := Registry.FS()
	invalid := []string{"", "/", "/a", "a/", "./a", "a/./SKILL.md", "a/../a/SKILL.md", "..", "a//SKILL.md", "a/SKILL.md/"}
	missing := []string{"zzz", "A", "a-", "pdf", "a/missing", "a/skill.md", "A/SKILL.md", "a/SKILL.md/x",
		"names/od", "names/odd/x", "names/A.MD", "pdf-tools/scripts/extract", "pdf-tools/script", "pdf-tools/scripts.m"}

	check := func(op, name string, err, want error) {
		t.Helper()
		if !errors.Is(err, want) {
			t.Errorf("%s(%q) error = %v, want one wrapping %v", op, name, err, want)
		}
		var pe *fs.PathError
		if !errors.As(err, &pe) || pe.Path != name {
			t.Errorf("%s(%q) error = %#v, want a *fs.PathError for the name", op, name, err)
		}
	}
	for _, want := range []struct {
		names []string
		err   error
	}{{invalid, fs.ErrInvalid}, {missing, fs.ErrNotExist}} {
		for _, name := range want.names {
			f, err := fsys.Open(name)
			if f != nil {
				t.Errorf("Open(%q) returned a file", name)
			}
			check("Open", name, err, want.err)
			_, err = fs.Stat(fsys, name)
			check("Stat", name, err, want.err)
			_, err = fs.ReadFile(fsys, name)
			check("ReadFile", name, err, want.err)
			_, err = fs.ReadDir(fsys, name)
			check("ReadDir", name, err, want.err)
		}
	}

	// A directory is not a file, nor a file a directory.
	if _, err := fs.ReadFile(fsys, "a"); err == nil {
		t.Errorf("ReadFile(a) of a directory succeeded")
	}
	if _, err := fs.ReadFile(fsys, "."); err == nil {
		t.Errorf("ReadFile(.) succeeded")
	}
	if _, err := fs.ReadDir(fsys, "a/SKILL.md"); err == nil {
		t.Errorf("ReadDir of a file succeeded")
	}
}
