//go:build linux || darwin || freebsd || netbsd

package gen_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/skillgen/skillgen/gen"
)

// TestWriteWithHashCache: with a warm hash cache, generate gives the same
// bytes as without one and still sees every change: a blob edited in place
// (same name and size) is repaired, and a source edited in place with its
// modification time set back gets a new blob.
func TestWriteWithHashCache(t *testing.T) {
	root := t.TempDir()
	buildWorkspace(t, root, -1)
	out := filepath.Join(root, filepath.FromSlash(wsOut))
	cfg := wsConfig(root)
	cfg.CacheDir = filepath.Join(root, "cache")
	if _, err := generateOK(t, cfg).Write(); err != nil {
		t.Fatal(err)
	}
	// Files changed less than two seconds before a run are never
	// remembered (the racy window); wait it out once, then warm the cache.
	time.Sleep(2100 * time.Millisecond)
	if rep, err := generateOK(t, cfg).Write(); err != nil || len(rep.Written)+len(rep.Removed) > 0 {
		t.Fatalf("no-op Write: %+v, %v", rep, err)
	}
	if entries, _ := os.ReadDir(cfg.CacheDir); len(entries) != 1 {
		t.Fatalf("cache dir holds %d files, want 1", len(entries))
	}
	warm := generateOK(t, cfg)
	cold := generateOK(t, wsConfig(root))
	if string(warm.GoSource()) != string(cold.GoSource()) {
		t.Fatal("generated file differs with and without the hash cache")
	}

	// A blob edited in place, same size: repaired although the cache knew it.
	blob := filepath.Join(out, gen.DataDir, wsBlobs()[1])
	data, err := os.ReadFile(blob)
	if err != nil {
		t.Fatal(err)
	}
	data[0] ^= 1
	if err := os.WriteFile(blob, data, 0o644); err != nil {
		t.Fatal(err)
	}
	rep, err := generateOK(t, cfg).Write()
	if err != nil {
		t.Fatal(err)
	}
	if want := gen.DataDir + "/" + wsBlobs()[1]; !slices.Contains(rep.Written, want) {
		t.Errorf("edited blob not rewritten; wrote %q", rep.Written)
	}

	// A source edited in place, same size, modification time set back.
	const path = "team-skills/alpha/references/deep/nested/guide.md"
	name := filepath.Join(root, filepath.FromSlash(path))
	info, err := os.Stat(name)
	if err != nil {
		t.Fatal(err)
	}
	edited := "# Guide\nalpha guide v2\n" // same length as v1
	if len(edited) != len(wsFileData(t, path)) {
		t.Fatal("test edit must keep the size")
	}
	setWSFile(t, root, path, edited)
	if err := os.Chtimes(name, info.ModTime(), info.ModTime()); err != nil {
		t.Fatal(err)
	}
	rep, err = generateOK(t, cfg).Write()
	if err != nil {
		t.Fatal(err)
	}
	if want := gen.DataDir + "/" + blobName(edited); !slices.Contains(rep.Written, want) {
		t.Errorf("edited source: blob %s not written; wrote %q", want, rep.Written)
	}
	if ck, err := generateOK(t, wsConfig(root)).Check(); err != nil || ck.Stale() {
		t.Errorf("check without cache after the cached runs: %+v, %v", ck, err)
	}
}
