//go:build linux || darwin || freebsd || netbsd

package hashcache

import (
	"bytes"
	"crypto/sha256"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// stat returns the file's info, as the walk that hashes it takes it.
func stat(t *testing.T, name string) os.FileInfo {
	t.Helper()
	info, err := os.Lstat(name)
	if err != nil {
		t.Fatal(err)
	}
	return info
}

func TestRoundTrip(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "a.txt")
	if err := os.WriteFile(name, []byte("hello"), 0o644); err != nil {
		t.Fatal(err)
	}
	cacheFile := filepath.Join(dir, "cache", "hashes")
	later := time.Now().Add(time.Minute) // the file is old enough to remember
	hello := sha256.Sum256([]byte("hello"))

	c := OpenAt(cacheFile, later)
	if _, ok := c.Lookup(name, stat(t, name)); ok {
		t.Fatal("Lookup hit in an empty cache")
	}
	c.Store(name, stat(t, name), hello)
	if err := c.Save(); err != nil {
		t.Fatal(err)
	}

	c = OpenAt(cacheFile, later)
	sum, ok := c.Lookup(name, stat(t, name))
	if !ok || sum != hello {
		t.Fatalf("Lookup after Save: %x, %v", sum, ok)
	}
	// Save keeps only what this run saw.
	c.old["/other"] = cacheEntry{}
	if err := c.Save(); err != nil {
		t.Fatal(err)
	}
	c2 := Open(cacheFile)
	if len(c2.old) != 1 {
		t.Errorf("saved %d entries, want the 1 this run looked at", len(c2.old))
	}
	if got := c2.old[name]; got.Sum != hello || got.FP != c.entries[name].FP {
		t.Errorf("entry after a round trip through the file: %+v, want %+v", got, c.entries[name])
	}
	// Another fingerprint (here: another size) misses.
	if err := os.WriteFile(name, []byte("hello, world"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, ok := c2.Lookup(name, stat(t, name)); ok {
		t.Error("Lookup hit for a file whose size changed")
	}
}

// TestRacy: a file changed within racyWindow of the run is not remembered.
func TestRacy(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "a.txt")
	if err := os.WriteFile(name, []byte("fresh"), 0o644); err != nil {
		t.Fatal(err)
	}
	c := Open(filepath.Join(dir, "hashes")) // starts now
	c.Store(name, stat(t, name), sha256.Sum256([]byte("fresh")))
	if _, ok := c.entries[name]; ok {
		t.Errorf("a file changed a moment ago was remembered")
	}
}

// TestDecode: truncated or foreign files are rejected whole.
func TestDecode(t *testing.T) {
	entries := map[string]cacheEntry{
		"/a": {FP: fingerprint{Size: 1, Mtime: 2, Ctime: 3, Ino: 4, Dev: 5}, Sum: [32]byte{9}},
		"/b": {FP: fingerprint{Size: 1 << 40, Mtime: -1, Ctime: 1 << 62, Ino: 1 << 63, Dev: 0}},
	}
	data := encodeCache(entries)
	got, ok := decodeCache(data)
	if !ok || len(got) != 2 || got["/a"] != entries["/a"] || got["/b"] != entries["/b"] {
		t.Fatalf("round trip: %v, %v", got, ok)
	}
	for i := range len(data) - 1 {
		if _, ok := decodeCache(data[:i]); ok {
			t.Errorf("a file cut at %d of %d bytes was accepted", i, len(data))
		}
	}
	for i := range data { // every flipped bit is caught by the checksum
		bad := bytes.Clone(data)
		bad[i] ^= 0x10
		if _, ok := decodeCache(bad); ok {
			t.Errorf("a file with byte %d changed was accepted", i)
		}
	}
	if _, ok := decodeCache(append([]byte("skillgen-hashes-v0\n"), make([]byte, 32)...)); ok {
		t.Error("an older format was accepted")
	}
}

func TestCorruptAndNil(t *testing.T) {
	dir := t.TempDir()
	cacheFile := filepath.Join(dir, "hashes")
	os.WriteFile(cacheFile, []byte("not a cache"), 0o644)
	c := Open(cacheFile)
	if len(c.old) != 0 {
		t.Errorf("corrupt cache loaded %d entries", len(c.old))
	}
	if err := c.Save(); err != nil {
		t.Errorf("Save over a corrupt cache: %v", err)
	}
	var none *Cache
	info, _ := os.Lstat(cacheFile)
	if _, ok := none.Lookup(cacheFile, info); ok {
		t.Error("nil cache hit")
	}
	none.Store(cacheFile, info, [32]byte{})
	if err := none.Save(); err != nil {
		t.Error(err)
	}
	// An unwritable cache location only loses the cache.
	c = Open(filepath.Join(cacheFile, "below-a-file", "hashes"))
	c.entries["/x"] = cacheEntry{Sum: [32]byte{1}}
	if err := c.Save(); err == nil {
		t.Error("Save below a file: no error")
	}
}
