package gen

import (
	"io/fs"
	"testing"

	"github.com/skillgen/skillgen/internal/casetest"
	"github.com/skillgen/skillgen/runtime"
	"github.com/skillgen/skillgen/runtime/skillgenimpl"
)

// TestTableSizeBound: the bound Generate checks against the format's 4 GiB
// is never below the size of the table Encode writes, catalog budget or
// not.
func TestTableSizeBound(t *testing.T) {
	for _, n := range []int{0, 1, 7, 200} {
		for _, budget := range []int{0, 3000} {
			spec := specOf(n)
			for i := range spec.Workflows {
				w := &spec.Workflows[i]
				if i%3 == 0 {
					w.Requires = []string{"policy", "style"}
					w.Metadata = []runtime.Meta{{Key: "k", Value: "v"}}
					w.License, w.Compatibility, w.AllowedTools = "MIT", "Needs poppler.", "Read Bash"
				}
			}
			spec.Notifications = []runtime.Notification{{Code: "shadowed", Message: "skill /x was shadowed"}}
			l := &lowered{spec: spec}
			l.catalog = fitCatalog(spec, budget)
			data, err := skillgenimpl.Encode(spec)
			if err != nil {
				t.Fatal(err)
			}
			if bound := spec.SizeBound(); bound < int64(len(data)) {
				t.Errorf("%d workflows, budget %d: bound %d < %d bytes encoded", n, budget, bound, len(data))
			}
		}
	}
}

// TestPreviewKeepsSkillFileBytes: a file with the same bytes as a skill
// file (a README.md copied from SKILL.md, which sorts before it) shares its
// blob, and the preview still has the skill file's bytes: the body, and
// SKILL.md in its FS.
func TestPreviewKeepsSkillFileBytes(t *testing.T) {
	ws := t.TempDir()
	const md = "---\nname: dup\ndescription: Its README is its SKILL.md.\n---\nThe body.\n"
	for name, data := range map[string]string{
		".insomnia/manifest.toml": "[skills]\ndirectories = [\"skills\"]\n",
		"skills/dup/SKILL.md":     md,
		"skills/dup/README.md":    md,
	} {
		casetest.WriteFile(t, ws, name, data)
	}
	res, err := Generate(Config{Dir: ws, Package: "skills", Home: ws})
	if err != nil || !res.OK() {
		t.Fatalf("Generate: %v %v", err, res.Diagnostics)
	}
	if res.Summary.Files != 2 || res.Summary.Blobs != 1 {
		t.Fatalf("summary %+v: want 2 files in 1 blob", res.Summary)
	}
	w, ok := res.Registry().Lookup("dup")
	if !ok || w.Body != "The body.\n" {
		t.Errorf("preview Lookup(dup) = %+v, %v; want the body", w, ok)
	}
	if b, err := fs.ReadFile(res.Registry().FS(), "dup/SKILL.md"); err != nil || string(b) != md {
		t.Errorf("preview FS dup/SKILL.md = %q, %v", b, err)
	}
}
