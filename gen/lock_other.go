//go:build !unix

package gen

// lockDir is a no-op where flock is not available: concurrent runs on one
// output are only serialized on Unix.
func lockDir(dir string) (func(), error) { return func() {}, nil }
