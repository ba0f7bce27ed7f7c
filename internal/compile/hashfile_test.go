//go:build linux || darwin || freebsd || netbsd

package compile

import (
	"crypto/sha256"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/skillgen/skillgen/internal/hashcache"
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

// TestHashFileTrustsCache: a file the cache knows in the state the walk saw
// is not read: plant another sum for its fingerprint and see it come back.
func TestHashFileTrustsCache(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "a.txt")
	if err := os.WriteFile(name, []byte("hello"), 0o644); err != nil {
		t.Fatal(err)
	}
	cacheFile := filepath.Join(dir, "hashes")
	later := time.Now().Add(time.Minute) // the file is old enough to remember

	c := hashcache.OpenAt(cacheFile, later)
	f := walkedFile(t, name)
	if err := hashFile(f, c); err != nil {
		t.Fatal(err)
	}
	if f.SHA256 != sha256.Sum256([]byte("hello")) {
		t.Fatalf("hash %x", f.SHA256)
	}
	planted := sha256.Sum256([]byte("planted"))
	c.Store(name, f.seen, planted)
	if err := c.Save(); err != nil {
		t.Fatal(err)
	}
	c = hashcache.OpenAt(cacheFile, later)
	f = walkedFile(t, name)
	if err := hashFile(f, c); err != nil {
		t.Fatal(err)
	}
	if f.SHA256 != planted {
		t.Errorf("hashFile read the file although the cache knew it")
	}
}

// TestHashFileEditDetected: an edit that keeps the size and sets the
// modification time back still changes the change time, so the file is
// hashed again.
func TestHashFileEditDetected(t *testing.T) {
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
	c := hashcache.OpenAt(cacheFile, later)
	f := walkedFile(t, name)
	if err := hashFile(f, c); err != nil {
		t.Fatal(err)
	}
	if err := c.Save(); err != nil {
		t.Fatal(err)
	}

	time.Sleep(20 * time.Millisecond) // past the clock tick of the first change
	if err := os.WriteFile(name, []byte("jello"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(name, old, old); err != nil {
		t.Fatal(err)
	}
	c = hashcache.OpenAt(cacheFile, later)
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

// TestHashFileNotForBytesInMemory: a SKILL.md, held in memory, is hashed
// from those bytes even when the cache has an entry for its fingerprint:
// the file may have changed between the stat and the read.
func TestHashFileNotForBytesInMemory(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "SKILL.md")
	if err := os.WriteFile(name, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	cacheFile, later := filepath.Join(dir, "hashes"), time.Now().Add(time.Minute)
	c := hashcache.OpenAt(cacheFile, later)
	f := walkedFile(t, name)
	c.Store(name, f.seen, sha256.Sum256([]byte("old")))
	if err := c.Save(); err != nil {
		t.Fatal(err)
	}
	c = hashcache.OpenAt(cacheFile, later)
	if _, ok := c.Lookup(name, f.seen); !ok {
		t.Fatal("the planted entry is not there")
	}
	f.Data = []byte("new")
	if err := hashFile(f, c); err != nil {
		t.Fatal(err)
	}
	if f.SHA256 != sha256.Sum256([]byte("new")) {
		t.Errorf("bytes in memory hashed as %x, want the hash of those bytes", f.SHA256)
	}
}
