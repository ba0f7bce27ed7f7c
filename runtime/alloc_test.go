package runtime_test

import (
	"fmt"
	"testing"

	"github.com/skillgen/skillgen/runtime"
)

// bigTable is a table of n workflows shaped like generated code's, for the
// allocation tests and the benchmarks.
func bigTable(n int) (*runtime.Registry, []string) {
	ws := make([]runtime.Workflow, n)
	slugs := make([]string, n)
	for i := range ws {
		slug := fmt.Sprintf("skill-%04d", i) // zero-padded: sorted by slug
		slugs[i] = slug
		ws[i] = runtime.Workflow{
			Slug:            slug,
			Description:     fmt.Sprintf("Does thing number %d.\nUse it when thing %d is asked for.", i, i),
			ModelInvocation: i%10 != 0,
			UserInvocable:   i%7 != 0,
			Source:          runtime.Source{Kind: runtime.KindSkill, Path: ".claude/skills/" + slug + "/SKILL.md"},
		}
	}
	return registryOf(ws, nil, nil), slugs
}

// sink keeps results alive so that nothing is optimized away.
var (
	sinkW   *runtime.Workflow
	sinkS   string
	sinkB   bool
	sinkErr error
	sinkT   runtime.Tool
)

var big, bigSlugs = bigTable(1000)

// TestZeroAllocs fails if Lookup, Invoke, Resident or ActivationTool ever allocate
// (a promise of the runtime API; README.md, "The runtime package"). Every result is stored in a package-level sink, so that an
// allocation could not be hidden by the compiler dropping an unused result.
func TestZeroAllocs(t *testing.T) {
	tests := []struct {
		name string
		f    func()
	}{
		{"Lookup hit", func() { sinkW, sinkB = Registry.Lookup("pdf-tools") }},
		{"Lookup miss", func() { sinkW, sinkB = Registry.Lookup("nope") }},
		{"Lookup empty", func() { sinkW, sinkB = Registry.Lookup("") }},
		{"Lookup 1000", func() { sinkW, sinkB = big.Lookup("skill-0777") }},
		{"Invoke hit", func() { sinkW, sinkS, sinkErr = Registry.Invoke("/a") }},
		{"Invoke hit with args", func() { sinkW, sinkS, sinkErr = Registry.Invoke("/pdf-tools extract\tthis\n\nand that") }},
		{"Invoke unicode space", func() { sinkW, sinkS, sinkErr = Registry.Invoke("/a\u3000\u00a0args") }},
		{"Invoke miss", func() { sinkW, sinkS, sinkErr = Registry.Invoke("/unknown args") }},
		{"Invoke not an invocation", func() { sinkW, sinkS, sinkErr = Registry.Invoke("hello") }},
		{"Invoke not user invocable", func() { sinkW, sinkS, sinkErr = Registry.Invoke("/deploy now") }},
		{"Invoke 1000", func() { sinkW, sinkS, sinkErr = big.Invoke("/skill-0500 some args") }},
		{"Resident", func() { sinkS = Registry.Resident() }},
		{"Resident 1000", func() { sinkS = big.Resident() }},
		{"ActivationTool", func() { sinkT, sinkB = Registry.ActivationTool() }},
		{"ActivationTool 1000", func() { sinkT, sinkB = big.ActivationTool() }},
	}
	for _, tt := range tests {
		if n := testing.AllocsPerRun(100, tt.f); n != 0 {
			t.Errorf("%s: %v allocations per run, want 0", tt.name, n)
		}
	}
	// The calls did real work.
	if w, _ := big.Lookup("skill-0777"); w == nil || w.Slug != "skill-0777" {
		t.Errorf("Lookup on the big table = %v", w)
	}
	if w, args, err := big.Invoke("/skill-0500 some args"); w == nil || w.Slug != "skill-0500" || args != "some args" || err != nil {
		t.Errorf("Invoke on the big table = %v, %q, %v", w, args, err)
	}
	for i, slug := range bigSlugs {
		if w, ok := big.Lookup(slug); !ok || w.Slug != slug {
			t.Fatalf("Lookup(%q) on the big table = %v, %v", slug, w, ok)
		}
		if i%10 == 0 {
			if w, ok := big.Lookup(slug + "x"); ok {
				t.Fatalf("Lookup(%q) = %v", slug+"x", w.Slug)
			}
		}
	}
}

func BenchmarkLookup(b *testing.B) {
	r, slugs := bigTable(1000)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		sinkW, sinkB = r.Lookup(slugs[i%len(slugs)])
	}
}

func BenchmarkInvoke(b *testing.B) {
	r, slugs := bigTable(1000)
	inputs := make([]string, len(slugs))
	for i, s := range slugs {
		inputs[i] = "/" + s + " please do it\nwith these details"
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		sinkW, sinkS, sinkErr = r.Invoke(inputs[i%len(inputs)])
	}
}

func BenchmarkResident(b *testing.B) {
	r, _ := bigTable(1000)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		sinkS = r.Resident()
	}
}
