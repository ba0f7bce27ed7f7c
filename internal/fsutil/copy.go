package fsutil

import (
	"io"
	"sync"
)

// copyBufs are the buffers of CopyBuffered: one per concurrent copy instead
// of a fresh 32 KiB per file.
var copyBufs = sync.Pool{New: func() any { b := make([]byte, 256<<10); return &b }}

// CopyBuffered is io.Copy through a pooled buffer. It never hands the copy
// to the source's WriteTo, so the destination sees every byte (a hash
// beside the file being written, say).
func CopyBuffered(dst io.Writer, src io.Reader) (int64, error) {
	buf := copyBufs.Get().(*[]byte)
	defer copyBufs.Put(buf)
	return io.CopyBuffer(dst, struct{ io.Reader }{src}, *buf)
}
