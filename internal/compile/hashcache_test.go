//go:build linux || darwin || freebsd || netbsd

package compile

import (
	"bytes"
	"crypto/sha256"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// walkedFile stats name as the walk does and returns the File it would make.
func walkedFile(t *testing.T, name string) *File {
	t.Helper()
	info, err := os.Lstat(name)
	if err != nil {
		t.Fatal(err)
	}
	return &File{Path: filepath.Base(name), Size: info.Size(), Src: name, seen: info}
}

// openCache opens the cache in file as a run starting at start would.
func openCache(file string, start time.Time) *HashCache {
	c := OpenHashCache(file)
	c.start = start
	return c
}

func TestHashCacheRoundTrip(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "a.txt")
	if err := os.WriteFile(name, []byte("hello"), 0o644); err != nil {
		t.Fatal(err)
	}
	cacheFile := filepath.Join(dir, "cache", "hashes")
	later := time.Now().Add(time.Minute) // the file is old enough to remember

	c := openCache(cacheFile, later)
	f := walkedFile(t, name)
	if err := hashFile(f, c); err != nil {
		t.Fatal(err)
	}
	if f.SHA256 != sha256.Sum256([]byte("hello")) {
		t.Fatalf("hash %x", f.SHA256)
	}
	if err := c.Save(); err != nil {
		t.Fatal(err)
	}

	// A new run finds the entry, and trusts it without reading the file:
	// plant a different sum for the same fingerprint and see it come back.
	c = openCache(cacheFile, later)
	f = walkedFile(t, name)
	sum, ok := c.Lookup(name, f.seen)
	if !ok || sum != sha256.Sum256([]byte("hello")) {
		t.Fatalf("Lookup after Save: %x, %v", sum, ok)
	}
	planted := sha256.Sum256([]byte("planted"))
	e := c.old[name]
	e.Sum = planted
	c.old[name] = e
	if err := hashFile(f, c); err != nil {
		t.Fatal(err)
	}
	if f.SHA256 != planted {
		t.Errorf("hashFile read the file although the cache knew it")
	}
	// Save keeps only what this run saw.
	other := filepath.Join(dir, "b.txt")
	os.WriteFile(other, []byte("b"), 0o644)
	c.old[other] = cacheEntry{}
	if err := c.Save(); err != nil {
		t.Fatal(err)
	}
	c2 := OpenHashCache(cacheFile)
	if len(c2.old) != 1 {
		t.Errorf("saved %d entries, want the 1 this run looked at", len(c2.old))
	}
	if got := c2.old[name]; got.Sum != planted || got.FP != c.entries[name].FP {
		t.Errorf("entry after a round trip through the file: %+v, want %+v", got, c.entries[name])
	}
}

// TestHashCacheDecode: truncated or foreign files are rejected whole.
func TestHashCacheDecode(t *testing.T) {
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

// TestHashCacheEditDetected: an edit that keeps the size and sets the
// modification time back still changes the change time, so the file is
// hashed again.
func TestHashCacheEditDetected(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "a.txt")
	if err := os.WriteFile(name, []byte("hello"), 0o644); err != nil {
		t.Fatal(err)
	}
	old := time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)
	if err := os.Chtimes(name, old, old); err != nil {
		t.Fatal(err)
	}
	cacheFile := filepath.Join(dir, "hashes")
	later := time.Now().Add(time.Minute)
	c := openCache(cacheFile, later)
	f := walkedFile(t, name)
	if err := hashFile(f, c); err != nil {
		t.Fatal(err)
	}
	c.Save()

	time.Sleep(20 * time.Millisecond) // past the clock tick of the first change
	if err := os.WriteFile(name, []byte("jello"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(name, old, old); err != nil {
		t.Fatal(err)
	}
	c = openCache(cacheFile, later)
	f = walkedFile(t, name)
	if _, ok := c.Lookup(name, f.seen); ok {
		t.Fatal("Lookup hit for an edited file")
	}
	if err := hashFile(f, c); err != nil {
		t.Fatal(err)
	}
	if f.SHA256 != sha256.Sum256([]byte("jello")) {
		t.Errorf("edited file hashed as %x, want the new content's hash", f.SHA256)
	}
}

// TestHashCacheRacy: a file changed within racyWindow of the run is not
// remembered.
func TestHashCacheRacy(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "a.txt")
	if err := os.WriteFile(name, []byte("fresh"), 0o644); err != nil {
		t.Fatal(err)
	}
	c := OpenHashCache(filepath.Join(dir, "hashes")) // starts now
	f := walkedFile(t, name)
	if err := hashFile(f, c); err != nil {
		t.Fatal(err)
	}
	if _, ok := c.entries[name]; ok {
		t.Errorf("a file changed a moment ago was remembered")
	}
}

func TestHashCacheCorruptAndNil(t *testing.T) {
	dir := t.TempDir()
	cacheFile := filepath.Join(dir, "hashes")
	os.WriteFile(cacheFile, []byte("not a cache"), 0o644)
	c := OpenHashCache(cacheFile)
	if len(c.old) != 0 {
		t.Errorf("corrupt cache loaded %d entries", len(c.old))
	}
	if err := c.Save(); err != nil {
		t.Errorf("Save over a corrupt cache: %v", err)
	}
	var none *HashCache
	info, _ := os.Lstat(cacheFile)
	if _, ok := none.Lookup(cacheFile, info); ok {
		t.Error("nil cache hit")
	}
	none.Store(cacheFile, info, [32]byte{})
	if err := none.Save(); err != nil {
		t.Error(err)
	}
	// An unwritable cache location only loses the cache.
	c = OpenHashCache(filepath.Join(cacheFile, "below-a-file", "hashes"))
	c.entries["/x"] = cacheEntry{Sum: [32]byte{1}}
	if err := c.Save(); err == nil {
		t.Error("Save below a file: no error")
	}
}

// TestHashCacheNotForBytesInMemory: a SKILL.md, held in memory, is hashed
// from those bytes even when the cache has an entry for its fingerprint:
// the file may have changed between the stat and the read.
func TestHashCacheNotForBytesInMemory(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "SKILL.md")
	if err := os.WriteFile(name, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	c := openCache(filepath.Join(dir, "hashes"), time.Now().Add(time.Minute))
	f := walkedFile(t, name)
	fp, ok := fingerprintOf(f.seen)
	if !ok {
		t.Fatal("no fingerprint")
	}
	c.old[name] = cacheEntry{FP: fp, Sum: sha256.Sum256([]byte("old"))}
	f.Data = []byte("new")
	if err := hashFile(f, c); err != nil {
		t.Fatal(err)
	}
	if f.SHA256 != sha256.Sum256([]byte("new")) {
		t.Errorf("bytes in memory hashed as %x, want the hash of those bytes", f.SHA256)
	}
}
