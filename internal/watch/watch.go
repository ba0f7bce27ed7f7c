// Package watch tells skillgen generate -watch when any of a run's inputs
// may have changed: manifest layers, the Workflow directory, and every
// file of every skill root, including directories that appear, disappear
// or are renamed, and roots that do not exist yet.
//
// On Linux it asks the kernel (inotify, one watch per directory, through
// the standard library's syscall package); elsewhere, or when inotify is
// not available or runs out of watches, it polls: it walks the inputs and
// compares a fingerprint of every directory listing and every entry's
// size, times, mode and inode, at an interval that keeps the walk under 1%
// of a core. README.md, "Watch", has the figures behind that choice.
package watch

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/skillgen/skillgen/internal/fsutil"
)

// Set is what to watch. Any path may not exist (yet): its appearance is a
// change.
type Set struct {
	Files []string // each of these files, absolute
	Trees []string // each of these directories and everything below, absolute
}

// Watcher reports changes to a Set on C: one value stands for any number
// of changes since the last receive.
type Watcher struct {
	C <-chan struct{}

	ch       chan struct{}
	mu       sync.Mutex
	impl     backend
	fellBack error // why the native backend was given up, once
}

// backend is one way of finding changes: the kernel's, or polling.
type backend interface {
	// watch replaces the watched set. Changes from the moment it returns
	// on are reported.
	watch(Set) error
	close()
	mode() string
}

// New starts a Watcher with nothing to watch yet. poll forces polling
// (SKILLGEN_WATCH=poll: file systems whose changes the kernel does not
// report, such as network mounts).
func New(poll bool) *Watcher {
	ch := make(chan struct{}, 1)
	w := &Watcher{C: ch, ch: ch}
	if !poll {
		if b, err := newNative(w.notify); err == nil {
			w.impl = b
		} else if !errors.Is(err, errUnsupported) {
			w.fellBack = err
		}
	}
	if w.impl == nil {
		w.impl = newPoller(w.notify)
	}
	return w
}

// notify records a change; it never blocks.
func (w *Watcher) notify() {
	select {
	case w.ch <- struct{}{}:
	default:
	}
}

// Watch replaces the watched set; changes after it returns are reported.
// When the native backend cannot watch the set (for instance, inotify's
// watch limit is reached), the Watcher switches to polling for good:
// FellBack then says why.
func (w *Watcher) Watch(s Set) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	err := w.impl.watch(s)
	if err == nil {
		return nil
	}
	if _, isPoller := w.impl.(*poller); isPoller {
		return err
	}
	w.impl.close()
	w.fellBack = err
	w.impl = newPoller(w.notify)
	w.notify() // changes while switching may have been missed
	return w.impl.watch(s)
}

// FellBack returns why the Watcher polls instead of using the kernel's
// notifications, or nil.
func (w *Watcher) FellBack() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.fellBack
}

// Mode describes how changes are found: "inotify" or "polling".
func (w *Watcher) Mode() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.impl.mode()
}

// Close stops watching.
func (w *Watcher) Close() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.impl.close()
}

var errUnsupported = errors.New("no native file notifications on this platform")

// anchor is a directory to watch for a path, and the name in it that
// matters.
type anchor struct{ dir, name string }

// anchors returns where path can be made to appear, disappear or point
// elsewhere: each existing ancestor directory of path, up to the root of
// the file system, with the name in it that leads to path. A rename or a
// retargeted symlink anywhere above path shows there; when path does not
// exist yet, the nearest existing ancestor is the first anchor.
func anchors(path string) []anchor {
	var as []anchor
	for {
		parent := filepath.Dir(path)
		if parent == path { // the root of the file system
			return as
		}
		if info, err := os.Stat(parent); err == nil && info.IsDir() {
			as = append(as, anchor{parent, filepath.Base(path)})
		}
		path = parent
	}
}

// walkTree calls visit for root and every directory, file and symlink
// below it, as the compiler reaches them: the root and each skill
// directory (depth 1) are followed when they are symlinks, deeper symlinks
// are not; directories whose name starts with a dot are skipped at depth 1
// (the compiler never scans them). visit gets the directory listing of
// every directory (names sorted), and the Lstat of every other entry. A
// root that is not a directory visits nothing.
func walkTree(root string, visit func(path string, info fs.FileInfo, names []string)) {
	info, err := os.Stat(root)
	if err != nil || !info.IsDir() {
		return
	}
	walkDir(root, info, 0, visit)
}

func walkDir(dir string, info fs.FileInfo, depth int, visit func(string, fs.FileInfo, []string)) {
	// Never blocks: a directory swapped for a named pipe meanwhile is
	// opened without waiting for a writer, and then fails to list.
	f, err := fsutil.OpenForRead(dir)
	if err != nil {
		visit(dir, info, nil)
		return
	}
	names, _ := f.Readdirnames(-1)
	f.Close()
	slices.Sort(names)
	visit(dir, info, names)
	for _, name := range names {
		if depth == 0 && strings.HasPrefix(name, ".") {
			continue
		}
		p := filepath.Join(dir, name)
		info, err := os.Lstat(p)
		if err != nil {
			continue // removed meanwhile: the listing changed, and that is seen
		}
		if depth == 0 && info.Mode()&fs.ModeSymlink != 0 {
			if target, err := os.Stat(p); err == nil && target.IsDir() {
				visit(p, info, nil) // the link itself: its target may change
				walkDir(p, target, depth+1, visit)
				continue
			}
		}
		if info.IsDir() {
			walkDir(p, info, depth+1, visit)
			continue
		}
		visit(p, info, nil)
	}
}
