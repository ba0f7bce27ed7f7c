// Package runtime serves the Workflows and skill files that skillgen
// compiled into a generated package.
//
// Everything is decided at build time: the generated package holds a static
// Table, and a Registry only reads it. Nothing here touches the filesystem
// except Materialize, nothing parses YAML, and Lookup, Invoke and Resident
// allocate nothing. The package uses the standard library only.
package runtime

import (
	"errors"
	"io/fs"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Errors returned by Invoke.
var (
	ErrNotInvocation    = errors.New("skillgen/runtime: input does not start with \"/\"")
	ErrNotFound         = errors.New("skillgen/runtime: no such workflow")
	ErrNotUserInvocable = errors.New("skillgen/runtime: workflow is not user invocable")
)

// A Workflow is one entry of the table: an in-house Workflow or an ingested
// skill. Its slices are shared with the Registry and must not be modified.
type Workflow struct {
	Slug, Description              string
	ModelInvocation, UserInvocable bool
	Requires                       []string
	Body                           string
	Source                         Source

	License, Compatibility, AllowedTools string
	Metadata                             []Meta // sorted by key
	Files                                []File // skill files incl. SKILL.md; empty for in-house workflows
}

// SourceKind says where a Workflow was defined.
type SourceKind uint8

const (
	KindWorkflow SourceKind = iota // <workspace>/.insomnia/memory/workflow/<slug>.md
	KindSkill                      // <root>/<slug>/SKILL.md of a manifest's [skills] directories
)

func (k SourceKind) String() string {
	if k == KindSkill {
		return "skill"
	}
	return "workflow"
}

// MarshalText prints a SourceKind as its name in JSON and text encodings.
func (k SourceKind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// Source is the file that defined a Workflow.
type Source struct {
	Kind SourceKind
	// Path is slash-separated and relative to the workspace; for a skill root
	// outside the workspace it is the root as the manifest wrote it, followed
	// by "/<dir>/SKILL.md".
	Path string
}

// Meta is one metadata entry of a skill.
type Meta struct{ Key, Value string }

// File describes one file of a skill. Path is relative to the skill directory.
type File struct {
	Path   string
	Mode   fs.FileMode // 0o644, or 0o755 for executables
	Size   int64
	SHA256 string // hex
}

// Permission is the access a Grant gives.
type Permission uint8

// Read is permission to read.
const Read Permission = 1

func (p Permission) String() string {
	if p == Read {
		return "read"
	}
	return "none"
}

// MarshalText prints a Permission as its name.
func (p Permission) MarshalText() ([]byte, error) { return []byte(p.String()), nil }

// A Grant gives a Scope access to a skill's files.
type Grant struct {
	Target     string // "<slug>" from Grants; an absolute directory from Materialize
	Permission Permission
	Recursive  bool
}

// A Notification is something the build decided that the host should tell
// its user, such as a shadowed or skipped skill.
type Notification struct {
	Code    string // "shadowed" | "skipped" | …
	Message string
}

// Table is the compiled form of a Registry. Generated code declares one as a
// package-level variable, which the linker lays out as static data; it is
// not meant to be written by hand.
type Table struct {
	Workflows     []Workflow     // sorted by slug, unique
	Entries       []Entry        // every skill file, sorted by Path
	Grants        []Grant        // one per ingested skill, sorted by target
	Notifications []Notification // in resolution order
	Resident      string         // the value of Resident, precomputed by FormatResident
	Tool          Tool           // the value of ActivationTool, precomputed by FormatActivationTool
}

// An Entry is one embedded skill file as served by FS.
type Entry struct {
	Path string      // "<slug>/<path in the skill>"
	Mode fs.FileMode // permission bits only
	Data *string     // the file's bytes; a pointer so the table stays static
}

// Registry serves a Table.
type Registry struct {
	t *Table
}

// New returns a Registry over t, which must not be modified afterwards.
func New(t *Table) *Registry { return &Registry{t: t} }

// Workflows returns every workflow, sorted by slug.
func (r *Registry) Workflows() []Workflow { return slices.Clone(r.t.Workflows) }

// Lookup returns the workflow with the given slug. It does not allocate.
func (r *Registry) Lookup(slug string) (*Workflow, bool) {
	ws := r.t.Workflows
	lo, hi := 0, len(ws)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if ws[m].Slug < slug {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(ws) && ws[lo].Slug == slug {
		return &ws[lo], true
	}
	return nil, false
}

// Invoke parses a user's "/slug args" input. The slug ends at the first
// white space; the white space after it is dropped and the rest is returned
// as the arguments. Input without a leading "/" is ErrNotInvocation; an
// unknown slug is ErrNotFound. A workflow that is not user invocable is
// returned with ErrNotUserInvocable. Invoke does not allocate.
func (r *Registry) Invoke(input string) (*Workflow, string, error) {
	if !strings.HasPrefix(input, "/") {
		return nil, "", ErrNotInvocation
	}
	slug, args := splitInvocation(input[1:])
	w, ok := r.Lookup(slug)
	if !ok {
		return nil, "", ErrNotFound
	}
	if !w.UserInvocable {
		return w, args, ErrNotUserInvocable
	}
	return w, args, nil
}

// splitInvocation splits "slug args" at the first white space and drops the
// white space that follows the slug.
func splitInvocation(s string) (slug, args string) {
	for i, c := range s {
		if unicode.IsSpace(c) {
			return s[:i], strings.TrimLeftFunc(s[i+utf8.RuneLen(c):], unicode.IsSpace)
		}
	}
	return s, ""
}

// Resident returns the block for the system prompt that lists every
// model-invocable workflow, or "" when there is none. It does not allocate.
func (r *Registry) Resident() string { return r.t.Resident }

// residentHeading starts the Resident block.
const residentHeading = "## Workflows\n\nRun one by its slug as /<slug>.\n\n"

// FormatResident renders the Resident block of ws: a short heading and one
// line "- slug: description" per model-invocable workflow, in the order of
// ws, with newlines in descriptions folded to spaces; "" when there is none.
// skillgen calls it at build time.
func FormatResident(ws []Workflow) string {
	lines := catalogLines(ws)
	if lines == "" {
		return ""
	}
	return residentHeading + lines
}

// activationToolName is the name of the activation tool.
const activationToolName = "activate_skill"

// toolInstruction starts the activation tool's description.
const toolInstruction = "Load a skill's full instructions, and the list of its files, into the conversation. " +
	"Call it as soon as a task matches one of these skills, before doing the task:\n\n"

// FormatActivationTool builds the activation tool of ws: its description
// is a short instruction and the catalog lines of FormatResident, its
// schema an object whose one property "name" is an enum of every
// model-invocable slug, in the order of ws. It is the zero Tool when no
// workflow is model-invocable. skillgen calls it at build time.
func FormatActivationTool(ws []Workflow) Tool {
	lines := catalogLines(ws)
	if lines == "" {
		return Tool{}
	}
	var schema strings.Builder
	schema.WriteString(`{"type":"object","properties":{"name":{"type":"string","enum":[`)
	n := 0
	for _, w := range ws {
		if w.ModelInvocation {
			if n > 0 {
				schema.WriteByte(',')
			}
			n++
			schema.WriteString(strconv.Quote(w.Slug)) // slugs are a-z, 0-9 and "-": JSON and Go quoting agree
		}
	}
	schema.WriteString(`]}},"required":["name"],"additionalProperties":false}`)
	return Tool{Name: activationToolName, Description: toolInstruction + lines, InputSchema: schema.String()}
}

// catalogLines renders one line "- slug: description" per model-invocable
// workflow of ws, in order, newlines in descriptions folded to spaces.
func catalogLines(ws []Workflow) string {
	var b strings.Builder
	size := 0
	for _, w := range ws {
		size += len(w.Slug) + len(w.Description) + 5
	}
	b.Grow(size)
	for _, w := range ws {
		if !w.ModelInvocation {
			continue
		}
		b.WriteString("- ")
		b.WriteString(w.Slug)
		b.WriteString(": ")
		b.WriteString(foldNewlines(w.Description))
		b.WriteByte('\n')
	}
	return b.String()
}

func foldNewlines(s string) string {
	if !strings.ContainsAny(s, "\r\n") {
		return s
	}
	return newlineFolder.Replace(s)
}

// newlineFolder turns each line break (CRLF, LF or CR) into one space.
var newlineFolder = strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ")

// Grants returns one read grant per ingested skill, its Target the slug
// (the skill's directory in FS).
func (r *Registry) Grants() []Grant { return slices.Clone(r.t.Grants) }

// Notifications returns what the build decided, in resolution order.
func (r *Registry) Notifications() []Notification { return slices.Clone(r.t.Notifications) }
