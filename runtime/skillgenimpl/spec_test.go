package skillgenimpl_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/skillgen/skillgen/runtime"
	"github.com/skillgen/skillgen/runtime/skillgenimpl"
)

var (
	blobA = strings.Repeat("a", 64)
	blobB = strings.Repeat("b", 64)
)

// validSpec is a small table: a skill with two files and an in-house
// workflow.
func validSpec() *skillgenimpl.Spec {
	return &skillgenimpl.Spec{
		Workflows: []skillgenimpl.Workflow{
			{Workflow: runtime.Workflow{Slug: "a", Description: "A.", ModelInvocation: true,
				Source: runtime.Source{Kind: runtime.KindSkill, Path: "skills/a/SKILL.md"},
				Files:  []runtime.File{{Path: "SKILL.md", Size: 10, SHA256: blobA}, {Path: "x.txt", Size: 3, SHA256: blobB}}},
				BodyStart: 4, Catalog: "A.", CatalogXML: "A."},
			{Workflow: runtime.Workflow{Slug: "b", Description: "B.", UserInvocable: true, Body: "Body.\n",
				Source: runtime.Source{Kind: runtime.KindWorkflow, Path: ".insomnia/memory/workflow/b.md"}}},
		},
		Blobs: []skillgenimpl.Blob{{Name: blobA, Size: 10}, {Name: blobB, Size: 3}},
	}
}

func TestSpecCheck(t *testing.T) {
	if err := validSpec().Check(); err != nil {
		t.Fatalf("a valid spec: %v", err)
	}
	tests := []struct {
		name string
		edit func(s *skillgenimpl.Spec)
		want string
	}{
		{"unsorted workflows", func(s *skillgenimpl.Spec) { s.Workflows[0], s.Workflows[1] = s.Workflows[1], s.Workflows[0] }, "not sorted"},
		{"duplicate slug", func(s *skillgenimpl.Spec) { s.Workflows[1].Slug = "a" }, "duplicate"},
		{"unsorted blobs", func(s *skillgenimpl.Spec) { s.Blobs[0], s.Blobs[1] = s.Blobs[1], s.Blobs[0] }, "blobs not sorted"},
		{"slash in slug", func(s *skillgenimpl.Spec) { s.Workflows[1].Slug = "b/c" }, "invalid slug"},
		{"unsorted files", func(s *skillgenimpl.Spec) {
			f := s.Workflows[0].Files
			f[0], f[1] = f[1], f[0]
		}, "files not sorted"},
		{"unknown blob", func(s *skillgenimpl.Spec) { s.Workflows[0].Files[1].SHA256 = strings.Repeat("c", 64) }, "no blob"},
		{"size differs", func(s *skillgenimpl.Spec) { s.Workflows[0].Files[1].Size = 4 }, "its blob"},
		{"no skill file", func(s *skillgenimpl.Spec) { s.Workflows[0].Source.Path = "skills/a/skill.md" }, "not among its files"},
		{"body offset", func(s *skillgenimpl.Spec) { s.Workflows[0].BodyStart = 11 }, "out of range"},
		{"in-house with files", func(s *skillgenimpl.Spec) { s.Workflows[1].Files = []runtime.File{{Path: "x", SHA256: blobB, Size: 3}} }, "must have no files"},
	}
	for _, tt := range tests {
		s := validSpec()
		tt.edit(s)
		err := s.Check()
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: Check() = %v, want an error saying %q", tt.name, err, tt.want)
		}
		if _, err := skillgenimpl.Encode(s); err == nil {
			t.Errorf("%s: Encode succeeded", tt.name)
		}
	}
}

func TestEncodeDeterministic(t *testing.T) {
	a, err := skillgenimpl.Encode(validSpec())
	if err != nil {
		t.Fatal(err)
	}
	b, err := skillgenimpl.Encode(validSpec())
	if err != nil || !bytes.Equal(a, b) {
		t.Fatalf("two encodings of one spec differ (%v)", err)
	}
	s := validSpec()
	s.Workflows[1].Body = "Other.\n"
	c, err := skillgenimpl.Encode(s)
	if err != nil || bytes.Equal(a, c) {
		t.Errorf("a changed body encodes the same (%v)", err)
	}
}

// TestNewRefuses: a table that is not in this format, or whose storage
// does not fit it, panics at New (start-up), naming the fix.
func TestNewRefuses(t *testing.T) {
	data, err := skillgenimpl.Encode(validSpec())
	if err != nil {
		t.Fatal(err)
	}
	good := string(data)
	bad := "skgtbl01" + good[8:]
	short := good[:20]
	for name, tab := range map[string]*skillgenimpl.Table{
		"old magic":     {Data: &bad, Slots: make([]skillgenimpl.Slot, 2), Files: make([]runtime.File, 2)},
		"truncated":     {Data: &short},
		"missing slots": {Data: &good, Slots: make([]skillgenimpl.Slot, 1), Files: make([]runtime.File, 2)},
		"missing files": {Data: &good, Slots: make([]skillgenimpl.Slot, 2), Blobs: make([]*string, 2)},
		"missing blobs": {Data: &good, Slots: make([]skillgenimpl.Slot, 2), Files: make([]runtime.File, 2)},
	} {
		func() {
			defer func() {
				if msg, _ := recover().(string); !strings.Contains(msg, "go generate") {
					t.Errorf("%s: New did not panic naming the fix: %q", name, msg)
				}
			}()
			skillgenimpl.New(tab)
		}()
	}
	r := skillgenimpl.New(&skillgenimpl.Table{Data: &good, Blobs: make([]*string, 2), Slots: make([]skillgenimpl.Slot, 2), Files: make([]runtime.File, 2)})
	if w, ok := r.Lookup("b"); !ok || w.Body != "Body.\n" {
		t.Errorf("Lookup(b) = %v, %v", w, ok)
	}
}
