package compile

import (
	"path/filepath"
	"testing"

	"github.com/skillgen/skillgen/internal/corpus"
)

// benchCorpus writes the default 1,000-skill corpus (about 40 MB) for one
// benchmark; b.Loop keeps the writing out of the timing.
func benchCorpus(b *testing.B) (string, corpus.Stats) {
	b.Helper()
	dir := b.TempDir()
	st, err := corpus.Write(dir, corpus.Options{Seed: 1, Skills: 1000})
	if err != nil {
		b.Fatal(err)
	}
	return dir, st
}

// BenchmarkValidate is `skillgen validate` over every root of a 1,000-skill
// corpus of realistic shapes (the target: ≤ 60 ms on 2 cores for the
// whole CLI run; internal/bench measures the process).
func BenchmarkValidate(b *testing.B) {
	dir, st := benchCorpus(b)
	var roots []string
	for _, r := range st.Roots {
		roots = append(roots, filepath.Join(dir, filepath.FromSlash(r)))
	}
	for b.Loop() {
		results, _, missing := Validate(roots, false)
		if len(results) != st.Skills || len(missing) > 0 {
			b.Fatalf("%d skills validated, %d missing; want %d", len(results), len(missing), st.Skills)
		}
	}
	b.ReportMetric(float64(st.Skills), "skills/op")
}

// BenchmarkCompile is the whole compile pipeline over the corpus: manifest,
// workflows, every skill parsed and resolved, every ingested file hashed.
func BenchmarkCompile(b *testing.B) {
	dir, st := benchCorpus(b)
	for b.Loop() {
		p, diags := Compile(Config{Dir: dir})
		if p == nil || len(p.Workflows) != len(st.Ingested)+len(st.Workflows) {
			b.Fatalf("compile failed or lost workflows: %v", diags[:min(len(diags), 5)])
		}
	}
	b.SetBytes(st.Bytes)
}
