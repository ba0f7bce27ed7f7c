//go:build !(linux || darwin || freebsd || netbsd)

package watch

import "io/fs"

// stampOf is what identifies one version of a file where the platform
// gives no change time or inode: size and modification time.
func stampOf(info fs.FileInfo) [4]uint64 {
	return [4]uint64{uint64(info.Size()), uint64(info.ModTime().UnixNano())}
}
