//go:build !(linux || darwin || freebsd || netbsd)

package hashcache

import "io/fs"

// fingerprintOf gives no fingerprint where there is no change time: the
// hash cache then caches nothing.
func fingerprintOf(fs.FileInfo) (fingerprint, bool) { return fingerprint{}, false }
