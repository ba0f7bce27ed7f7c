package skillgenimpl

import (
	"cmp"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/skillgen/skillgen/runtime"
	"github.com/skillgen/skillgen/runtime/internal/abi"
)

// Spec is the table of a generated package as a value: what the generator
// lowers a compiled program to. Encode turns it into the table blob; Build
// serves it directly, for previews and tests.
type Spec struct {
	Workflows     []Workflow             // sorted by slug, unique
	Blobs         []Blob                 // every distinct file content, sorted by name, unique
	Notifications []runtime.Notification // in resolution order

	// CatalogBudget is the catalog budget (characters) the Catalog and
	// CatalogXML texts were fitted to, 0: none. SkillsXML keeps to it for a
	// root longer than the fit assumed by leaving more skills out.
	CatalogBudget int
}

// Workflow is one workflow of a Spec.
type Workflow struct {
	// The workflow as the Registry will serve it. For a skill, Files lists
	// every file (sorted by Path, each SHA256 the name of a blob) and the
	// one named like Source.Path's last element is the skill file.
	runtime.Workflow

	// BodyStart is where the body starts in a skill's skill file: the
	// table stores the body as that slice of the embedded file.
	BodyStart int

	// Catalog is the description as the catalog lines of Resident and the
	// activation tool list a model-invocable workflow: the Description, or
	// a cut of it within a catalog budget; "" leaves the workflow out (it
	// stays invocable, and in the tool's enum).
	Catalog string

	// CatalogXML is the same for a skill's <skill> in SkillsXML, which
	// is fitted to the budget on its own.
	CatalogXML string
}

// Blob is one distinct file content.
type Blob struct {
	Name string  // hex SHA-256 of the contents: the name of the embedded file
	Size int64   // bytes
	Data *string // the contents, when the caller has them in memory (Build serves only those)
}

// skillFile returns the index in w.Files of a skill's skill file, or -1.
func (w *Workflow) skillFile() int {
	if w.Source.Kind != runtime.KindSkill {
		return -1
	}
	name := path.Base(w.Source.Path)
	for i, f := range w.Files {
		if f.Path == name {
			return i
		}
	}
	return -1
}

// Unlisted counts the model-invocable workflows that the catalog leaves
// out of Resident and the tool, and the skills it leaves out of SkillsXML.
func (s *Spec) Unlisted() (workflows, skills int) {
	for i := range s.Workflows {
		w := &s.Workflows[i]
		if w.ModelInvocation && w.Catalog == "" {
			workflows++
		}
		if w.Source.Kind == runtime.KindSkill && w.CatalogXML == "" {
			skills++
		}
	}
	return workflows, skills
}

// catalogLines renders the catalog's lines: one per listed workflow, and a
// last one counting those left out.
func (s *Spec) catalogLines() string {
	var b []byte
	for i := range s.Workflows {
		if w := &s.Workflows[i]; w.ModelInvocation && w.Catalog != "" {
			b = abi.CatalogLine(b, w.Slug, w.Catalog)
		}
	}
	if n, _ := s.Unlisted(); n > 0 {
		b = append(b, abi.UnlistedLine(n)...)
	}
	return string(b)
}

// Resident returns the value of Registry.Resident: a heading and the
// catalog lines, or "" when no workflow is model-invocable.
func (s *Spec) Resident() string {
	if lines := s.catalogLines(); lines != "" {
		return abi.ResidentHeading + lines
	}
	return ""
}

// Tool returns the value of Registry.ActivationTool: an instruction and
// the catalog lines, and the schema whose enum is every model-invocable
// slug, listed or not; ok is false when there is none.
func (s *Spec) Tool() (tool runtime.Tool, ok bool) {
	var slugs []string
	for i := range s.Workflows {
		if w := &s.Workflows[i]; w.ModelInvocation {
			slugs = append(slugs, w.Slug)
		}
	}
	if len(slugs) == 0 {
		return runtime.Tool{}, false
	}
	return runtime.Tool{Name: abi.ToolName, Description: abi.ToolInstruction + s.catalogLines(), InputSchema: abi.ToolSchema(slugs)}, true
}

// SkillsXML returns the value of Registry.SkillsXML(root).
func (s *Spec) SkillsXML(root string) string {
	_, unlisted := s.Unlisted()
	return abi.SkillsXML(root, len(s.Workflows), func(i int) (name, description, file string, ok bool) {
		w := &s.Workflows[i]
		if w.Source.Kind != runtime.KindSkill || w.CatalogXML == "" {
			return "", "", "", false
		}
		return w.Slug, w.CatalogXML, path.Base(w.Source.Path), true
	}, unlisted, s.CatalogBudget)
}

// Check reports the first way in which s is not a table the runtime can
// serve: unsorted or duplicate slugs or blobs, a file whose hash names no
// blob, a skill without its skill file, a body offset out of range.
func (s *Spec) Check() error {
	for i := 1; i < len(s.Workflows); i++ {
		if s.Workflows[i-1].Slug >= s.Workflows[i].Slug {
			return fmt.Errorf("workflows not sorted by slug, or duplicate: %q, %q", s.Workflows[i-1].Slug, s.Workflows[i].Slug)
		}
	}
	for i := 1; i < len(s.Blobs); i++ {
		if s.Blobs[i-1].Name >= s.Blobs[i].Name {
			return fmt.Errorf("blobs not sorted by name, or duplicate: %q, %q", s.Blobs[i-1].Name, s.Blobs[i].Name)
		}
	}
	for i := range s.Workflows {
		w := &s.Workflows[i]
		if w.Slug == "" || strings.Contains(w.Slug, "/") {
			return fmt.Errorf("invalid slug %q", w.Slug)
		}
		for j, f := range w.Files {
			if j > 0 && w.Files[j-1].Path >= f.Path {
				return fmt.Errorf("%s: files not sorted by path, or duplicate: %q, %q", w.Slug, w.Files[j-1].Path, f.Path)
			}
			b, ok := s.blob(f.SHA256)
			if !ok {
				return fmt.Errorf("%s: file %q: no blob %s", w.Slug, f.Path, f.SHA256)
			}
			if s.Blobs[b].Size != f.Size {
				return fmt.Errorf("%s: file %q is %d bytes, its blob %d", w.Slug, f.Path, f.Size, s.Blobs[b].Size)
			}
		}
		if w.Source.Kind == runtime.KindSkill {
			sf := w.skillFile()
			if sf < 0 {
				return fmt.Errorf("%s: the skill file %s is not among its files", w.Slug, path.Base(w.Source.Path))
			}
			if w.BodyStart < 0 || int64(w.BodyStart) > w.Files[sf].Size {
				return fmt.Errorf("%s: body offset %d out of range", w.Slug, w.BodyStart)
			}
		} else if len(w.Files) > 0 {
			return fmt.Errorf("%s: an in-house workflow must have no files (it has %d)", w.Slug, len(w.Files))
		}
	}
	return nil
}

// blob returns the index of the blob with the given name.
func (s *Spec) blob(name string) (int, bool) {
	return slices.BinarySearchFunc(s.Blobs, name, func(b Blob, name string) int { return cmp.Compare(b.Name, name) })
}

// Storage is how much zeroed storage a Table of s needs.
type Storage struct{ Slots, Files, Meta, Requires int }

// Storage returns the sizes of the storage arrays of a Table of s.
func (s *Spec) Storage() Storage {
	st := Storage{Slots: len(s.Workflows)}
	for i := range s.Workflows {
		w := &s.Workflows[i]
		st.Files += len(w.Files)
		st.Meta += len(w.Metadata)
		st.Requires += len(w.Requires)
	}
	return st
}
