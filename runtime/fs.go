package runtime

import (
	"io"
	"io/fs"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/skillgen/skillgen/runtime/internal/abi"
)

// FS returns the skill files as a read-only file system: "<slug>/SKILL.md",
// "<slug>/scripts/x.sh", …, each byte-exact with its mode. Directories are
// implied by the files below them. It implements fs.ReadFileFS, fs.ReadDirFS
// and fs.StatFS over the table's entries, with no index built at start-up.
func (r *Registry) FS() fs.FS { return tableFS{r} }

// entry is one skill file as FS serves it.
type entry struct {
	path    string // "<slug>/<path in the skill>"
	slugLen int
	mode    fs.FileMode
	blob    int
}

func (r *Registry) entries() int { return r.d.Header(abi.HEntryCount) }

func (r *Registry) entryPath(i int) string {
	return r.d.String(r.d.Record(abi.HEntryOff, abi.EntryWords, i) + 4*abi.EPath)
}

func (r *Registry) entry(i int) entry {
	rec := r.d.Record(abi.HEntryOff, abi.EntryWords, i)
	return entry{
		path:    r.d.String(rec + 4*abi.EPath),
		slugLen: r.d.Int(rec + 4*abi.ESlugLen),
		mode:    fs.FileMode(r.d.Word(rec + 4*abi.EMode)),
		blob:    r.d.Int(rec + 4*abi.EBlob),
	}
}

// blobData returns the bytes of blob i; ok is false when the table does
// not carry them (a preview of a build, which holds names and sizes only).
func (r *Registry) blobData(i int) (data string, ok bool) {
	if r.t.Blobs[i] == nil {
		return "", false
	}
	return *r.t.Blobs[i], true
}

func (r *Registry) blobRecord(i int) int { return r.d.Record(abi.HBlobOff, abi.BlobWords, i) }

func (r *Registry) blobSize(i int) int64 {
	rec := r.blobRecord(i)
	return int64(r.d.Word(rec+4*abi.BSizeLo)) | int64(r.d.Word(rec+4*abi.BSizeHi))<<32
}

func (r *Registry) blobName(i int) string { return r.d.String(r.blobRecord(i) + 4*abi.BName) }

// tableFS is a file system over the entries, which are sorted by path. All
// paths below a directory share its name plus "/" as a prefix, so they are
// contiguous and every lookup is a binary search.
type tableFS struct{ r *Registry }

var (
	_ fs.ReadFileFS = tableFS{}
	_ fs.ReadDirFS  = tableFS{}
	_ fs.StatFS     = tableFS{}
)

// search returns the index of the first entry whose path is >= name.
func (t tableFS) search(name string) int {
	lo, hi := 0, t.r.entries()
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if t.r.entryPath(m) < name {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// file returns the file called name and its bytes.
func (t tableFS) file(name string) (entry, string, bool) {
	if i := t.search(name); i < t.r.entries() && t.r.entryPath(i) == name {
		e := t.r.entry(i)
		if data, ok := t.r.blobData(e.blob); ok {
			return e, data, true
		}
	}
	return entry{}, "", false
}

// dir returns the range of entries below directory name.
func (t tableFS) dir(name string) (lo, hi int, ok bool) {
	prefix := ""
	if name != "." {
		prefix = name + "/"
	}
	lo = t.search(prefix)
	hi = lo
	for hi < t.r.entries() && strings.HasPrefix(t.r.entryPath(hi), prefix) {
		hi++
	}
	return lo, hi, name == "." || hi > lo
}

func (t tableFS) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	if e, data, ok := t.file(name); ok {
		f := &openFile{info: fileInfoOf(e, data)}
		f.Reader.Reset(data)
		return f, nil
	}
	if entries, ok := t.readDir(name); ok {
		return &openDir{info: dirInfo(name), entries: entries}, nil
	}
	return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
}

func (t tableFS) ReadFile(name string) ([]byte, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "read", Path: name, Err: fs.ErrInvalid}
	}
	if _, data, ok := t.file(name); ok {
		return []byte(data), nil
	}
	if _, _, ok := t.dir(name); ok {
		return nil, &fs.PathError{Op: "read", Path: name, Err: errIsDir}
	}
	return nil, &fs.PathError{Op: "read", Path: name, Err: fs.ErrNotExist}
}

func (t tableFS) Stat(name string) (fs.FileInfo, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "stat", Path: name, Err: fs.ErrInvalid}
	}
	if e, data, ok := t.file(name); ok {
		return fileInfoOf(e, data), nil
	}
	if _, _, ok := t.dir(name); ok {
		return dirInfo(name), nil
	}
	return nil, &fs.PathError{Op: "stat", Path: name, Err: fs.ErrNotExist}
}

func (t tableFS) ReadDir(name string) ([]fs.DirEntry, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrInvalid}
	}
	if entries, ok := t.readDir(name); ok {
		return entries, nil
	}
	if _, _, ok := t.file(name); ok {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: errNotDir}
	}
	return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrNotExist}
}

// readDir lists the children of directory name, sorted by name.
func (t tableFS) readDir(name string) ([]fs.DirEntry, bool) {
	lo, hi, ok := t.dir(name)
	if !ok {
		return nil, false
	}
	prefix := ""
	if name != "." {
		prefix = name + "/"
	}
	var list []fs.DirEntry
	for i := lo; i < hi; {
		e := t.r.entry(i)
		child, _, isDir := strings.Cut(e.path[len(prefix):], "/")
		if !isDir {
			if data, ok := t.r.blobData(e.blob); ok {
				list = append(list, fs.FileInfoToDirEntry(fileInfoOf(e, data)))
			}
			i++
			continue
		}
		list = append(list, fs.FileInfoToDirEntry(dirInfo(prefix+child)))
		sub := prefix + child + "/"
		for i < hi && strings.HasPrefix(t.r.entryPath(i), sub) {
			i++
		}
	}
	slices.SortFunc(list, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return list, true
}

type pathError string

func (e pathError) Error() string { return string(e) }

const (
	errIsDir  = pathError("is a directory")
	errNotDir = pathError("not a directory")
)

type fileInfo struct {
	name string
	size int64
	mode fs.FileMode
}

func fileInfoOf(e entry, data string) fileInfo {
	return fileInfo{name: path.Base(e.path), size: int64(len(data)), mode: e.mode.Perm()}
}

func dirInfo(name string) fileInfo {
	return fileInfo{name: path.Base(name), mode: fs.ModeDir | 0o755}
}

func (i fileInfo) Name() string       { return i.name }
func (i fileInfo) Size() int64        { return i.size }
func (i fileInfo) Mode() fs.FileMode  { return i.mode }
func (i fileInfo) ModTime() time.Time { return time.Time{} }
func (i fileInfo) IsDir() bool        { return i.mode.IsDir() }
func (i fileInfo) Sys() any           { return nil }

// openFile is an open regular file; it reads, seeks and reads at offsets.
type openFile struct {
	strings.Reader
	info fileInfo
}

func (f *openFile) Stat() (fs.FileInfo, error) { return f.info, nil }
func (f *openFile) Close() error               { return nil }

// openDir is an open directory.
type openDir struct {
	info    fileInfo
	entries []fs.DirEntry
	off     int
}

func (d *openDir) Stat() (fs.FileInfo, error) { return d.info, nil }
func (d *openDir) Close() error               { return nil }
func (d *openDir) Read([]byte) (int, error) {
	return 0, &fs.PathError{Op: "read", Path: d.info.name, Err: errIsDir}
}

func (d *openDir) ReadDir(n int) ([]fs.DirEntry, error) {
	rest := d.entries[d.off:]
	if n <= 0 {
		d.off = len(d.entries)
		return slices.Clone(rest), nil
	}
	if len(rest) == 0 {
		return nil, io.EOF
	}
	n = min(n, len(rest))
	d.off += n
	return slices.Clone(rest[:n]), nil
}
