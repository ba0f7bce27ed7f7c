// Package gen is skillgen's public API: it compiles a workspace's manifest,
// Workflows and skills, and renders the Go package that serves them.
//
// Generate does all the work in memory and writes nothing; the Result is
// then either written (Write: write-if-changed, atomic, under a lock) or
// compared with what is on disk (Check). Both sinks see exactly the same
// rendered bytes.
package gen

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"go/token"
	"os"
	"path/filepath"

	"github.com/skillgen/skillgen/internal/compile"
	"github.com/skillgen/skillgen/runtime"
)

// Diagnostics and the resolution record, as compile produces them.
type (
	Diagnostic     = compile.Diagnostic
	Severity       = compile.Severity
	ListEntry      = compile.ListEntry
	Source         = compile.Source
	Notification   = compile.Notification
	ValidateResult = compile.ValidateResult
)

// Severities.
const (
	Info    = compile.Info
	Warning = compile.Warning
	Error   = compile.Error
)

// Default size caps.
const (
	DefaultMaxFileSize  = compile.DefaultMaxFileSize
	DefaultMaxTotalSize = compile.DefaultMaxTotalSize
)

// Config says what to generate. Relative paths are relative to Dir.
type Config struct {
	Dir       string   // working directory; "" means the process's
	Manifests []string // manifest layers, in order; none: walk up from Dir to .insomnia/manifest.toml
	Workspace string   // "" means the directory holding .insomnia
	Home      string   // expands "~"; "" means the user's home directory
	Out       string   // output directory; "" means Dir
	Package   string   // package name; "" means the base name of Out
	Strict    bool     // a skipped skill or missing skills directory fails the run
	Hidden    bool     // embed dot-files and dot-directories of skills

	MaxFileSize  int64 // 0 means DefaultMaxFileSize
	MaxTotalSize int64 // 0 means DefaultMaxTotalSize

	// CacheDir, when set, keeps a cache of file hashes there (one file per
	// output directory), so that a run over unchanged inputs and output
	// reads neither again: what go generate runs on every build. A file is
	// trusted only while its size, times, inode and device are as when it
	// was hashed. "" (the default) caches nothing; skillgen check never
	// caches.
	CacheDir string
}

// Summary counts what a run compiled.
type Summary struct {
	Workflows int   // in the table
	Skills    int   // of which ingested skills
	Shadowed  int   // skills that lost to an earlier workflow or skill
	Skipped   int   // invalid skills left out
	Files     int   // skill files served
	Bytes     int64 // their total size
	Blobs     int   // distinct contents embedded
}

// File is one file of the generated package, its Path relative to Out.
type File struct {
	Path string
	Size int64
}

// Result is a rendered package, not yet written.
type Result struct {
	Files         []File // the Go file, then the blobs in name order; nil on errors
	Diagnostics   []Diagnostic
	Entries       []ListEntry    // every workflow and skill considered, in resolution order
	Notifications []Notification // as stored in the package
	Summary       Summary
	Out           string // the output directory, absolute
	Package       string

	prog     *compile.Program
	registry *runtime.Registry // built on first use
	goSrc    []byte
	blobs    []*blob
	fsys     outputFS
	cache    *compile.HashCache // nil: no cache
}

// OK reports whether the run had no errors (and so can be written).
func (r *Result) OK() bool { return !compile.HasErrors(r.Diagnostics) }

// Registry returns the table as the generated package will serve it, for
// previews (list, prompt). It holds no file contents: its FS is empty.
// It is nil when the run has errors.
func (r *Result) Registry() *runtime.Registry {
	if r.registry == nil && r.prog != nil {
		r.registry = runtime.New(previewTable(r.prog))
	}
	return r.registry
}

// Generate compiles the workspace and renders the package in memory. It
// writes nothing. Problems with the input are in Diagnostics (and make OK
// false); the error is for a configuration that cannot work at all.
func Generate(cfg Config) (*Result, error) {
	dir := cfg.Dir
	if dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, err
		}
		dir = wd
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	out := cmp.Or(cfg.Out, ".")
	if !filepath.IsAbs(out) {
		out = filepath.Join(dir, out)
	}
	out = filepath.Clean(out)
	// An -out that is a symlink to a directory is written through (the data
	// directory inside it must still be a real directory).
	if real, err := filepath.EvalSymlinks(out); err == nil {
		out = real
	}
	pkg := cfg.Package
	if pkg == "" {
		pkg = filepath.Base(out)
		if !token.IsIdentifier(pkg) || token.IsKeyword(pkg) || pkg == "_" {
			return nil, fmt.Errorf("cannot use the output directory's name %q as a package name; give -pkg", pkg)
		}
	} else if !token.IsIdentifier(pkg) || token.IsKeyword(pkg) || pkg == "_" {
		return nil, fmt.Errorf("invalid package name %q", pkg)
	}

	var cache *compile.HashCache
	if cfg.CacheDir != "" {
		sum := sha256.Sum256([]byte(out))
		cache = compile.OpenHashCache(filepath.Join(cfg.CacheDir, "hashes-"+hex.EncodeToString(sum[:8])))
	}
	prog, diags := compile.Compile(compile.Config{
		Dir: dir, Manifests: cfg.Manifests, Workspace: cfg.Workspace, Home: cfg.Home,
		Strict: cfg.Strict, Hidden: cfg.Hidden, MaxFileSize: cfg.MaxFileSize, MaxTotalSize: cfg.MaxTotalSize,
		HashCache: cache,
	})
	r := &Result{Diagnostics: diags, Out: out, Package: pkg, fsys: osFS{}, cache: cache}
	if prog == nil {
		return r, nil
	}
	r.Entries = prog.Entries
	r.Notifications = prog.Notifications
	blobs, byHash := blobsOf(prog)
	src, err := render(prog, pkg, blobs, byHash)
	if err != nil {
		return nil, err
	}
	r.goSrc, r.blobs = src, blobs
	r.prog = prog
	r.Files = append(r.Files, File{Path: GoFileName, Size: int64(len(src))})
	for _, b := range blobs {
		r.Files = append(r.Files, File{Path: DataDir + "/" + b.name, Size: b.file.Size})
	}
	r.Summary = summarize(prog, len(blobs))
	return r, nil
}

// GoSource returns the rendered Go file.
func (r *Result) GoSource() []byte { return r.goSrc }

func summarize(p *compile.Program, blobs int) Summary {
	s := Summary{Workflows: len(p.Workflows), Blobs: blobs}
	for _, w := range p.Workflows {
		if w.Source.Kind == compile.KindSkill {
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

// previewTable is the runtime table of a program without file contents.
func previewTable(p *compile.Program) *runtime.Table {
	t := &runtime.Table{}
	for _, w := range p.Workflows {
		rw := runtime.Workflow{
			Slug: w.Slug, Description: w.Description, ModelInvocation: w.ModelInvocation, UserInvocable: w.UserInvocable,
			Body: w.BodyText(), License: w.License, Compatibility: w.Compatibility, AllowedTools: w.AllowedTools,
			Source: runtime.Source{Kind: runtime.KindWorkflow, Path: w.Source.Path},
		}
		if len(w.Requires) > 0 { // as in the generated code: no requirements is a nil slice
			rw.Requires = w.Requires
		}
		if w.Source.Kind == compile.KindSkill {
			rw.Source.Kind = runtime.KindSkill
			t.Grants = append(t.Grants, runtime.Grant{Target: w.Slug, Permission: runtime.Read, Recursive: true})
		}
		for _, m := range w.Metadata {
			rw.Metadata = append(rw.Metadata, runtime.Meta{Key: m.Key, Value: m.Value})
		}
		for _, f := range w.Files {
			rw.Files = append(rw.Files, runtime.File{Path: f.Path, Mode: f.Mode, Size: f.Size, SHA256: fmt.Sprintf("%x", f.SHA256)})
		}
		t.Workflows = append(t.Workflows, rw)
	}
	for _, n := range p.Notifications {
		t.Notifications = append(t.Notifications, runtime.Notification{Code: n.Code, Message: n.Message})
	}
	t.Resident = runtime.FormatResident(t.Workflows)
	t.Tool = runtime.FormatActivationTool(t.Workflows)
	return t
}

// Validate checks the skills at the given paths (a SKILL.md, a skill
// directory, or a root of skill directories). Paths that do not exist are
// returned in missing.
func Validate(paths []string, hidden bool) (results []ValidateResult, diags []Diagnostic, missing []string) {
	return compile.Validate(paths, hidden)
}
