//go:build !unix

package gen

// lockDir cannot lock where there is no flock(2): Write goes on and says
// that concurrent runs on one output are not serialized.
func lockDir(dir string) (func(), error) { return func() {}, errLockUnsupported }
