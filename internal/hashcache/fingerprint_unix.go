//go:build linux || darwin || freebsd || netbsd

package hashcache

import (
	"io/fs"
	"syscall"
)

func fingerprintOf(info fs.FileInfo) (fingerprint, bool) {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok || info.IsDir() {
		return fingerprint{}, false
	}
	mtime, ctime := statTimes(st)
	return fingerprint{
		Size: info.Size(), Mtime: mtime, Ctime: ctime,
		Ino: uint64(st.Ino), Dev: uint64(st.Dev),
	}, true
}
