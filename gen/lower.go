package gen

import (
	"encoding/hex"
	"fmt"
	"slices"
	"strings"

	"github.com/skillgen/skillgen/internal/compile"
	"github.com/skillgen/skillgen/runtime"
	"github.com/skillgen/skillgen/runtime/skillgenimpl"
)

// blob is one content-addressed data file of the output: the bytes of one
// or more skill files (or the encoded table), named by their SHA-256.
type blob struct {
	name string        // hex SHA-256
	file *compile.File // where the bytes come from
}

// lowered is a compiled program turned, once, into the value the
// generated package holds; everything downstream (the preview Registry,
// list, prompt, the catalog figures, rendering, write and check) reads it.
type lowered struct {
	spec    *skillgenimpl.Spec
	blobs   []*blob // parallel to spec.Blobs
	catalog Catalog
}

// lower turns a program into the table value, fitting the catalog to
// budget characters (0: no budget).
func lower(p *compile.Program, budget int) *lowered {
	l := &lowered{spec: &skillgenimpl.Spec{Notifications: slices.Clone(p.Notifications)}}
	// One blob per distinct content. Its source is a file whose bytes are
	// in memory when there is one (a skill file, whose copies elsewhere —
	// a README.md with the same bytes, say — must not leave the preview
	// without them), else the first file found.
	byHash := map[[32]byte]*blob{}
	for _, w := range p.Workflows {
		for i := range w.Files {
			f := &w.Files[i]
			switch b := byHash[f.SHA256]; {
			case b == nil:
				b = &blob{name: hex.EncodeToString(f.SHA256[:]), file: f}
				byHash[f.SHA256] = b
				l.blobs = append(l.blobs, b)
			case b.file.Data == nil && f.Data != nil:
				b.file = f
			}
		}
	}
	slices.SortFunc(l.blobs, func(a, b *blob) int { return strings.Compare(a.name, b.name) })
	for _, b := range l.blobs {
		l.spec.Blobs = append(l.spec.Blobs, skillgenimpl.Blob{Name: b.name, Size: b.file.Size})
	}
	for _, w := range p.Workflows {
		sw := skillgenimpl.Workflow{
			Workflow: runtime.Workflow{
				Slug: w.Slug, Description: w.Description,
				ModelInvocation: w.ModelInvocation, UserInvocable: w.UserInvocable,
				Requires: w.Requires, Body: w.Body, Source: w.Source,
				License: w.License, Compatibility: w.Compatibility, AllowedTools: w.AllowedTools,
			},
			BodyStart: w.BodyStart,
			Catalog:   w.Description,
		}
		for _, m := range w.Metadata {
			sw.Metadata = append(sw.Metadata, runtime.Meta{Key: m.Key, Value: m.Value})
		}
		for _, f := range w.Files {
			sw.Files = append(sw.Files, runtime.File{Path: f.Path, Mode: f.Mode, Size: f.Size, SHA256: hex.EncodeToString(f.SHA256[:])})
		}
		if w.Source.Kind == runtime.KindSkill {
			sw.CatalogXML = w.Description
		}
		l.spec.Workflows = append(l.spec.Workflows, sw)
	}
	l.catalog = fitCatalog(l.spec, budget)
	if l.catalog.Trimmed() {
		l.spec.Notifications = append(l.spec.Notifications, runtime.Notification{
			Code: runtime.CodeCatalogTrimmed, Message: l.catalog.trimMessage(),
		})
	}
	return l
}

// preview returns the Registry the generated package will serve, with the
// contents of the files already in memory (the skill files, so every body
// is there); FS serves only those.
func (l *lowered) preview() (*runtime.Registry, error) {
	spec := *l.spec
	spec.Blobs = slices.Clone(spec.Blobs)
	for i, b := range l.blobs {
		if b.file.Data != nil {
			data := string(b.file.Data)
			spec.Blobs[i].Data = &data
		}
	}
	return skillgenimpl.Build(&spec)
}

// summarize counts what a run compiled.
func summarize(p *compile.Program, l *lowered) Summary {
	s := Summary{Workflows: len(p.Workflows), Blobs: len(l.blobs), Catalog: l.catalog}
	for _, w := range p.Workflows {
		if w.Source.Kind == runtime.KindSkill {
			s.Skills++
		}
		s.Files += len(w.Files)
		for _, f := range w.Files {
			s.Bytes += f.Size
		}
	}
	for _, e := range p.Entries {
		switch e.Status {
		case compile.StatusShadowed:
			s.Shadowed++
		case compile.StatusSkipped:
			s.Skipped++
		}
	}
	return s
}

// catalogDiagnostics says what the budget did (info, the message of the
// catalog-trimmed notification), and warns about a catalog over the size
// hosts budget for when no budget was given, and about a budget too small
// for even the catalog's fixed parts.
func (l *lowered) catalogDiagnostics() []Diagnostic {
	c := l.catalog
	var ds []Diagnostic
	if c.Trimmed() {
		ds = append(ds, Diagnostic{Severity: Info, Code: CodeCatalogTrimmed, Message: c.trimMessage()})
	}
	switch {
	case c.Budget == 0 && c.Size > CatalogWarnSize:
		ds = append(ds, Diagnostic{Severity: Warning, Code: CodeCatalogLarge, Message: fmt.Sprintf(
			"the catalog of model-invocable workflows is %d characters, over %d: hosts budget about that much for it on every turn (Codex: 2%% of the context window or %d characters); cut it with -catalog-budget %d",
			c.Size, CatalogWarnSize, CatalogWarnSize, CatalogWarnSize)})
	case c.Budget > 0 && c.Size > c.Budget:
		ds = append(ds, Diagnostic{Severity: Warning, Code: CodeCatalogLarge, Message: fmt.Sprintf(
			"-catalog-budget %d is too small for the catalog's heading and closing line alone: it is %d characters with no workflow listed",
			c.Budget, c.Size)})
	}
	return ds
}
