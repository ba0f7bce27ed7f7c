//go:build !unix

package compile

import "os"

func openForRead(name string) (*os.File, error) { return os.Open(name) }
