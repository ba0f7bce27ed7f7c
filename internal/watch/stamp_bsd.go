//go:build darwin || freebsd || netbsd

package watch

import (
	"io/fs"
	"syscall"
)

// stampOf is what identifies one version of a file: size, modification
// and change times, inode.
func stampOf(info fs.FileInfo) [4]uint64 {
	st := [4]uint64{uint64(info.Size()), uint64(info.ModTime().UnixNano())}
	if sys, ok := info.Sys().(*syscall.Stat_t); ok {
		st[2], st[3] = uint64(sys.Ctimespec.Nano()), uint64(sys.Ino)
	}
	return st
}
