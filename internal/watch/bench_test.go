package watch

import (
	"hash/maphash"
	"path/filepath"
	"testing"

	"github.com/skillgen/skillgen/internal/corpus"
)

// BenchmarkFingerprint is one look of the poller at the 1,000-skill corpus:
// what polling costs per walk (README.md, "Watch").
func BenchmarkFingerprint(b *testing.B) {
	ws := b.TempDir()
	st, err := corpus.Write(ws, corpus.Options{Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	set := Set{Files: []string{filepath.Join(ws, filepath.FromSlash(corpus.ManifestPath))}}
	set.Trees = append(set.Trees, filepath.Join(ws, filepath.FromSlash(corpus.WorkflowDir)))
	for _, r := range st.Roots {
		set.Trees = append(set.Trees, filepath.Join(ws, filepath.FromSlash(r)))
	}
	p := &poller{set: set, seed: maphash.MakeSeed()}
	b.ResetTimer()
	for b.Loop() {
		p.fingerprint()
	}
}
