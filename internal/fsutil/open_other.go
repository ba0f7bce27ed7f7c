//go:build !unix

package fsutil

import "os"

func OpenForRead(name string) (*os.File, error) { return os.Open(name) }
