//go:build unix

package gen

// Write failures (ARCHITECTURE.md, "Invariants"): an output directory that cannot be
// written, a file where a directory should be, a full disk, a failing
// rename or close. Each gives a clear error, and the previous output stays
// exactly as it was — bytes and listing, with no temp file or new blob
// left behind. Faults are injected through outputFS (Result.fsys); the
// unwritable directory is also shown for real.

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/skillgen/skillgen/internal/hashcache"
)

// faultFS is the real file system with faults switched on by its fields.
type faultFS struct {
	osFS
	mkdirErr  error                      // MkdirAll fails
	createErr error                      // CreateTemp fails
	closeErr  error                      // closing a temp file fails
	renameErr func(newpath string) error // Rename into newpath fails, if it returns an error
	space     *atomic.Int64              // bytes that can still be written; nil: no limit
	mu        sync.Mutex
	temps     []string // temp files created
}

func (f *faultFS) MkdirAll(name string, perm fs.FileMode) error {
	if f.mkdirErr != nil {
		return &fs.PathError{Op: "mkdir", Path: name, Err: f.mkdirErr}
	}
	return f.osFS.MkdirAll(name, perm)
}

func (f *faultFS) CreateTemp(dir, pattern string) (tempFile, error) {
	if f.createErr != nil {
		return nil, &fs.PathError{Op: "open", Path: filepath.Join(dir, pattern), Err: f.createErr}
	}
	t, err := os.CreateTemp(dir, pattern)
	if err != nil {
		return nil, err
	}
	f.mu.Lock()
	f.temps = append(f.temps, t.Name())
	f.mu.Unlock()
	return &faultFile{File: t, fs: f}, nil
}

func (f *faultFS) Rename(oldpath, newpath string) error {
	if f.renameErr != nil {
		if err := f.renameErr(newpath); err != nil {
			return &os.LinkError{Op: "rename", Old: oldpath, New: newpath, Err: err}
		}
	}
	return f.osFS.Rename(oldpath, newpath)
}

// faultFile is a temp file on a disk that may fill up.
type faultFile struct {
	*os.File
	fs *faultFS
}

func (f *faultFile) Write(p []byte) (int, error) {
	if f.fs.space == nil {
		return f.File.Write(p)
	}
	left := f.fs.space.Add(-int64(len(p)))
	if left >= 0 {
		return f.File.Write(p)
	}
	n := max(0, len(p)+int(left)) // what fitted
	f.fs.space.Store(0)
	n, _ = f.File.Write(p[:n])
	return n, &fs.PathError{Op: "write", Path: f.Name(), Err: syscall.ENOSPC}
}

func (f *faultFile) Close() error {
	err := f.File.Close()
	if f.fs.closeErr != nil {
		return &fs.PathError{Op: "close", Path: f.Name(), Err: f.fs.closeErr}
	}
	return err
}

// tempsGone fails unless the fault was met after a temp file was created
// and every temp file created is gone again.
func tempsGone(t *testing.T, f *faultFS) {
	t.Helper()
	if len(f.temps) == 0 {
		t.Errorf("no temp file was created: the fault was not reached")
	}
	for _, p := range f.temps {
		if _, err := os.Lstat(p); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("temp file %s left behind (%v)", p, err)
		}
	}
}

// treeSnapshot maps every path under dir (the directory itself as ".") to
// its type, permissions and, for files, bytes.
func treeSnapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	snap := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if errors.Is(err, fs.ErrNotExist) && p == dir {
			return filepath.SkipAll
		}
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		entry := info.Mode().String()
		if info.Mode().IsRegular() {
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			entry += " " + string(data)
		}
		snap[filepath.ToSlash(rel)] = entry
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return snap
}

// sameTree fails unless the tree under dir is still before.
func sameTree(t *testing.T, dir string, before map[string]string) {
	t.Helper()
	after := treeSnapshot(t, dir)
	var diffs []string
	for p, e := range before {
		if a, ok := after[p]; !ok {
			diffs = append(diffs, "gone: "+p)
		} else if a != e {
			diffs = append(diffs, "changed: "+p)
		}
	}
	for p := range after {
		if _, ok := before[p]; !ok {
			diffs = append(diffs, "new: "+p)
		}
	}
	slices.Sort(diffs)
	if len(diffs) > 0 {
		t.Errorf("the previous output did not stay intact:\n  %s", strings.Join(diffs, "\n  "))
	}
}

// faultSetup writes state A for real and returns the workspace, the output
// directory, its snapshot, A's result and B's result (not written).
func faultSetup(t *testing.T) (w *crashWS, out string, before map[string]string, resA, resB *Result) {
	t.Helper()
	w = newCrashWS(t, "", 4, 6, 3000)
	out = filepath.Join(w.dir, "out")
	generate := func(state string) *Result {
		r, err := Generate(Config{Dir: w.dir, Manifests: []string{state + ".toml"}, Workspace: w.dir, Out: "out", Package: "skills"})
		if err != nil || !r.OK() {
			t.Fatalf("generate %s: %v %v", state, err, r.Diagnostics)
		}
		return r
	}
	resA, resB = generate("a"), generate("b")
	if _, err := resA.Write(); err != nil {
		t.Fatal(err)
	}
	return w, out, treeSnapshot(t, out), resA, resB
}

// stillA fails unless A's Check finds A on disk with no leftovers.
func stillA(t *testing.T, resA *Result) {
	t.Helper()
	rep, err := resA.Check()
	if err != nil || rep.Stale() || len(rep.Leftovers) > 0 {
		t.Errorf("check of the previous state: %v, changes %v, leftovers %v", err, rep.Changes, rep.Leftovers)
	}
}

// wantErr fails unless err is non-nil and its message holds every part.
func wantErr(t *testing.T, err error, parts ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("Write succeeded; want an error with %q", parts)
	}
	for _, p := range parts {
		if !strings.Contains(err.Error(), p) {
			t.Errorf("error %q does not say %q", err, p)
		}
	}
}

// blobBytes is the size of B's blobs that A does not have: what Write
// must put on disk before the switch.
func blobBytes(resA, resB *Result) int64 {
	have := map[string]bool{}
	for _, b := range resA.render().blobs {
		have[b.name] = true
	}
	var n int64
	for _, b := range resB.render().blobs {
		if !have[b.name] {
			n += b.file.Size
		}
	}
	return n
}

// TestFaultWrites injects each write failure into a Write of state B over
// state A on disk.
func TestFaultWrites(t *testing.T) {
	t.Run("not-writable", func(t *testing.T) {
		_, out, before, resA, resB := faultSetup(t)
		resB.fsys = &faultFS{createErr: syscall.EACCES}
		_, err := resB.Write()
		wantErr(t, err, filepath.Join(out, DataDir), "permission denied")
		sameTree(t, out, before)
		stillA(t, resA)
	})
	t.Run("cannot-create-out", func(t *testing.T) {
		w, _, _, _, resB := faultSetup(t)
		resB.Out = filepath.Join(w.dir, "new", "out")
		resB.fsys = &faultFS{mkdirErr: syscall.EACCES}
		_, err := resB.Write()
		wantErr(t, err, "creating "+resB.Out, "permission denied")
		if _, err := os.Lstat(filepath.Join(w.dir, "new")); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("something was created: %v", err)
		}
	})
	t.Run("file-as-data-dir", func(t *testing.T) {
		_, out, _, _, resB := faultSetup(t)
		if err := os.RemoveAll(out); err != nil {
			t.Fatal(err)
		}
		// A file where the data directory should be, beside a generated
		// Go file: neither may change.
		writeTestFile(t, filepath.Join(out, DataDir), "not a directory\n")
		writeTestFile(t, filepath.Join(out, GoFileName), "// "+Header+"\n\npackage skills\n")
		before := treeSnapshot(t, out)
		_, err := resB.Write()
		wantErr(t, err, filepath.Join(out, DataDir), "not a directory")
		sameTree(t, out, before)
	})
	t.Run("file-as-out", func(t *testing.T) {
		w, _, _, _, resB := faultSetup(t)
		resB.Out = filepath.Join(w.dir, "plain-file")
		writeTestFile(t, resB.Out, "a file\n")
		_, err := resB.Write()
		wantErr(t, err, resB.Out, "not a directory")
		if data, _ := os.ReadFile(resB.Out); string(data) != "a file\n" {
			t.Errorf("the file became %q", data)
		}
	})
	t.Run("disk-full", func(t *testing.T) {
		_, out, before, resA, resB := faultSetup(t)
		blobs := blobBytes(resA, resB)
		goSize := int64(len(resB.GoSource()))
		// No room at all, a few bytes, half the blobs, all but the last
		// byte of the blobs, and room for the blobs but not the Go file.
		for _, room := range []int64{0, 1, 1000, blobs / 2, blobs - 1, blobs, blobs + goSize/2, blobs + goSize - 1} {
			space := &atomic.Int64{}
			space.Store(room)
			f := &faultFS{space: space}
			resB.fsys = f
			_, err := resB.Write()
			wantErr(t, err, out, "no space left on device")
			sameTree(t, out, before)
			stillA(t, resA)
			tempsGone(t, f)
		}
		// With room for everything, the same fake lets the write through.
		space := &atomic.Int64{}
		space.Store(blobs + goSize)
		resB.fsys = &faultFS{space: space}
		if _, err := resB.Write(); err != nil {
			t.Fatalf("with exactly enough room: %v", err)
		}
		resB.fsys = osFS{}
		if rep, err := resB.Check(); err != nil || rep.Stale() || len(rep.Leftovers) > 0 {
			t.Errorf("after a write with enough room: %v %v %v", err, rep.Changes, rep.Leftovers)
		}
	})
	t.Run("rename-fails", func(t *testing.T) {
		for _, which := range []string{"every", "blob", "go-file"} {
			t.Run(which, func(t *testing.T) {
				_, out, before, resA, resB := faultSetup(t)
				var renames atomic.Int64
				f := &faultFS{renameErr: func(newpath string) error {
					n := renames.Add(1)
					switch {
					case which == "every",
						which == "blob" && filepath.Base(newpath) != GoFileName && n == 3,
						which == "go-file" && filepath.Base(newpath) == GoFileName:
						return syscall.EXDEV
					}
					return nil
				}}
				resB.fsys = f
				_, err := resB.Write()
				wantErr(t, err, out, "invalid cross-device link")
				sameTree(t, out, before)
				stillA(t, resA)
				tempsGone(t, f)
			})
		}
	})
	t.Run("close-fails", func(t *testing.T) {
		_, out, before, resA, resB := faultSetup(t)
		f := &faultFS{closeErr: syscall.EIO}
		resB.fsys = f
		_, err := resB.Write()
		wantErr(t, err, out, "input/output error")
		sameTree(t, out, before)
		stillA(t, resA)
		tempsGone(t, f)
	})
	t.Run("chmod-0555", func(t *testing.T) {
		if os.Geteuid() == 0 {
			t.Skip("as root, a 0555 directory is writable; TestFaultReadOnlyDirAsNobody runs this as an unprivileged user")
		}
		_, out, _, resA, resB := faultSetup(t)
		for _, d := range []string{filepath.Join(out, DataDir), out} {
			if err := os.Chmod(d, 0o555); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { os.Chmod(d, 0o755) })
		}
		before := treeSnapshot(t, out) // after the chmods
		_, err := resB.Write()
		wantErr(t, err, out, "permission denied")
		sameTree(t, out, before)
		stillA(t, resA)
	})
}

// TestFaultReadOnlyDirAsNobody runs the real CLI as an unprivileged user
// (uid 65534) on an output directory and data directory of mode 0555: a
// root test process cannot be denied a write, but its child can.
func TestFaultReadOnlyDirAsNobody(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to run the CLI as another user; TestFaultWrites/chmod-0555 covers this case")
	}
	bin := crashCLI(t)
	w := newCrashWS(t, bin, 4, 6, 3000)
	w.mustRun(t, "generate", "a")
	out := filepath.Join(w.dir, "out")
	// The unprivileged user must reach the binary and the workspace.
	for _, p := range []string{bin, w.dir} {
		for d := filepath.Dir(p); d != "/" && strings.HasPrefix(d, os.TempDir()); d = filepath.Dir(d) {
			if err := os.Chmod(d, 0o755); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := os.Chmod(w.dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{filepath.Join(out, DataDir), out} {
		if err := os.Chmod(d, 0o555); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.Chmod(d, 0o755) })
	}
	before := treeSnapshot(t, out)

	c := w.cmd("generate", "b")
	c.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	var stderr bytes.Buffer
	c.Stderr = &stderr
	err := c.Run()
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit) && exit.ExitCode() == 1:
	case err != nil && !errors.As(err, &exit):
		t.Skipf("cannot run a process as uid 65534 here: %v", err)
	default:
		t.Fatalf("generate into a 0555 directory as an unprivileged user: %v\n%s", err, stderr.String())
	}
	if !strings.Contains(stderr.String(), "permission denied") || !strings.Contains(stderr.String(), "out/"+DataDir) {
		t.Errorf("unclear error:\n%s", stderr.String())
	}
	sameTree(t, out, before)
	if code, stderr := w.run("check", "a"); code != 0 || strings.Contains(stderr, "leftover") {
		t.Errorf("the previous state is not intact: check exits %d\n%s", code, stderr)
	}
}

// TestFaultDiscardsCache: a Write that fails removes the hash cache, so
// that a cached hash that made it fail cannot make the next run fail too.
func TestFaultDiscardsCache(t *testing.T) {
	w, _, _, _, _ := faultSetup(t)
	cacheDir := filepath.Join(w.dir, "cache")
	cfg := Config{Dir: w.dir, Manifests: []string{"b.toml"}, Workspace: w.dir, Out: "out", Package: "skills", CacheDir: cacheDir}
	res, err := Generate(cfg)
	if err != nil || !res.OK() {
		t.Fatalf("generate: %v %v", err, res.Diagnostics)
	}
	// A cache file, as an earlier run would have left it.
	cacheFile := filepath.Join(cacheDir, "hashes-earlier")
	writeTestFile(t, cacheFile, "anything")
	res.cache = hashcache.Open(cacheFile)

	res.fsys = &faultFS{createErr: syscall.ENOSPC}
	if _, err := res.Write(); err == nil {
		t.Fatal("Write succeeded on a full disk")
	}
	if _, err := os.Stat(cacheFile); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the cache survived a failed Write: %v", err)
	}
}

// lockless is a file system that cannot lock, as some network ones.
type lockless struct{ osFS }

func (lockless) Lock(string) (func(), error) {
	return func() {}, fmt.Errorf("%w: %v", errLockUnsupported, syscall.ENOLCK)
}

// TestFaultNoLock: where the output cannot be locked, Write still writes,
// and says that concurrent runs are not serialized.
func TestFaultNoLock(t *testing.T) {
	_, _, _, _, resB := faultSetup(t)
	resB.fsys = lockless{}
	rep, err := resB.Write()
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Warnings) != 1 || !strings.Contains(rep.Warnings[0], "cannot be locked") {
		t.Errorf("warnings %q, want one about the lock", rep.Warnings)
	}
	if ck, err := resB.Check(); err != nil || ck.Stale() {
		t.Errorf("check after the unlocked write: %+v, %v", ck, err)
	}
}
