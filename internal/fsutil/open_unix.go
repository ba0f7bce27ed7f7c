//go:build unix

package fsutil

import (
	"os"
	"syscall"
)

// OpenForRead opens a file for reading with O_NONBLOCK, so that a file
// swapped for a named pipe after it was checked cannot hang the run.
func OpenForRead(name string) (*os.File, error) {
	return os.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
