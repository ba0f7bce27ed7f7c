// Package runtime serves the Workflows and skill files that skillgen
// compiled into a generated package: the package exports a *Registry, and
// a host uses it to list, look up and invoke workflows, put the catalog in
// its model's context, activate skills and read their files.
//
// Everything is decided at build time. The generated package holds one
// encoded table and the embedded files, and a Registry reads them in place:
// nothing is built at start-up (its cost does not grow with the number of
// skills), each workflow is decoded the first time it is asked for, nothing
// touches the filesystem except Materialize, nothing parses YAML, and
// Lookup, Invoke, Resident and ActivationTool allocate nothing. The package
// uses the standard library only.
//
// Generated code builds its Registry through runtime/skillgenimpl, which
// is not for hosts; see ARCHITECTURE.md.
package runtime

import (
	"errors"
	"io/fs"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/skillgen/skillgen/runtime/internal/abi"
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
	Code    string // CodeShadowed, CodeSkipped, CodeCatalogTrimmed
	Message string // one line, for the user
}

// Notification codes. They are a contract: hosts may match on them.
const (
	// CodeShadowed: a skill lost to an earlier in-house workflow or skill
	// of the same name.
	CodeShadowed = "shadowed"
	// CodeSkipped: an invalid skill was left out.
	CodeSkipped = "skipped"
	// CodeCatalogTrimmed: the catalog was cut to fit its budget;
	// every workflow is still invocable.
	CodeCatalogTrimmed = "catalog-trimmed"
)

// Registry serves the table of a generated package. Generated code makes
// one with runtime/skillgenimpl; a host only uses it.
type Registry struct {
	t *table
	d abi.Data
}

// table is the runtime's instantiation of the generated code's storage.
type table = abi.Table[Workflow, File, Meta]

// The generated code reaches newRegistry through runtime/skillgenimpl.
var _ = func() bool {
	abi.NewRegistry = func(t any) any { return newRegistry(t.(*table)) }
	return true
}()

// newRegistry checks that t is a table of this format, with storage for
// everything it holds. A mismatch can only come from generated code edited
// by hand or a broken build: it panics at start-up, naming the fix, rather
// than serving a wrong answer later.
func newRegistry(t *table) *Registry {
	d := abi.Data(*t.Data)
	if !d.Valid() {
		panic("skillgen/runtime: the generated table is not in this runtime's format; run go generate with the skillgen of this module's version")
	}
	if len(t.Slots) != d.Header(abi.HWorkflowCount) || len(t.Files) != d.Header(abi.HEntryCount) ||
		len(t.Meta) != d.Header(abi.HMetaCount) || len(t.Requires) != d.Header(abi.HRequireCount) ||
		len(t.Blobs) != d.Header(abi.HBlobCount) {
		panic("skillgen/runtime: the generated table's storage does not match its contents; run go generate")
	}
	return &Registry{t: t, d: d}
}

// headerString returns the string in header words i and i+1.
func (r *Registry) headerString(i int) string { return r.d.String(len(abi.Magic) + 4*i) }

// len returns the number of workflows.
func (r *Registry) len() int { return len(r.t.Slots) }

// record returns the byte offset of workflow i's record.
func (r *Registry) record(i int) int { return r.d.Record(abi.HWorkflowOff, abi.WorkflowWords, i) }

// slug returns workflow i's slug without decoding the rest.
func (r *Registry) slug(i int) string { return r.d.String(r.record(i) + 4*abi.WSlug) }

// flags returns workflow i's flags.
func (r *Registry) flags(i int) int { return r.d.Int(r.record(i) + 4*abi.WFlags) }

// workflow returns workflow i, decoding it on first use.
func (r *Registry) workflow(i int) *Workflow {
	s := &r.t.Slots[i]
	s.Once.Do(func() { r.decode(i, &s.W) })
	return &s.W
}

// decode fills w from workflow record i. Strings are substrings of the
// table or of the embedded blobs; slices are windows on the generated
// storage. Nothing is allocated.
func (r *Registry) decode(i int, w *Workflow) {
	d, rec := r.d, r.record(i)
	str := func(word int) string { return d.String(rec + 4*word) }
	num := func(word int) int { return d.Int(rec + 4*word) }
	flags := num(abi.WFlags)
	*w = Workflow{
		Slug:            str(abi.WSlug),
		Description:     str(abi.WDescription),
		ModelInvocation: flags&abi.FlagModel != 0,
		UserInvocable:   flags&abi.FlagUser != 0,
		Requires:        []string{}, // no requirements is an empty list, not nil
		Source:          Source{Kind: KindWorkflow, Path: str(abi.WSource)},
		License:         str(abi.WLicense),
		Compatibility:   str(abi.WCompat),
		AllowedTools:    str(abi.WTools),
	}
	if flags&abi.FlagSkill != 0 {
		w.Source.Kind = KindSkill
		if blob := r.t.Blobs[num(abi.WBodyA)]; blob != nil {
			w.Body = (*blob)[num(abi.WBodyB):]
		}
	} else {
		w.Body = d.String(rec + 4*abi.WBodyA)
	}
	if n := num(abi.WReqCount); n > 0 {
		start := num(abi.WReqStart)
		w.Requires = r.t.Requires[start : start+n : start+n]
		for j := range n {
			w.Requires[j] = d.String(d.Record(abi.HRequireOff, abi.RequireWords, start+j))
		}
	}
	if n := num(abi.WMetaCount); n > 0 {
		start := num(abi.WMetaStart)
		w.Metadata = r.t.Meta[start : start+n : start+n]
		for j := range n {
			m := d.Record(abi.HMetaOff, abi.MetaWords, start+j)
			w.Metadata[j] = Meta{Key: d.String(m + 4*abi.MKey), Value: d.String(m + 4*abi.MValue)}
		}
	}
	if n := num(abi.WEntryCount); n > 0 {
		start := num(abi.WEntryStart)
		w.Files = r.t.Files[start : start+n : start+n]
		for j := range n {
			e := r.entry(start + j)
			w.Files[j] = File{Path: e.path[e.slugLen+1:], Mode: e.mode, Size: r.blobSize(e.blob), SHA256: r.blobName(e.blob)}
		}
	}
}

// Lookup returns the workflow with the given slug. It does not allocate.
func (r *Registry) Lookup(slug string) (*Workflow, bool) {
	lo, hi := 0, r.len()
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if r.slug(m) < slug {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < r.len() && r.slug(lo) == slug {
		return r.workflow(lo), true
	}
	return nil, false
}

// Workflows returns every workflow, sorted by slug.
func (r *Registry) Workflows() []Workflow {
	ws := make([]Workflow, r.len())
	for i := range ws {
		ws[i] = *r.workflow(i)
	}
	return ws
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
// model-invocable workflow, or "" when there is none: a short heading and
// one line "- slug: description" per workflow, by slug, with line breaks in
// descriptions folded to spaces (within the catalog budget the package was
// generated with, if any). It does not allocate.
func (r *Registry) Resident() string { return r.headerString(abi.HResident) }

// Grants returns one read grant per ingested skill, its Target the slug
// (the skill's directory in FS).
func (r *Registry) Grants() []Grant {
	var grants []Grant
	for i := range r.len() {
		if r.flags(i)&abi.FlagSkill != 0 {
			grants = append(grants, Grant{Target: r.slug(i), Permission: Read, Recursive: true})
		}
	}
	return grants
}

// Notifications returns what the build decided, in resolution order.
func (r *Registry) Notifications() []Notification {
	n := r.d.Header(abi.HNoteCount)
	if n == 0 {
		return nil
	}
	notes := make([]Notification, n)
	for i := range notes {
		rec := r.d.Record(abi.HNoteOff, abi.NoteWords, i)
		notes[i] = Notification{Code: r.d.String(rec + 4*abi.NCode), Message: r.d.String(rec + 4*abi.NMessage)}
	}
	return notes
}
