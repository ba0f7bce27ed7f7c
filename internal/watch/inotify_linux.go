//go:build linux

package watch

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"sync"
	"syscall"
	"unsafe"
)

// inotify watches every directory of the set (inotify is not recursive),
// plus, for each path of the set, every directory above it, for the one
// name that leads to the path (anchors). It reads no event's details
// beyond the watch and the name: any event that concerns the set is a
// change, and the next watch call walks the trees again, adding watches
// for directories that appeared.
type inotify struct {
	fd     int      // the inotify instance
	file   *os.File // the same, for reads through the runtime's poller
	notify func()

	mu      sync.Mutex
	watches map[int32]names // by watch descriptor
}

// names says which entries of a watched directory matter: all (nil), or
// only those listed.
type names map[string]bool

// mask is what a watch reports: anything that changes an entry's bytes,
// mode or name, or the directory itself.
const mask = syscall.IN_MODIFY | syscall.IN_ATTRIB | syscall.IN_CLOSE_WRITE |
	syscall.IN_CREATE | syscall.IN_DELETE | syscall.IN_MOVED_FROM | syscall.IN_MOVED_TO |
	syscall.IN_DELETE_SELF | syscall.IN_MOVE_SELF | syscall.IN_ONLYDIR

func newNative(notify func()) (backend, error) {
	fd, err := syscall.InotifyInit1(syscall.IN_CLOEXEC | syscall.IN_NONBLOCK)
	if err != nil {
		return nil, fmt.Errorf("inotify: %w", err)
	}
	// A non-blocking descriptor goes through the runtime's poller: a read
	// parks the goroutine, and Close wakes it.
	in := &inotify{fd: fd, file: os.NewFile(uintptr(fd), "inotify"), notify: notify, watches: map[int32]names{}}
	go in.read()
	return in, nil
}

func (in *inotify) mode() string { return "inotify" }

func (in *inotify) close() { in.file.Close() }

func (in *inotify) watch(s Set) error {
	want := map[string]names{} // directory → the names that matter
	add := func(dir, name string) {
		ns, ok := want[dir]
		switch {
		case ok && ns == nil: // every name already
		case name == "":
			want[dir] = nil
		case !ok:
			want[dir] = names{name: true}
		default:
			ns[name] = true
		}
	}
	for _, p := range slices.Concat(s.Files, s.Trees) {
		for _, a := range anchors(p) {
			add(a.dir, a.name)
		}
	}
	for _, t := range s.Trees {
		walkTree(t, func(path string, info os.FileInfo, _ []string) {
			if info.IsDir() {
				add(path, "")
			}
		})
	}

	watches := map[int32]names{}
	for dir, ns := range want {
		wd, err := syscall.InotifyAddWatch(in.fd, dir, mask)
		switch {
		case errors.Is(err, syscall.ENOSPC):
			return fmt.Errorf("inotify: out of watches adding %d directories (raise fs.inotify.max_user_watches): %w", len(want), err)
		case err != nil:
			continue // gone meanwhile, or unreadable: its parent's watch sees what became of it
		}
		// Two paths can name one directory (a symlinked skill): one watch.
		if old, ok := watches[int32(wd)]; ok {
			switch {
			case old == nil: // every name already
			case ns == nil:
				watches[int32(wd)] = nil
			default:
				for n := range ns {
					old[n] = true
				}
			}
			continue
		}
		watches[int32(wd)] = ns
	}
	in.mu.Lock()
	old := in.watches
	in.watches = watches
	in.mu.Unlock()
	for wd := range old {
		if _, keep := watches[wd]; !keep {
			syscall.InotifyRmWatch(in.fd, uint32(wd))
		}
	}
	return nil
}

// read reports every event that concerns the set, until the instance is
// closed.
func (in *inotify) read() {
	buf := make([]byte, 64<<10)
	for {
		n, err := in.file.Read(buf)
		if err != nil {
			if !errors.Is(err, os.ErrClosed) {
				in.notify() // cannot tell any more: assume a change
			}
			return
		}
		if in.concerns(buf[:n]) {
			in.notify()
		}
	}
}

// concerns reports whether any event in buf is about the set.
func (in *inotify) concerns(buf []byte) bool {
	in.mu.Lock()
	defer in.mu.Unlock()
	for len(buf) >= syscall.SizeofInotifyEvent {
		ev := (*syscall.InotifyEvent)(unsafe.Pointer(&buf[0]))
		end := syscall.SizeofInotifyEvent + int(ev.Len)
		if end > len(buf) {
			return true // cannot happen: the kernel hands out whole events
		}
		name := buf[syscall.SizeofInotifyEvent:end]
		for len(name) > 0 && name[len(name)-1] == 0 {
			name = name[:len(name)-1]
		}
		buf = buf[end:]
		switch {
		case ev.Mask&syscall.IN_Q_OVERFLOW != 0:
			return true // events were lost
		case ev.Mask&syscall.IN_IGNORED != 0:
			continue // a watch went away (removed here, or its directory did)
		}
		ns, watched := in.watches[ev.Wd]
		if !watched {
			continue
		}
		if ns == nil || ns[string(name)] || ev.Mask&(syscall.IN_DELETE_SELF|syscall.IN_MOVE_SELF) != 0 {
			return true
		}
	}
	return false
}
