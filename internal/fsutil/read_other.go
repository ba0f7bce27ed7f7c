//go:build !unix

package fsutil

// ReadRegularFile reads the regular file name, of at most max bytes.
func ReadRegularFile(name string, max int64) ([]byte, error) {
	f, err := OpenForRead(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, ErrNotRegular
	}
	return readSized(f, info.Size(), max)
}
