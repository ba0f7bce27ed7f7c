package compile

import (
	"os"
	"path/filepath"
	"testing"
)

// TestSkillFileGoneBeforeWalk: a SKILL.md read, then gone before the walk,
// fails the run instead of producing a skill with no body to serve (the
// generated code would slice a blob that does not exist).
func TestSkillFileGoneBeforeWalk(t *testing.T) {
	dir := t.TempDir()
	skillDir := filepath.Join(dir, "gone")
	if err := os.MkdirAll(skillDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(skillDir, "notes.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := &skill{name: "gone", dir: skillDir, realDir: skillDir, file: SkillFile, src: []byte("---\nname: gone\n---\n"), found: true}
	w := &Workflow{Slug: "gone", SkillFile: SkillFile}
	c := &compiler{}
	c.collectFiles([]*skill{s}, []*Workflow{w})
	if !HasErrors(c.diags) {
		t.Fatalf("no error for a skill file gone before the walk; diagnostics: %v", c.diags)
	}
	if d := c.diags[0]; d.Code != CodeReadFailed || d.File != filepath.Join(skillDir, SkillFile) {
		t.Errorf("diagnostic %v, want read-failed about the SKILL.md", d)
	}
}
