package gen

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/skillgen/skillgen/internal/compile"
	"github.com/skillgen/skillgen/internal/corpus"
)

// benchWorkspace writes the default 1,000-skill corpus (about 40 MB) for
// one benchmark; b.Loop keeps the writing out of the timing.
func benchWorkspace(b *testing.B) (Config, corpus.Stats) {
	b.Helper()
	dir := b.TempDir()
	st, err := corpus.Write(dir, corpus.Options{Seed: 1, Skills: 1000})
	if err != nil {
		b.Fatal(err)
	}
	return Config{Dir: dir, Out: filepath.Join(dir, "agent", "skills")}, st
}

func benchGenerate(b *testing.B, cfg Config) *Result {
	res, err := Generate(cfg)
	if err != nil {
		b.Fatal(err)
	}
	if !res.OK() {
		b.Fatalf("generate failed: %v", res.Diagnostics[:min(len(res.Diagnostics), 5)])
	}
	return res
}

// BenchmarkGenerate is compile + render in memory, nothing written.
func BenchmarkGenerate(b *testing.B) {
	cfg, st := benchWorkspace(b)
	for b.Loop() {
		benchGenerate(b, cfg)
	}
	b.SetBytes(st.Bytes)
}

// BenchmarkValidate is the public Validate over every root of the corpus.
func BenchmarkValidate(b *testing.B) {
	cfg, st := benchWorkspace(b)
	var roots []string
	for _, r := range st.Roots {
		roots = append(roots, filepath.Join(cfg.Dir, filepath.FromSlash(r)))
	}
	for b.Loop() {
		if results, _, _ := Validate(roots, false); len(results) != st.Skills {
			b.Fatalf("%d skills validated, want %d", len(results), st.Skills)
		}
	}
}

// BenchmarkWrite writes a rendered package: into an empty directory
// (scratch), and over its own output (noop: nothing changes on disk).
func BenchmarkWrite(b *testing.B) {
	cfg, _ := benchWorkspace(b)
	res := benchGenerate(b, cfg)
	b.Run("scratch", func(b *testing.B) {
		for b.Loop() {
			b.StopTimer()
			if err := os.RemoveAll(cfg.Out); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
			if _, err := res.Write(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("noop", func(b *testing.B) {
		if _, err := res.Write(); err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			rep, err := res.Write()
			if err != nil {
				b.Fatal(err)
			}
			if len(rep.Written)+len(rep.Removed) > 0 {
				b.Fatalf("no-op write changed %d files", len(rep.Written)+len(rep.Removed))
			}
		}
	})
}

// BenchmarkRegenerate is a whole no-op `skillgen generate`: compile,
// render and compare with an up-to-date output.
func BenchmarkRegenerate(b *testing.B) {
	b.Run("uncached", func(b *testing.B) { benchRegenerate(b, "") })
	b.Run("cached", func(b *testing.B) { benchRegenerate(b, b.TempDir()) })
}

func benchRegenerate(b *testing.B, cacheDir string) {
	cfg, _ := benchWorkspace(b)
	cfg.CacheDir = cacheDir
	if _, err := benchGenerate(b, cfg).Write(); err != nil {
		b.Fatal(err)
	}
	if cacheDir != "" {
		// Past the cache's racy window, then one run to warm it.
		time.Sleep(2100 * time.Millisecond)
		if _, err := benchGenerate(b, cfg).Write(); err != nil {
			b.Fatal(err)
		}
	}
	for b.Loop() {
		rep, err := benchGenerate(b, cfg).Write()
		if err != nil {
			b.Fatal(err)
		}
		if len(rep.Written)+len(rep.Removed) > 0 {
			b.Fatalf("no-op generate changed %d files", len(rep.Written)+len(rep.Removed))
		}
	}
}

// BenchmarkRender is the rendering of the package alone (the encoded table
// and the Go file), from a lowered 1,000-skill program.
func BenchmarkRender(b *testing.B) {
	cfg, _ := benchWorkspace(b)
	prog, diags := compile.Compile(compile.Config{Dir: cfg.Dir})
	if prog == nil {
		b.Fatalf("compile failed: %v", diags[:min(len(diags), 5)])
	}
	l := lower(prog, 0)
	var size int
	for b.Loop() {
		out, err := renderPackage(l, "skills")
		if err != nil {
			b.Fatal(err)
		}
		size = len(out.goSrc)
	}
	b.ReportMetric(float64(size), "bytes/file")
}
