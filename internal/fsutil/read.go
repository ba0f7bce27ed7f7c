package fsutil

import (
	"errors"
	"fmt"
	"io"
)

// ErrNotRegular is returned by ReadRegularFile for a file that, once open,
// is not a regular file (it was swapped since it was listed, say).
var ErrNotRegular = errors.New("not a regular file")

// TooLargeError is returned by ReadRegularFile for a file over its limit.
type TooLargeError struct{ Size, Max int64 }

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("file is %d bytes; at most %d are allowed", e.Size, e.Max)
}

// readSized reads a file whose fstat gave size into one allocation: one
// read for a file that does not change meanwhile (a regular file's read
// returns all it is asked for up to its end); a short read is read on to
// size, and a file that grew since is read on to its end, up to max+1.
func readSized(r io.Reader, size, max int64) ([]byte, error) {
	if size > max {
		return nil, &TooLargeError{size, max}
	}
	b := make([]byte, size+1)
	n, err := r.Read(b)
	if err != nil && err != io.EOF {
		return nil, err
	}
	if int64(n) < size { // a short read: read on to size, then look for more
		m, err := io.ReadFull(r, b[n:size])
		n += m
		switch {
		case err == nil:
			m, err = r.Read(b[size:])
			n += m
			if err != nil && err != io.EOF {
				return nil, err
			}
		case err != io.ErrUnexpectedEOF && err != io.EOF:
			return nil, err
		}
	}
	b = b[:n]
	for int64(n) > size && int64(len(b)) <= max {
		chunk := make([]byte, 32<<10)
		m, err := r.Read(chunk)
		b = append(b, chunk[:m]...)
		if err == io.EOF || m == 0 {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	if int64(len(b)) > max {
		return nil, &TooLargeError{int64(len(b)), max}
	}
	return b, nil
}
