//go:build !unix || aix || (solaris && !illumos)

package gen

// lockDir cannot lock where there is no flock(2) (Windows; Solaris and AIX,
// whose syscall package has none): Write goes on and says
// that concurrent runs on one output are not serialized.
func lockDir(dir string) (func(), error) { return func() {}, errLockUnsupported }
