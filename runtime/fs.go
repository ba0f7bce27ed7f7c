package runtime

import (
	"io"
	"io/fs"
	"path"
	"slices"
	"strings"
	"time"
)

// FS returns the skill files as a read-only file system: "<slug>/SKILL.md",
// "<slug>/scripts/x.sh", …, each byte-exact with its mode. Directories are
// implied by the files below them. It implements fs.ReadFileFS, fs.ReadDirFS
// and fs.StatFS over the static table, with no index built at start-up.
func (r *Registry) FS() fs.FS { return tableFS(r.t.Entries) }

// tableFS is a file system over entries sorted by path. All paths below a
// directory share its name plus "/" as a prefix, so they are contiguous and
// every lookup is a binary search.
type tableFS []Entry

var (
	_ fs.ReadFileFS = tableFS(nil)
	_ fs.ReadDirFS  = tableFS(nil)
	_ fs.StatFS     = tableFS(nil)
)

// search returns the index of the first entry whose path is >= name.
func (t tableFS) search(name string) int {
	i, _ := slices.BinarySearchFunc(t, name, func(e Entry, name string) int { return strings.Compare(e.Path, name) })
	return i
}

func (t tableFS) file(name string) (*Entry, bool) {
	if i := t.search(name); i < len(t) && t[i].Path == name {
		return &t[i], true
	}
	return nil, false
}

// dir returns the range of entries below directory name.
func (t tableFS) dir(name string) (lo, hi int, ok bool) {
	prefix := ""
	if name != "." {
		prefix = name + "/"
	}
	lo = t.search(prefix)
	hi = lo
	for hi < len(t) && strings.HasPrefix(t[hi].Path, prefix) {
		hi++
	}
	return lo, hi, name == "." || hi > lo
}

func (t tableFS) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	if e, ok := t.file(name); ok {
		f := &openFile{info: fileInfoOf(e)}
		f.Reader.Reset(*e.Data)
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
	if e, ok := t.file(name); ok {
		return []byte(*e.Data), nil
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
	if e, ok := t.file(name); ok {
		return fileInfoOf(e), nil
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
	if _, ok := t.file(name); ok {
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
		rest := t[i].Path[len(prefix):]
		child, _, isDir := strings.Cut(rest, "/")
		if !isDir {
			list = append(list, fs.FileInfoToDirEntry(fileInfoOf(&t[i])))
			i++
			continue
		}
		list = append(list, fs.FileInfoToDirEntry(dirInfo(prefix+child)))
		sub := prefix + child + "/"
		for i < hi && strings.HasPrefix(t[i].Path, sub) {
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

func fileInfoOf(e *Entry) fileInfo {
	return fileInfo{name: path.Base(e.Path), size: int64(len(*e.Data)), mode: e.Mode.Perm()}
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
