package compile

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/skillgen/skillgen/internal/fsutil"
	"github.com/skillgen/skillgen/internal/hashcache"
)

// within reports whether path lies inside dir (both clean and absolute, with
// symlinks resolved).
func within(dir, path string) bool {
	return path == dir || strings.HasPrefix(path, dir+string(filepath.Separator)) ||
		(strings.HasSuffix(dir, string(filepath.Separator)) && strings.HasPrefix(path, dir))
}

// walkSkill lists the files of a skill directory: every regular file below
// realDir, recursively, with dot-files left out unless hidden. Symlinks to
// files inside the skill stand for their target; nothing outside realDir is
// ever followed, and directory symlinks are not followed at all (so no loop
// is possible). Special files are skipped without being opened. Sizes come
// from the directory walk; nothing is read here.
//
// top, when not nil, is the listing of realDir already made; withInfo is
// false when sizes and modes are not needed (validate), which saves an
// lstat per file.
func walkSkill(dir, realDir string, top []fs.DirEntry, hidden, withInfo bool, ds *diags) []File {
	var files []File
	var walk func(osDir, rel string)
	walk = func(osDir, rel string) {
		entries, err := top, error(nil)
		if rel != "" || top == nil {
			entries, err = os.ReadDir(osDir)
		}
		if err != nil {
			ds.file = filepath.Join(dir, filepath.FromSlash(rel))
			ds.warnf(CodeReadFailed, 0, 0, "cannot list directory: %v", errors.Unwrap(err))
			return
		}
		for _, e := range entries {
			name := e.Name()
			relName := name
			if rel != "" {
				relName = rel + "/" + name
			}
			osPath := filepath.Join(osDir, name)
			ds.file = filepath.Join(dir, filepath.FromSlash(relName))
			if !utf8.ValidString(name) || strings.ContainsAny(name, "\n\r") {
				// Reported at the directory holding it: such a name would
				// break the "path:line:col:" line of the diagnostic.
				ds.file = filepath.Join(dir, filepath.FromSlash(rel))
				ds.warnf(CodeFileSkipped, 0, 0, "file name %q is not valid UTF-8 or holds a line break; the file is skipped", relName)
				continue
			}
			if strings.HasPrefix(name, ".") && !hidden {
				ds.add(Info, CodeFileSkipped, 0, 0, "hidden %s %q is left out (-hidden includes it)", kindWord(e.Type()), relName)
				continue
			}
			switch t := e.Type(); {
			case t.IsDir():
				walk(osPath, relName)
			case t.IsRegular() && !withInfo:
				files = append(files, File{Path: relName, Src: osPath})
			case t.IsRegular():
				info, err := e.Info()
				if err != nil {
					ds.warnf(CodeReadFailed, 0, 0, "cannot stat file: %v", errors.Unwrap(err))
					continue
				}
				files = append(files, File{Path: relName, Mode: normMode(info.Mode()), Size: info.Size(), Src: osPath, seen: info})
			case t&fs.ModeSymlink != 0:
				if f, ok := followFileLink(osPath, realDir, relName, hidden, ds); ok {
					files = append(files, f)
				}
			default:
				ds.warnf(CodeFileSkipped, 0, 0, "%s %q is not a regular file; it is skipped and never opened", kindWord(t), relName)
			}
		}
	}
	walk(realDir, "")
	ds.file = ""
	return files
}

// followFileLink resolves a symlink inside a skill. A link whose resolution
// leaves the skill is never followed; a link to a directory is not followed;
// unless hidden, a link to a dot-file or into a dot-directory is left out
// like its target (a link must not smuggle a .env in under another name).
func followFileLink(osPath, realDir, relName string, hidden bool, ds *diags) (File, bool) {
	target, err := filepath.EvalSymlinks(osPath)
	if err != nil {
		ds.warnf(CodeFileSkipped, 0, 0, "symlink %q cannot be resolved (dangling or a loop); it is skipped", relName)
		return File{}, false
	}
	target, err = filepath.Abs(target)
	if err != nil || !within(realDir, target) {
		ds.warnf(CodeSymlinkEscape, 0, 0, "symlink %q points outside the skill directory; it is never followed", relName)
		return File{}, false
	}
	if !hidden {
		if rel, err := filepath.Rel(realDir, target); err == nil && hasDotElem(rel) {
			ds.add(Info, CodeFileSkipped, 0, 0, "symlink %q points to hidden %q; it is left out (-hidden includes it)", relName, filepath.ToSlash(rel))
			return File{}, false
		}
	}
	info, err := os.Lstat(target)
	switch {
	case err != nil:
		ds.warnf(CodeFileSkipped, 0, 0, "symlink %q: %v; it is skipped", relName, errors.Unwrap(err))
		return File{}, false
	case info.IsDir():
		ds.warnf(CodeFileSkipped, 0, 0, "symlink %q points to a directory; directory links inside a skill are not followed", relName)
		return File{}, false
	case !info.Mode().IsRegular():
		ds.warnf(CodeFileSkipped, 0, 0, "symlink %q points to a %s; it is skipped and never opened", relName, kindWord(info.Mode().Type()))
		return File{}, false
	}
	return File{Path: relName, Mode: normMode(info.Mode()), Size: info.Size(), Src: target, seen: info}, true
}

// hasDotElem reports whether any element of the relative path starts
// with a dot (rel "." is the skill directory itself, not hidden).
func hasDotElem(rel string) bool {
	for _, e := range strings.Split(filepath.ToSlash(rel), "/") {
		if e != "." && strings.HasPrefix(e, ".") {
			return true
		}
	}
	return false
}

// normMode keeps only what is recorded: whether the file is executable.
// Everything else (owner, umask) would make the output differ by machine.
func normMode(m fs.FileMode) fs.FileMode {
	if m&0o111 != 0 {
		return 0o755
	}
	return 0o644
}

func kindWord(t fs.FileMode) string {
	switch {
	case t.IsDir():
		return "directory"
	case t&fs.ModeSymlink != 0:
		return "symlink"
	case t&fs.ModeNamedPipe != 0:
		return "named pipe"
	case t&fs.ModeSocket != 0:
		return "socket"
	case t&fs.ModeDevice != 0:
		return "device"
	case t&fs.ModeIrregular != 0:
		return "irregular file"
	}
	return "file"
}

// readRegular reads a regular file of at most max bytes. The size is
// checked before reading, and a special file is never opened. It returns
// nil, nil for a directory. listed is the file's type as the directory
// listing gave it, or ^0 when unknown: a file listed as regular is not
// stat'ed before it is opened (its fstat after the open checks it all the
// same), which spares a system call per skill.
func readRegular(file string, max int64, skill string, listed fs.FileMode) ([]byte, *Diagnostic) {
	fail := func(code, format string, args ...any) ([]byte, *Diagnostic) {
		return nil, &Diagnostic{Severity: Error, Code: code, File: file, Skill: skill, Message: fmt.Sprintf(format, args...)}
	}
	if !listed.IsRegular() {
		info, err := os.Stat(file)
		switch {
		case err != nil:
			return fail(CodeReadFailed, "cannot read file: %v", errors.Unwrap(err))
		case info.IsDir():
			return nil, nil
		case !info.Mode().IsRegular():
			return fail(CodeReadFailed, "%s is not a regular file; it is never opened", kindWord(info.Mode().Type()))
		case info.Size() > max:
			return fail(CodeFileTooLarge, "file is %d bytes; at most %d are allowed", info.Size(), max)
		}
	}
	b, err := fsutil.ReadRegularFile(file, max)
	var tooLarge *fsutil.TooLargeError
	switch {
	case errors.As(err, &tooLarge):
		return fail(CodeFileTooLarge, "file is %d bytes; at most %d are allowed", tooLarge.Size, max)
	case errors.Is(err, fsutil.ErrNotRegular):
		return fail(CodeReadFailed, "file changed while it was read")
	case err != nil:
		if inner := errors.Unwrap(err); inner != nil {
			err = inner
		}
		return fail(CodeReadFailed, "cannot read file: %v", err)
	}
	return b, nil
}

// hashFile computes the SHA-256 of f's bytes, streaming, and checks that the
// file still has the size the walk saw. A file the cache knows in exactly
// the state the walk saw is not opened at all.
func hashFile(f *File, cache *hashcache.Cache) error {
	if f.Data != nil {
		// Bytes already read are hashed as they are: a fingerprint taken
		// around the read could not prove they are the bytes it describes.
		f.SHA256 = sha256.Sum256(f.Data)
		return nil
	}
	if f.seen != nil {
		if sum, ok := cache.Lookup(f.Src, f.seen); ok {
			f.SHA256 = sum
			return nil
		}
	}
	r, err := fsutil.OpenForRead(f.Src)
	if err != nil {
		return err
	}
	defer r.Close()
	info, err := r.Stat()
	if err != nil {
		return err
	}
	if !info.Mode().IsRegular() || info.Size() != f.Size || !f.same(info) {
		return fmt.Errorf("%s changed while skillgen was reading it", f.Src)
	}
	h := sha256.New()
	n, err := fsutil.CopyBuffered(h, io.LimitReader(r, f.Size+1))
	if err != nil {
		return err
	}
	if n != f.Size {
		return fmt.Errorf("%s changed while skillgen was reading it", f.Src)
	}
	h.Sum(f.SHA256[:0])
	cache.Store(f.Src, info, f.SHA256)
	return nil
}

// Open returns a reader of the file's bytes: from memory, or from its
// source, which must still have the size it had when it was hashed.
func (f *File) Open() (io.ReadCloser, error) {
	if f.Data != nil {
		return io.NopCloser(bytes.NewReader(f.Data)), nil
	}
	r, err := fsutil.OpenForRead(f.Src)
	if err != nil {
		return nil, err
	}
	if info, err := r.Stat(); err != nil || !info.Mode().IsRegular() || info.Size() != f.Size || !f.same(info) {
		r.Close()
		return nil, fmt.Errorf("%s changed while skillgen was running", f.Src)
	}
	return r, nil
}

// same reports whether an opened file is the one the walk checked, so that
// a path swapped after the check (for a symlink out of the skill, say)
// never supplies bytes.
func (f *File) same(opened fs.FileInfo) bool {
	return f.seen == nil || os.SameFile(f.seen, opened)
}
