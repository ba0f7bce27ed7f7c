//go:build unix && !aix && !(solaris && !illumos)

package gen

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// lockDir takes an exclusive flock on the directory itself, so no lock file
// is ever left in it, and the kernel releases the lock when the process
// dies, so a killed run never blocks the next one.
func lockDir(dir string) (func(), error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if err != syscall.EINTR {
			break
		}
	}
	if errors.Is(err, syscall.ENOLCK) || errors.Is(err, syscall.EOPNOTSUPP) || errors.Is(err, syscall.EBADF) {
		// Some network file systems cannot lock a directory: write anyway.
		f.Close()
		return func() {}, fmt.Errorf("%w: %v", errLockUnsupported, err)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}
