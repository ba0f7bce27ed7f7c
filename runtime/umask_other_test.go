//go:build !unix

package runtime_test

import "testing"

func setUmask(t *testing.T, mask int) {
	t.Skip("umask, exec bits and symlinks are Unix-only")
}
