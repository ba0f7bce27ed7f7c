// Package compile turns a manifest, its skill directories and the workspace's
// own Workflows into a validated, resolved intermediate representation.
//
// It is pure: it reads files and returns values and diagnostics; it never
// writes and never prints.
package compile

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/skillgen/skillgen/runtime"
)

// Severity of a Diagnostic. The strings are a contract (README.md, "Rules
// and codes").
type Severity int

const (
	Info Severity = iota
	Warning
	Error
)

func (s Severity) String() string {
	switch s {
	case Error:
		return "error"
	case Warning:
		return "warning"
	}
	return "info"
}

// MarshalText makes a Severity print as its name in JSON.
func (s Severity) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// Stable diagnostic codes (README.md, "Rules and codes"). Users' scripts
// match on these; package gen exports them.
const (
	CodeSkillMDMissing       = "skill-md-missing"
	CodeSkillMDLowercase     = "skill-md-lowercase"
	CodeReadFailed           = "read-failed"
	CodeFileTooLarge         = "file-too-large"
	CodeEncodingInvalid      = "encoding-invalid"
	CodeFrontmatterMissing   = "frontmatter-missing"
	CodeFrontmatterUnclosed  = "frontmatter-unclosed"
	CodeYAMLInvalid          = "yaml-invalid"
	CodeFieldType            = "field-type"
	CodeNameMissing          = "name-missing"
	CodeNameInvalid          = "name-invalid"
	CodeNameMismatch         = "name-mismatch"
	CodeDescriptionMissing   = "description-missing"
	CodeDescriptionTooLong   = "description-too-long"
	CodeCompatibilityTooLong = "compatibility-too-long"
	CodeMetadataInvalid      = "metadata-invalid"
	CodeUnknownField         = "unknown-field"
	CodeAllowedToolsIgnored  = "allowed-tools-ignored"
	CodeManifestMissing      = "manifest-missing"
	CodeManifestInvalid      = "manifest-invalid"
	CodeSkillsDirMissing     = "skills-dir-missing"
	CodeSlugInvalid          = "slug-invalid"
	CodeShadowed             = runtime.CodeShadowed
	CodeSymlinkEscape        = "symlink-escape"
	CodeFileSkipped          = "file-skipped"
	CodeSizeLimit            = "size-limit"
	CodeLinkBroken           = "link-broken"
	// CodeSkipped is the notification code of a skill that was left out
	// because it is invalid.
	CodeSkipped = runtime.CodeSkipped
	// CodeCatalogLarge: the catalog is over the size hosts budget for it,
	// or over its -catalog-budget (found by gen, which lowers the table).
	CodeCatalogLarge = "catalog-large"
	// CodeCatalogTrimmed: the catalog was fitted to its budget.
	CodeCatalogTrimmed = runtime.CodeCatalogTrimmed
)

// A Diagnostic is one finding about the input, with its position.
// Line and Col are 1-based; both are 0 when the finding is about a whole file
// or directory. Col counts bytes, as the Go toolchain does.
type Diagnostic struct {
	Severity Severity `json:"severity"`
	Code     string   `json:"code"`
	File     string   `json:"file"` // OS path as read; the CLI makes it relative
	Line     int      `json:"line"`
	Col      int      `json:"col"`
	Skill    string   `json:"skill"` // the skill's directory name, if any
	Message  string   `json:"message"`
}

func (d Diagnostic) String() string {
	return fmt.Sprintf("%s:%d:%d: %s: %s [%s]", d.File, d.Line, d.Col, d.Severity, d.Message, d.Code)
}

// SortDiagnostics orders diagnostics by file, position, then code and
// message, so that output never depends on scheduling or listing order.
func SortDiagnostics(ds []Diagnostic) {
	slices.SortStableFunc(ds, compareDiagnostics)
}

func compareDiagnostics(a, b Diagnostic) int {
	return cmp.Or(
		cmp.Compare(a.File, b.File),
		cmp.Compare(a.Line, b.Line),
		cmp.Compare(a.Col, b.Col),
		cmp.Compare(b.Severity, a.Severity),
		cmp.Compare(a.Code, b.Code),
		cmp.Compare(a.Message, b.Message),
	)
}

// HasErrors reports whether any diagnostic is an error.
func HasErrors(ds []Diagnostic) bool {
	return slices.ContainsFunc(ds, func(d Diagnostic) bool { return d.Severity == Error })
}

// diags collects diagnostics about one file.
type diags struct {
	file  string
	skill string
	list  []Diagnostic
}

func (d *diags) add(sev Severity, code string, line, col int, format string, args ...any) {
	d.list = append(d.list, Diagnostic{
		Severity: sev, Code: code, File: d.file, Line: line, Col: col,
		Skill: d.skill, Message: fmt.Sprintf(format, args...),
	})
}

func (d *diags) errorf(code string, line, col int, format string, args ...any) {
	d.add(Error, code, line, col, format, args...)
}

func (d *diags) warnf(code string, line, col int, format string, args ...any) {
	d.add(Warning, code, line, col, format, args...)
}
