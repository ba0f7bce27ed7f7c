// Package hashcache remembers the SHA-256 of files by their identity, so
// that a run of skillgen generate over unchanged inputs and output does not
// read and hash every byte again (what go generate runs on every build).
// See README.md, "Hash cache".
package hashcache

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"
)

// Cache remembers the SHA-256 of files by their identity.
//
// An entry is trusted only while the file's fingerprint (size, modification
// and change times in nanoseconds, inode and device) is exactly as it was
// when the bytes were hashed. Any write changes the change time, which no
// user call can set back, so an edited file is always hashed again. As git
// does for its index, a file changed less than racyWindow before the run
// that hashed it is not remembered: a second write within the same clock
// tick could otherwise leave its fingerprint unchanged.
//
// The cache lives outside the output (it is machine state, not part of the
// generated package) and only ever saves work: a missing, unreadable or
// corrupt cache file means hashing everything. The generator's check never uses it.
type Cache struct {
	file  string
	start time.Time

	mu      sync.Mutex
	old     map[string]cacheEntry // as loaded
	entries map[string]cacheEntry // to save: what this run saw
}

const (
	racyWindow = 2 * time.Second
	// cacheMagic starts a cache file and names its format.
	cacheMagic = "skillgen-hashes-v2\n"
)

type cacheEntry struct {
	FP  fingerprint
	Sum [32]byte
}

// fingerprint identifies one version of a file. The zero value means the
// platform gives no fingerprint, and nothing is cached.
type fingerprint struct {
	Size, Mtime, Ctime int64
	Ino, Dev           uint64
}

// Open loads the cache stored in file, if any, for a run that starts now.
// A nil *Cache is valid and caches nothing.
func Open(file string) *Cache { return OpenAt(file, time.Now()) }

// OpenAt is Open for a run that started at start: files changed less than
// two seconds before start are not remembered.
func OpenAt(file string, start time.Time) *Cache {
	c := &Cache{file: file, start: start, old: map[string]cacheEntry{}, entries: map[string]cacheEntry{}}
	if data, err := os.ReadFile(file); err == nil {
		if entries, ok := decodeCache(data); ok {
			c.old = entries
			c.entries = make(map[string]cacheEntry, len(entries))
		}
	}
	return c
}

// The file: cacheMagic, then per entry a uvarint path length, the path,
// five uvarints (size, mtime, ctime, inode, device) and the 32-byte sum;
// last, the SHA-256 of everything before it, so that a damaged file is
// dropped whole rather than trusted.
func encodeCache(entries map[string]cacheEntry) []byte {
	b := []byte(cacheMagic)
	for _, path := range slices.Sorted(maps.Keys(entries)) {
		e := entries[path]
		b = binary.AppendUvarint(b, uint64(len(path)))
		b = append(b, path...)
		for _, v := range [...]uint64{uint64(e.FP.Size), uint64(e.FP.Mtime), uint64(e.FP.Ctime), e.FP.Ino, e.FP.Dev} {
			b = binary.AppendUvarint(b, v)
		}
		b = append(b, e.Sum[:]...)
	}
	sum := sha256.Sum256(b)
	return append(b, sum[:]...)
}

func decodeCache(b []byte) (map[string]cacheEntry, bool) {
	if len(b) < sha256.Size {
		return nil, false
	}
	b, sum := b[:len(b)-sha256.Size], b[len(b)-sha256.Size:]
	if got := sha256.Sum256(b); !bytes.Equal(got[:], sum) {
		return nil, false
	}
	rest, ok := bytes.CutPrefix(b, []byte(cacheMagic))
	if !ok {
		return nil, false
	}
	entries := map[string]cacheEntry{}
	uvarint := func() (uint64, bool) {
		v, n := binary.Uvarint(rest)
		if n <= 0 {
			return 0, false
		}
		rest = rest[n:]
		return v, true
	}
	for len(rest) > 0 {
		n, ok := uvarint()
		if !ok || n > uint64(len(rest)) {
			return nil, false
		}
		path := string(rest[:n])
		rest = rest[n:]
		var v [5]uint64
		for i := range v {
			if v[i], ok = uvarint(); !ok {
				return nil, false
			}
		}
		if len(rest) < 32 {
			return nil, false
		}
		e := cacheEntry{FP: fingerprint{Size: int64(v[0]), Mtime: int64(v[1]), Ctime: int64(v[2]), Ino: v[3], Dev: v[4]}}
		copy(e.Sum[:], rest[:32])
		rest = rest[32:]
		entries[path] = e
	}
	return entries, true
}

// Lookup returns the remembered hash of the file at path whose current
// stat is info.
func (c *Cache) Lookup(path string, info fs.FileInfo) ([32]byte, bool) {
	if c == nil || info == nil {
		return [32]byte{}, false
	}
	fp, ok := fingerprintOf(info)
	if !ok {
		return [32]byte{}, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	e, hit := c.old[path]
	if !hit || e.FP != fp {
		return [32]byte{}, false
	}
	c.entries[path] = e
	return e.Sum, true
}

// Store remembers sum as the hash of the file at path whose stat, taken
// before its bytes were read, is info.
func (c *Cache) Store(path string, info fs.FileInfo, sum [32]byte) {
	if c == nil || info == nil {
		return
	}
	fp, ok := fingerprintOf(info)
	limit := c.start.Add(-racyWindow).UnixNano()
	if !ok || fp.Mtime >= limit || fp.Ctime >= limit {
		return
	}
	c.mu.Lock()
	c.entries[path] = cacheEntry{FP: fp, Sum: sum}
	c.mu.Unlock()
}

// Discard removes the cache file, for when a run that used it failed: the
// next run then hashes everything again, so a bad entry cannot make every
// run fail.
func (c *Cache) Discard() {
	if c != nil {
		os.Remove(c.file)
	}
}

// Save writes what this run saw, through a temporary file and a rename,
// unless that is what the file already holds. Entries of files this run did
// not look at are dropped, so the cache never outgrows the inputs and
// outputs of one output directory.
func (c *Cache) Save() error {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if maps.Equal(c.entries, c.old) {
		return nil
	}
	buf := bytes.NewBuffer(encodeCache(c.entries))
	if err := os.MkdirAll(filepath.Dir(c.file), 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(c.file), filepath.Base(c.file)+".tmp-*")
	if err != nil {
		return err
	}
	if _, err := f.Write(buf.Bytes()); err != nil {
		f.Close()
		os.Remove(f.Name())
		return err
	}
	if err := f.Close(); err != nil {
		os.Remove(f.Name())
		return err
	}
	if err := os.Rename(f.Name(), c.file); err != nil {
		os.Remove(f.Name())
		return err
	}
	return nil
}
