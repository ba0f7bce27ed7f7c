//go:build unix

package fsutil

import (
	"io"
	"os"
	"syscall"
)

// ReadRegularFile reads the regular file name, of at most max bytes, with
// four system calls: open (non-blocking, so that a named pipe swapped in
// cannot hang the run), fstat, read, close. Going through os.File would add
// a fifth (it offers every non-blocking descriptor to the network poller,
// which refuses regular files).
func ReadRegularFile(name string, max int64) ([]byte, error) {
	var fd int
	var err error
	for {
		fd, err = syscall.Open(name, syscall.O_RDONLY|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: name, Err: err}
	}
	defer syscall.Close(fd)
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		return nil, &os.PathError{Op: "fstat", Path: name, Err: err}
	}
	if st.Mode&syscall.S_IFMT != syscall.S_IFREG {
		return nil, ErrNotRegular
	}
	return readSized(fdReader(fd), st.Size, max)
}

// fdReader reads a descriptor, retrying on EINTR.
type fdReader int

func (f fdReader) Read(b []byte) (int, error) {
	for {
		n, err := syscall.Read(int(f), b)
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return 0, err
		case n == 0 && len(b) > 0:
			return 0, io.EOF
		}
		return n, nil
	}
}
