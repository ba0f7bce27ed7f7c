// Package gen is skillgen's public API: it compiles a workspace's manifest,
// Workflows and skills, lowers them to the table the generated package
// holds, and renders and writes that package.
//
// Generate does all the work in memory and writes nothing. Its Result
// holds the table as a value: the preview Registry, list and prompt read
// it without rendering any Go. Write (write-if-changed, atomic, under a
// lock) and Check (compare, write nothing) render it once and sync the
// output directory through the same plan. See ARCHITECTURE.md.
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
	"github.com/skillgen/skillgen/internal/hashcache"
	"github.com/skillgen/skillgen/runtime"
	"github.com/skillgen/skillgen/runtime/skillgenimpl"
)

// Diagnostics and the resolution record, as compile produces them.
type (
	Diagnostic     = compile.Diagnostic
	Severity       = compile.Severity
	ListEntry      = compile.ListEntry
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

	// CatalogBudget, when not 0, fits the catalog (Resident, the
	// activation tool's description, SkillsXML) to that many characters:
	// see Catalog and README.md, "Catalog budget".
	CatalogBudget int

	// CacheDir, when set, keeps a cache of file hashes there (one file per
	// output directory), so that a run over unchanged inputs and output
	// reads neither again: what go generate runs on every build. A file is
	// trusted only while its size, times, inode and device are as when it
	// was hashed. "" (the default) caches nothing; Check never caches.
	CacheDir string
}

// Summary counts what a run compiled.
type Summary struct {
	Workflows int     // in the table
	Skills    int     // of which ingested skills
	Shadowed  int     // skills that lost to an earlier workflow or skill
	Skipped   int     // invalid skills left out
	Files     int     // skill files served
	Bytes     int64   // their total size
	Blobs     int     // distinct contents embedded
	Catalog   Catalog // the catalog's size and what its budget did
}

// File is one file of the generated package, its Path relative to Out.
type File struct {
	Path string
	Size int64
}

// Result is a compiled workspace, lowered to the table of its package.
type Result struct {
	Diagnostics   []Diagnostic
	Entries       []ListEntry            // every workflow and skill considered, in resolution order
	Notifications []runtime.Notification // as stored in the package
	Summary       Summary
	Out           string // the output directory, absolute
	Package       string

	low      *lowered          // nil on errors
	registry *runtime.Registry // the preview, built on first use
	out      *rendered         // the rendered package, built on first use
	fsys     outputFS
	cache    *hashcache.Cache // nil: no cache
}

// OK reports whether the run had no errors (and so can be written).
func (r *Result) OK() bool { return !compile.HasErrors(r.Diagnostics) }

// Registry returns the table as the generated package will serve it, for
// previews (list, prompt): every workflow, body, catalog and notification.
// Its FS serves only the skill files themselves (SKILL.md), whose bytes the
// run holds in memory. It is nil when the run has errors.
func (r *Result) Registry() *runtime.Registry {
	if r.registry == nil && r.low != nil {
		reg, err := r.low.preview()
		if err != nil {
			panic(fmt.Sprintf("skillgen: the lowered table is invalid: %v", err)) // a bug in lower
		}
		r.registry = reg
	}
	return r.registry
}

// Generate compiles the workspace and lowers it to the table of the
// package, in memory. It writes nothing. Problems with the input are in
// Diagnostics (and make OK false); the error is for a configuration that
// cannot work at all.
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
	if cfg.CatalogBudget < 0 {
		return nil, fmt.Errorf("invalid catalog budget %d", cfg.CatalogBudget)
	}

	var cache *hashcache.Cache
	if cfg.CacheDir != "" {
		sum := sha256.Sum256([]byte(out))
		cache = hashcache.Open(filepath.Join(cfg.CacheDir, "hashes-"+hex.EncodeToString(sum[:8])))
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
	low := lower(prog, cfg.CatalogBudget)
	if n := low.spec.SizeBound(); n > skillgenimpl.MaxTable {
		r.Diagnostics = append(r.Diagnostics, Diagnostic{Severity: Error, Code: CodeSizeLimit, Message: fmt.Sprintf(
			"the table of workflows would be up to %d bytes, over the %d the format holds: too many or too long in-house workflows or descriptions", n, int64(skillgenimpl.MaxTable))})
		return r, nil
	}
	r.low = low
	r.Entries = prog.Entries
	r.Notifications = r.low.spec.Notifications
	r.Summary = summarize(prog, r.low)
	r.Diagnostics = append(r.Diagnostics, r.low.catalogDiagnostics()...)
	compile.SortDiagnostics(r.Diagnostics)
	return r, nil
}

// Files returns the files of the generated package: the Go file, then the
// data files (the encoded table and the skill files' contents, one blob
// each) in name order. It is nil when the run has errors.
func (r *Result) Files() []File {
	if r.low == nil {
		return nil
	}
	p := r.render()
	files := []File{{Path: GoFileName, Size: int64(len(p.goSrc))}}
	for _, b := range p.blobs {
		files = append(files, File{Path: DataDir + "/" + b.name, Size: b.file.Size})
	}
	return files
}

// GoSource returns the rendered Go file; nil when the run has errors.
func (r *Result) GoSource() []byte {
	if r.low == nil {
		return nil
	}
	return r.render().goSrc
}

// Validate checks the skills at the given paths (a SKILL.md, a skill
// directory, or a root of skill directories). Paths that do not exist are
// returned in missing.
func Validate(paths []string, hidden bool) (results []ValidateResult, diags []Diagnostic, missing []string) {
	return compile.Validate(paths, hidden)
}

// Inputs are the paths a Generate reads: its manifest layers, the
// workspace's Workflow directory and the skill roots (see
// compile.Inputs). skillgen generate -watch watches them.
type Inputs = compile.Inputs

// ResolveInputs returns the paths Generate(cfg) reads, resolved as
// Generate resolves them, reading only the manifests.
func ResolveInputs(cfg Config) Inputs {
	return compile.ResolveInputs(compile.Config{Dir: cfg.Dir, Manifests: cfg.Manifests, Workspace: cfg.Workspace, Home: cfg.Home})
}
