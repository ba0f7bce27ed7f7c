package compile

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/skillgen/skillgen/internal/casetest"
)

// TestResolveInputs: the paths a Compile reads, resolved as Compile
// resolves them, for the cases a watcher meets: a found manifest, layers
// with a duplicate root and "~", a broken manifest, and no manifest at all.
func TestResolveInputs(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ws := filepath.Join(dir, "ws")
	home := filepath.Join(dir, "home")
	write := func(rel, data string) {
		t.Helper()
		casetest.WriteFile(t, dir, rel, data)
	}
	write("ws/.insomnia/manifest.toml", "[skills]\ndirectories = [\".claude/skills\", \"missing\", \"~/skills\"]\n")
	write("ws/layer.toml", "[skills]\ndirectories = [\"missing\", \"extra\"]\n") // relative to ws: not under .insomnia
	write("ws/broken.toml", "[skills]\ndirectories = [\n")
	if err := os.MkdirAll(filepath.Join(ws, "sub", "deeper"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "nomanifest", "a"), 0o755); err != nil {
		t.Fatal(err)
	}
	workflows := filepath.Join(ws, ".insomnia", "memory", "workflow")

	for _, tc := range []struct {
		name string
		cfg  Config
		want Inputs
	}{
		{"found by walking up", Config{Dir: filepath.Join(ws, "sub", "deeper"), Home: home}, Inputs{
			// The nearer places too: a manifest made there would be found first.
			Manifests: []string{
				filepath.Join(ws, "sub", "deeper", ".insomnia", "manifest.toml"),
				filepath.Join(ws, "sub", ".insomnia", "manifest.toml"),
				filepath.Join(ws, ".insomnia", "manifest.toml"),
			},
			WorkflowDir: workflows,
			Roots:       []string{filepath.Join(ws, ".claude", "skills"), filepath.Join(ws, "missing"), filepath.Join(home, "skills")},
		}},
		{"layers, duplicates dropped", Config{Dir: ws, Home: home, Manifests: []string{".insomnia/manifest.toml", "layer.toml"}}, Inputs{
			Manifests:   []string{filepath.Join(ws, ".insomnia", "manifest.toml"), filepath.Join(ws, "layer.toml")},
			WorkflowDir: workflows,
			Roots:       []string{filepath.Join(ws, ".claude", "skills"), filepath.Join(ws, "missing"), filepath.Join(home, "skills"), filepath.Join(ws, "extra")},
		}},
		{"a broken manifest has no roots", Config{Dir: ws, Home: home, Manifests: []string{"broken.toml"}}, Inputs{
			Manifests:   []string{filepath.Join(ws, "broken.toml")},
			WorkflowDir: workflows,
		}},
		{"a -workspace", Config{Dir: ws, Home: home, Manifests: []string{"layer.toml"}, Workspace: filepath.Join(dir, "other")}, Inputs{
			Manifests:   []string{filepath.Join(ws, "layer.toml")},
			WorkflowDir: filepath.Join(dir, "other", ".insomnia", "memory", "workflow"),
			Roots:       []string{filepath.Join(ws, "missing"), filepath.Join(ws, "extra")},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := ResolveInputs(tc.cfg)
			if !slices.Equal(got.Manifests, tc.want.Manifests) || got.WorkflowDir != tc.want.WorkflowDir || !slices.Equal(got.Roots, tc.want.Roots) {
				t.Errorf("got  %+v\nwant %+v", got, tc.want)
			}
		})
	}

	t.Run("no manifest: every path the walk up looks at", func(t *testing.T) {
		start := filepath.Join(dir, "nomanifest", "a")
		got := ResolveInputs(Config{Dir: start})
		if len(got.Manifests) < 3 || got.WorkflowDir != "" || got.Roots != nil {
			t.Fatalf("got %+v", got)
		}
		for i, p := range got.Manifests[:3] {
			want := filepath.Join([]string{start, filepath.Join(dir, "nomanifest"), dir}[i], ".insomnia", "manifest.toml")
			if p != want {
				t.Errorf("candidate %d: %s, want %s", i, p, want)
			}
		}
		if last := got.Manifests[len(got.Manifests)-1]; filepath.Dir(filepath.Dir(last)) != filepath.Dir(filepath.Dir(filepath.Dir(last))) {
			t.Errorf("the last candidate, %s, is not at the root of the file system", last)
		}
	})
}
