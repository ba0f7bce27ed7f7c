package gen

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/skillgen/skillgen/internal/fsutil"
)

// Temporary files. A run killed mid-write can leave them behind; they are
// not part of the output's state, and the next Write removes them.
const (
	goTempPrefix   = "." + GoFileName + ".tmp-" // in Out
	blobTempPrefix = ".tmp-"                    // in Out/DataDir
)

// outputFS is everything Write and Check do to the output directory. The
// OS implementation is the default; tests substitute one that fails.
type outputFS interface {
	MkdirAll(name string, perm fs.FileMode) error
	Lstat(name string) (fs.FileInfo, error)
	ReadDir(name string) ([]fs.DirEntry, error)
	ReadFile(name string) ([]byte, error)
	Open(name string) (io.ReadCloser, error)
	CreateTemp(dir, pattern string) (tempFile, error)
	Rename(oldpath, newpath string) error
	RemoveAll(name string) error
	// Lock takes an exclusive advisory lock that serializes writers of dir
	// and dies with its process.
	Lock(dir string) (unlock func(), err error)
}

type tempFile interface {
	io.Writer
	Name() string
	Chmod(fs.FileMode) error
	Close() error
}

type osFS struct{}

func (osFS) MkdirAll(name string, perm fs.FileMode) error { return os.MkdirAll(name, perm) }
func (osFS) Lstat(name string) (fs.FileInfo, error)       { return os.Lstat(name) }
func (osFS) ReadDir(name string) ([]fs.DirEntry, error)   { return os.ReadDir(name) }
func (osFS) ReadFile(name string) ([]byte, error)         { return os.ReadFile(name) }
func (osFS) Open(name string) (io.ReadCloser, error)      { return os.Open(name) }
func (osFS) Rename(oldpath, newpath string) error         { return os.Rename(oldpath, newpath) }
func (osFS) RemoveAll(name string) error                  { return os.RemoveAll(name) }
func (osFS) Lock(dir string) (func(), error)              { return lockDir(dir) }
func (osFS) CreateTemp(dir, pattern string) (tempFile, error) {
	return os.CreateTemp(dir, pattern)
}

// WriteReport says what a Write changed, paths relative to Out.
type WriteReport struct {
	Written  []string // created or replaced
	Removed  []string // stale owned files and leftovers
	Warnings []string // what went less well than it should, without failing
}

// errLockUnsupported is returned, with a working unlock, by a Lock that
// cannot lock on this file system: the write goes on unserialized.
var errLockUnsupported = errors.New("the output directory cannot be locked on this file system; concurrent runs are not serialized")

// plan is what it takes to bring the output directory to the rendered
// package, found by looking at the directory once. Check reports it;
// Write applies it, under the lock.
type plan struct {
	out       *rendered
	oldGo     []byte                 // the Go file on disk; nil when missing
	goMissing bool                   //
	data      map[string]fs.DirEntry // the data directory's listing; nil when it does not exist
	write     []*blob                // blobs missing or damaged on disk
	missing   map[string]bool        // of those, the missing ones
	stale     []string               // data directory names that are no blob of the package, sorted
	goTemps   []string               // temporary Go files left in Out by killed runs, sorted
}

// plan compares the rendered package with the output directory. intact
// says whether a blob on disk has the right bytes.
func (r *Result) plan(intact func(name string, e fs.DirEntry, b *blob) bool) (*plan, error) {
	p := &plan{out: r.render(), missing: map[string]bool{}}
	fsys := r.fsys
	old, err := fsys.ReadFile(filepath.Join(r.Out, GoFileName))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		p.goMissing = true
	case err != nil:
		return nil, fmt.Errorf("reading %s: %w", filepath.Join(r.Out, GoFileName), err)
	default:
		p.oldGo = old
	}

	dataDir := filepath.Join(r.Out, DataDir)
	if p.data, err = listDir(fsys, dataDir); err != nil {
		return nil, err
	}
	blobs := p.out.blobs
	ok := make([]bool, len(blobs))
	fsutil.Parallel(len(blobs), func(i int) {
		if e := p.data[blobs[i].name]; e != nil && e.Type().IsRegular() {
			ok[i] = intact(filepath.Join(dataDir, blobs[i].name), e, blobs[i])
		}
	})
	want := make(map[string]bool, len(blobs))
	for i, b := range blobs {
		want[b.name] = true
		if !ok[i] {
			p.write = append(p.write, b)
			p.missing[b.name] = p.data[b.name] == nil
		}
	}
	for _, name := range sortedNames(p.data) {
		if !want[name] {
			p.stale = append(p.stale, name)
		}
	}
	outEntries, err := listDir(fsys, r.Out)
	if err != nil {
		return nil, err
	}
	for _, name := range sortedNames(outEntries) {
		if strings.HasPrefix(name, goTempPrefix) {
			p.goTemps = append(p.goTemps, name)
		}
	}
	return p, nil
}

// goChanged reports whether the Go file must be written.
func (p *plan) goChanged() bool { return p.goMissing || !bytes.Equal(p.oldGo, p.out.goSrc) }

// Write brings the output directory to the rendered state, changing only
// what differs. New blobs are written first, then the Go file is renamed
// into place (the one step that switches from the old state to the new),
// then blobs nothing references any more are removed. A crash at any point
// leaves either the old or the new state plus leftovers, never a mix.
// Concurrent writers of one directory take turns through a lock, under
// which the directory is planned and then changed.
func (r *Result) Write() (WriteReport, error) {
	rep, err := r.write()
	if err != nil {
		r.cache.Discard() // a wrong cached hash must not fail every run
	}
	return rep, err
}

func (r *Result) write() (WriteReport, error) {
	var rep WriteReport
	if !r.OK() {
		return rep, errors.New("the run has errors; nothing was written")
	}
	fsys := r.fsys
	if err := ensureDir(fsys, r.Out); err != nil {
		return rep, err
	}
	unlock, err := fsys.Lock(r.Out)
	switch {
	case errors.Is(err, errLockUnsupported):
		rep.Warnings = append(rep.Warnings, err.Error())
	case err != nil:
		return rep, fmt.Errorf("locking %s: %w", r.Out, err)
	}
	defer unlock()

	p, err := r.plan(r.blobIntactCached)
	if err != nil {
		return rep, err
	}
	if !p.goMissing && !isGenerated(p.oldGo) {
		return rep, fmt.Errorf("%s exists and was not generated by skillgen; not overwriting it", filepath.Join(r.Out, GoFileName))
	}

	// Until the switch, a failure takes back what this run added (new
	// blobs; the data directory, if it made it), so that the previous
	// output is left as it was, listing included.
	dataDir := filepath.Join(r.Out, DataDir)
	undo := func(err error) (WriteReport, error) {
		if p.data == nil {
			fsys.RemoveAll(dataDir)
		}
		for _, path := range rep.Written {
			if name := strings.TrimPrefix(path, DataDir+"/"); p.data != nil && p.missing[name] {
				fsys.RemoveAll(filepath.Join(dataDir, name))
			}
		}
		return WriteReport{}, err
	}
	if err := ensureDir(fsys, dataDir); err != nil { // there is always the table
		return undo(err)
	}

	// 1. Blobs that are missing or damaged.
	var mu sync.Mutex
	errs := make([]error, len(p.write))
	fsutil.Parallel(len(p.write), func(i int) {
		if errs[i] = writeBlob(fsys, dataDir, p.write[i]); errs[i] == nil {
			mu.Lock()
			rep.Written = append(rep.Written, DataDir+"/"+p.write[i].name)
			mu.Unlock()
		}
	})
	if err := errors.Join(errs...); err != nil {
		return undo(err)
	}

	// 2. The switch: the Go file, if it changed.
	if p.goChanged() {
		if err := writeAtomic(fsys, r.Out, goTempPrefix, GoFileName, func(w io.Writer) error {
			_, err := w.Write(p.out.goSrc)
			return err
		}); err != nil {
			return undo(err)
		}
		rep.Written = append(rep.Written, GoFileName)
	}

	// 3. What nothing references any more, and leftovers of killed runs.
	for _, name := range p.stale {
		if err := fsys.RemoveAll(filepath.Join(dataDir, name)); err != nil {
			return rep, fmt.Errorf("removing stale file: %w", err)
		}
		rep.Removed = append(rep.Removed, DataDir+"/"+name)
	}
	for _, name := range p.goTemps {
		if err := fsys.RemoveAll(filepath.Join(r.Out, name)); err != nil {
			return rep, fmt.Errorf("removing leftover: %w", err)
		}
		rep.Removed = append(rep.Removed, name)
	}
	slices.Sort(rep.Written)
	// The cache only ever saves work: failing to keep it loses nothing.
	_ = r.cache.Save()
	return rep, nil
}

// isGenerated reports whether src starts with skillgen's header.
func isGenerated(src []byte) bool {
	return bytes.HasPrefix(src, []byte("// "+Header+"\n"))
}

// ensureDir creates dir if needed and insists that it is a real directory,
// not a file or a symlink to somewhere else.
func ensureDir(fsys outputFS, dir string) error {
	if err := fsys.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("creating %s: %w", dir, err)
	}
	info, err := fsys.Lstat(dir)
	if err != nil {
		return err
	}
	if !info.IsDir() {
		return fmt.Errorf("%s is not a directory", dir)
	}
	return nil
}

// listDir maps the names in dir to their entries; nil if dir does not exist.
func listDir(fsys outputFS, dir string) (map[string]fs.DirEntry, error) {
	info, err := fsys.Lstat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if !info.IsDir() {
		return nil, fmt.Errorf("%s is not a directory", dir)
	}
	entries, err := fsys.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	m := make(map[string]fs.DirEntry, len(entries))
	for _, e := range entries {
		m[e.Name()] = e
	}
	return m, nil
}

func sortedNames(m map[string]fs.DirEntry) []string {
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// blobIntactCached is blobIntact through the hash cache: a blob whose
// fingerprint is as when it was last found intact is not read again.
func (r *Result) blobIntactCached(name string, e fs.DirEntry, b *blob) bool {
	info, err := e.Info()
	if err != nil {
		return false
	}
	if sum, ok := r.cache.Lookup(name, info); ok {
		return hex.EncodeToString(sum[:]) == b.name
	}
	if !blobIntact(r.fsys, name, b) {
		return false
	}
	r.cache.Store(name, info, b.file.SHA256)
	return true
}

// blobIntact reports whether the blob on disk has the right bytes.
func blobIntact(fsys outputFS, name string, b *blob) bool {
	f, err := fsys.Open(name)
	if err != nil {
		return false
	}
	defer f.Close()
	h := sha256.New()
	n, err := fsutil.CopyBuffered(h, f)
	return err == nil && n == b.file.Size && hex.EncodeToString(h.Sum(nil)) == b.name
}

// writeBlob copies a skill file into the data directory under its hash,
// checking on the way that the bytes still hash to that name.
func writeBlob(fsys outputFS, dataDir string, b *blob) error {
	return writeAtomic(fsys, dataDir, blobTempPrefix, b.name, func(w io.Writer) error {
		src, err := b.file.Open()
		if err != nil {
			return err
		}
		defer src.Close()
		h := sha256.New()
		if _, err := fsutil.CopyBuffered(io.MultiWriter(w, h), src); err != nil {
			return err
		}
		if hex.EncodeToString(h.Sum(nil)) != b.name {
			return fmt.Errorf("%s changed while skillgen was running", b.file.Src)
		}
		return nil
	})
}

// writeAtomic writes name in dir through a temporary file and a rename, so
// that name is always either its old or its new content.
func writeAtomic(fsys outputFS, dir, tempPrefix, name string, fill func(io.Writer) error) (err error) {
	f, err := fsys.CreateTemp(dir, tempPrefix+"*")
	if err != nil {
		return fmt.Errorf("writing %s: %w", filepath.Join(dir, name), err)
	}
	defer func() {
		if err != nil {
			f.Close()
			fsys.RemoveAll(f.Name())
			err = fmt.Errorf("writing %s: %w", filepath.Join(dir, name), err)
		}
	}()
	if err := fill(f); err != nil {
		return err
	}
	// The mode must not depend on the umask; CreateTemp makes files 0600.
	if err := f.Chmod(0o644); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return fsys.Rename(f.Name(), filepath.Join(dir, name))
}

// Change is one difference between the rendered package and the disk.
type Change struct {
	Path string // relative to Out
	Kind string // "differs", "missing" or "extra"
}

// CheckReport is the outcome of Check.
type CheckReport struct {
	Changes   []Change // the output is stale when there is any
	Leftovers []string // temp files and unreferenced blobs of an interrupted run: not a change
}

// Stale reports whether the output differs from what Write would produce.
func (c CheckReport) Stale() bool { return len(c.Changes) > 0 }

// Check compares the rendered package with the output directory and writes
// nothing: it is Write's plan, reported. A differing, missing or extra
// owned file is a change; temp files and unreferenced blobs left by an
// interrupted run are leftovers. It reads every blob (no cache).
func (r *Result) Check() (CheckReport, error) {
	var rep CheckReport
	if !r.OK() {
		return rep, errors.New("the run has errors")
	}
	fsys := r.fsys
	p, err := r.plan(func(name string, _ fs.DirEntry, b *blob) bool { return blobIntact(fsys, name, b) })
	if err != nil {
		return rep, err
	}
	if p.goMissing {
		rep.Changes = append(rep.Changes, Change{GoFileName, "missing"})
	} else if p.goChanged() {
		rep.Changes = append(rep.Changes, Change{GoFileName, "differs"})
	}
	for _, b := range p.write {
		kind := "differs"
		if p.missing[b.name] {
			kind = "missing"
		}
		rep.Changes = append(rep.Changes, Change{DataDir + "/" + b.name, kind})
	}
	for _, name := range p.stale {
		if e := p.data[name]; e.Type().IsRegular() && (strings.HasPrefix(name, blobTempPrefix) || isBlobName(name)) {
			rep.Leftovers = append(rep.Leftovers, DataDir+"/"+name)
		} else {
			rep.Changes = append(rep.Changes, Change{DataDir + "/" + name, "extra"})
		}
	}
	rep.Leftovers = append(rep.Leftovers, p.goTemps...)
	slices.SortFunc(rep.Changes, func(a, b Change) int { return strings.Compare(a.Path, b.Path) })
	return rep, nil
}

// isBlobName reports whether name is a hex SHA-256, as blobs are named.
func isBlobName(name string) bool {
	if len(name) != 64 {
		return false
	}
	_, err := hex.DecodeString(name)
	return err == nil && strings.ToLower(name) == name
}
