//go:build !linux

package watch

// newNative: only Linux has a native backend; elsewhere the Watcher polls.
func newNative(func()) (backend, error) { return nil, errUnsupported }
