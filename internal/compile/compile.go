package compile

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path"
	"path/filepath"
	"slices"

	"github.com/skillgen/skillgen/runtime"

	"github.com/skillgen/skillgen/internal/fsutil"
	"github.com/skillgen/skillgen/internal/hashcache"
)

// Default size caps (README.md, "Limits"): safety limits, raised with flags.
const (
	DefaultMaxFileSize  = 32 << 20
	DefaultMaxTotalSize = 512 << 20
)

// Config says what to compile. Relative paths are relative to Dir.
type Config struct {
	Dir       string   // working directory; "" means the process's
	Manifests []string // manifest layers in order; none: walk up from Dir to .insomnia/manifest.toml
	Workspace string   // "" means the directory holding .insomnia
	Home      string   // expands "~"; "" means the user's home directory
	Strict    bool     // a skipped skill or a missing skills directory fails the run
	Hidden    bool     // include dot-files and dot-directories of skills

	MaxFileSize  int64 // per skill file; 0 means DefaultMaxFileSize
	MaxTotalSize int64 // all skill files together; 0 means DefaultMaxTotalSize

	// HashCache, when not nil, spares hashing files that have not changed
	// since a previous run (see internal/hashcache).
	HashCache *hashcache.Cache
}

// Compile reads the manifest, the workspace's Workflows and every listed
// skill, validates and resolves them, and hashes every file to embed. It
// writes nothing. The Program is nil when any diagnostic is an error.
func Compile(cfg Config) (*Program, []Diagnostic) {
	c := &compiler{cfg: cfg}
	p := c.run()
	SortDiagnostics(c.diags)
	if HasErrors(c.diags) {
		return nil, c.diags
	}
	return p, c.diags
}

type compiler struct {
	cfg   Config
	diags []Diagnostic
}

func (c *compiler) errorf(code, file string, format string, args ...any) {
	c.diags = append(c.diags, Diagnostic{Severity: Error, Code: code, File: file, Message: fmt.Sprintf(format, args...)})
}

// skillSeverity is how a problem that skips a skill is reported: a warning,
// or an error under -strict.
func (c *compiler) skillSeverity() Severity {
	if c.cfg.Strict {
		return Error
	}
	return Warning
}

// runInputs is what a run reads, found from its Config: the manifest
// layers, the workspace and the skill roots.
type runInputs struct {
	manifests []string // absolute, in order
	workspace string   // absolute
	roots     []Root   // from the manifests, duplicates dropped
	// candidates, when no manifest was given, are the paths the walk up
	// looked at: up to the manifest it found, or all of them.
	candidates []string
}

// resolve finds the manifest layers, the workspace and the skill roots,
// reading only the manifests; ok is false when there is no manifest.
func (c *compiler) resolve() (in runInputs, ok bool) {
	dir := c.cfg.Dir
	if dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			c.errorf(CodeReadFailed, "", "cannot find the working directory: %v", err)
			return in, false
		}
		dir = wd
	}
	dir, _ = filepath.Abs(dir)
	abs := func(p string) string {
		if filepath.IsAbs(p) {
			return filepath.Clean(p)
		}
		return filepath.Join(dir, p)
	}

	manifests := make([]string, len(c.cfg.Manifests))
	for i, m := range c.cfg.Manifests {
		manifests[i] = abs(m)
	}
	if len(manifests) == 0 {
		m, ok := FindManifest(dir)
		if !ok {
			c.errorf(CodeManifestMissing, dir, "no %s found here or in any parent directory; give -manifest", filepath.Join(ManifestDir, ManifestName))
			in.candidates = manifestCandidates(dir)
			return in, false
		}
		manifests = []string{m}
		cands := manifestCandidates(dir)
		in.candidates = cands[:slices.Index(cands, m)+1]
	}
	workspace := c.cfg.Workspace
	switch {
	case workspace != "":
		workspace = abs(workspace)
	case filepath.Base(filepath.Dir(manifests[0])) == ManifestDir:
		workspace = manifestBase(manifests[0])
	default:
		workspace = dir
		if root, ok := findUp(dir, ManifestDir, true); ok {
			workspace = root
		}
	}
	home := c.cfg.Home
	if home == "" {
		home, _ = os.UserHomeDir()
	}

	// Manifests: their [skills] directories, concatenated, duplicates dropped.
	var roots []Root
	seen := map[string]bool{}
	for _, m := range manifests {
		ds := &diags{file: m}
		for _, r := range loadManifest(m, home, ds) {
			if !seen[r.Dir] {
				seen[r.Dir] = true
				roots = append(roots, r)
			}
		}
		c.diags = append(c.diags, ds.list...)
	}
	in.manifests, in.workspace, in.roots = manifests, workspace, roots
	return in, true
}

func (c *compiler) run() *Program {
	in, ok := c.resolve()
	if !ok {
		return nil
	}
	workspace, roots := in.workspace, in.roots

	workflows, wds := loadWorkflows(workspace)
	c.diags = append(c.diags, wds...)
	if HasErrors(c.diags) {
		return nil // strict inputs are broken; do not go on to the skills
	}

	// Skill candidates of every root, in effective order.
	type rootSkills struct {
		root Root
		dirs []skillDir
	}
	var all []rootSkills
	var dirs []skillDir
	for _, r := range roots {
		ds, err := listSkillDirs(r.Dir)
		if err != nil {
			what := "does not exist"
			if !errors.Is(err, fs.ErrNotExist) {
				what = "cannot be listed: " + errors.Unwrap(err).Error()
			}
			c.diags = append(c.diags, Diagnostic{
				Severity: c.skillSeverity(), Code: CodeSkillsDirMissing, File: r.Manifest, Line: r.Line, Col: r.Col,
				Message: fmt.Sprintf("skills directory %q (%s) %s", r.Written, r.Dir, what),
			})
			continue
		}
		all = append(all, rootSkills{r, ds})
		dirs = append(dirs, ds...)
	}
	loaded := make([]*skill, len(dirs))
	fsutil.Parallel(len(dirs), func(i int) { loaded[i] = loadSkill(dirs[i]) })

	// Resolution: in-house Workflows first, then the roots in order, skill
	// directories in byte order of name. The first one in wins.
	p := &Program{}
	winner := map[string]runtime.Source{}
	for _, w := range workflows {
		winner[w.Slug] = w.Source
		p.Workflows = append(p.Workflows, w)
		p.Entries = append(p.Entries, ListEntry{
			Slug: w.Slug, Source: w.Source, Status: StatusIngested,
			ModelInvocation: w.ModelInvocation, UserInvocable: w.UserInvocable,
		})
	}
	var ingested []*skill
	var ingestedWF []*Workflow
	var ingestedEntry []int // index in p.Entries of each ingested skill
	i := 0
	for _, rs := range all {
		display := rs.root.display(workspace)
		for range rs.dirs {
			s := loaded[i]
			i++
			if !s.found {
				continue
			}
			src := runtime.Source{Kind: runtime.KindSkill, Path: path.Join(display, s.name, s.file)}
			entry := ListEntry{Slug: s.name, Source: src, ModelInvocation: true, UserInvocable: true}
			switch by, taken := winner[s.name]; {
			case !s.valid():
				first := s.firstError()
				for _, d := range s.diags {
					if d.Severity == Error {
						d.Severity = c.skillSeverity()
					}
					c.diags = append(c.diags, d)
				}
				msg := fmt.Sprintf("skill /%s from skill (%s) was skipped: %s [%s]", s.name, src.Path, first.Message, first.Code)
				p.Notifications = append(p.Notifications, runtime.Notification{Code: CodeSkipped, Message: msg})
				c.diags = append(c.diags, Diagnostic{Severity: c.skillSeverity(), Code: CodeSkipped, File: s.path(), Skill: s.name,
					Message: fmt.Sprintf("skill %q is skipped: it has errors", s.name)})
				entry.Status, entry.Reason = StatusSkipped, fmt.Sprintf("%s [%s]", first.Message, first.Code)
				s.src = nil // not embedded: do not hold it for the rest of the run
			case taken:
				c.diags = append(c.diags, s.diags...)
				msg := fmt.Sprintf("skill /%s from skill (%s) was shadowed by existing %s (%s)", s.name, src.Path, winnerWord(by), by.Path)
				p.Notifications = append(p.Notifications, runtime.Notification{Code: CodeShadowed, Message: msg})
				c.diags = append(c.diags, Diagnostic{Severity: Warning, Code: CodeShadowed, File: s.path(), Skill: s.name, Message: msg})
				entry.Status, entry.By = StatusShadowed, &by
				s.src = nil
			default:
				c.diags = append(c.diags, s.diags...)
				winner[s.name] = src
				w := &Workflow{
					Slug: s.name, Description: s.meta.Description,
					ModelInvocation: true, UserInvocable: true, Requires: []string{},
					Source: src, License: s.meta.License, Compatibility: s.meta.Compatibility,
					AllowedTools: s.meta.AllowedTools, Metadata: s.meta.Metadata,
					SkillFile: s.file, BodyStart: s.meta.BodyStart, Dir: s.dir,
				}
				ingested = append(ingested, s)
				ingestedWF = append(ingestedWF, w)
				ingestedEntry = append(ingestedEntry, len(p.Entries))
				entry.Status = StatusIngested
			}
			p.Entries = append(p.Entries, entry)
		}
	}
	if HasErrors(c.diags) {
		return nil
	}

	c.collectFiles(ingested, ingestedWF)
	if HasErrors(c.diags) {
		return nil
	}
	for k, w := range ingestedWF {
		p.Entries[ingestedEntry[k]].Files = len(w.Files)
	}
	p.Workflows = append(p.Workflows, ingestedWF...)
	slices.SortFunc(p.Workflows, func(a, b *Workflow) int { return cmp.Compare(a.Slug, b.Slug) })
	return p
}

func winnerWord(s runtime.Source) string {
	if s.Kind == runtime.KindWorkflow {
		return "workspace workflow"
	}
	return "skill"
}

// collectFiles walks every ingested skill, enforces the size caps from the
// sizes the walk saw (before any byte is read), then hashes every file.
func (c *compiler) collectFiles(skills []*skill, wfs []*Workflow) {
	walked := make([][]Diagnostic, len(skills))
	fsutil.Parallel(len(skills), func(i int) {
		s, w := skills[i], wfs[i]
		ds := &diags{skill: s.name}
		w.Files = walkSkill(s.dir, s.realDir, s.entries, c.cfg.Hidden, true, ds)
		slices.SortFunc(w.Files, func(a, b File) int { return cmp.Compare(a.Path, b.Path) })
		found := false
		for j := range w.Files {
			if f := &w.Files[j]; f.Path == s.file {
				f.Data, f.Size = s.src, int64(len(s.src))
				found = true
			}
		}
		if !found { // gone between the look and the walk: there is no body to serve
			ds.file = s.path()
			ds.errorf(CodeReadFailed, 0, 0, "%s disappeared while skillgen was running", s.file)
		}
		walked[i] = append(ds.list, skillLinks(s, w.Files, ds.list)...)
	})
	for _, ds := range walked {
		c.diags = append(c.diags, ds...)
	}

	maxFile := cmp.Or(c.cfg.MaxFileSize, DefaultMaxFileSize)
	maxTotal := cmp.Or(c.cfg.MaxTotalSize, DefaultMaxTotalSize)
	var total int64
	var over *Diagnostic
	var files []*File
	var owners []*skill
	for i, w := range wfs {
		for j := range w.Files {
			f := &w.Files[j]
			if f.Size > maxFile {
				c.diags = append(c.diags, Diagnostic{
					Severity: Error, Code: CodeSizeLimit, File: filepath.Join(skills[i].dir, filepath.FromSlash(f.Path)), Skill: w.Slug,
					Message: fmt.Sprintf("file is %d bytes, over the per-file cap of %d bytes; raise it with -max-file-size", f.Size, maxFile),
				})
			}
			if over == nil && f.Size > maxTotal-total {
				over = &Diagnostic{Severity: Error, Code: CodeSizeLimit, File: filepath.Join(skills[i].dir, filepath.FromSlash(f.Path)), Skill: w.Slug}
			}
			total += min(f.Size, math.MaxInt64-total) // sizes are not negative; saturate, never wrap
			files = append(files, f)
			owners = append(owners, skills[i])
		}
	}
	if over != nil { // named after the file at which the total passes the cap
		over.Message = fmt.Sprintf("the skill files to embed total %d bytes, over the cap of %d bytes on all of them together (passed at this file); raise it with -max-total-size", total, maxTotal)
		c.diags = append(c.diags, *over)
	}
	if HasErrors(c.diags) {
		return
	}
	errs := make([]error, len(files))
	fsutil.Parallel(len(files), func(i int) { errs[i] = hashFile(files[i], c.cfg.HashCache) })
	for i, err := range errs {
		if err != nil {
			c.diags = append(c.diags, Diagnostic{
				Severity: Error, Code: CodeReadFailed, File: filepath.Join(owners[i].dir, filepath.FromSlash(files[i].Path)),
				Skill: owners[i].name, Message: fmt.Sprintf("cannot read file: %v", err),
			})
		}
	}
}

// FindManifest walks up from dir to the first .insomnia/manifest.toml.
func FindManifest(dir string) (string, bool) {
	root, ok := findUp(dir, filepath.Join(ManifestDir, ManifestName), false)
	if !ok {
		return "", false
	}
	return filepath.Join(root, ManifestDir, ManifestName), true
}

// manifestCandidates are the paths FindManifest looks at, nearest first.
func manifestCandidates(dir string) []string {
	var paths []string
	for {
		paths = append(paths, filepath.Join(dir, ManifestDir, ManifestName))
		parent := filepath.Dir(dir)
		if parent == dir {
			return paths
		}
		dir = parent
	}
}

// Inputs are the paths a compilation reads, as Compile resolves them from
// its Config: what skillgen generate -watch watches. Any of them may not
// exist.
type Inputs struct {
	// Manifests are the manifest layers, absolute, in order. When none was
	// given, they are every path the walk up looked at, nearest first: up
	// to the manifest it found (whose layer it is), or all of them.
	Manifests   []string
	WorkflowDir string   // the in-house Workflows' directory; "" when there is no manifest
	Roots       []string // the skill roots, absolute and clean, in effective order
}

// ResolveInputs returns the inputs a Compile of cfg reads, reading only
// the manifests. A broken manifest contributes no roots; Compile reports it.
func ResolveInputs(cfg Config) Inputs {
	c := &compiler{cfg: cfg}
	r, ok := c.resolve()
	if !ok {
		return Inputs{Manifests: r.candidates}
	}
	in := Inputs{Manifests: r.manifests, WorkflowDir: filepath.Join(r.workspace, WorkflowDir)}
	if r.candidates != nil { // found by walking up: a nearer manifest made later takes over
		in.Manifests = r.candidates
	}
	for _, root := range r.roots {
		in.Roots = append(in.Roots, root.Dir)
	}
	return in
}

// findUp returns the first of dir and its parents that holds rel (a
// directory if wantDir, else a file).
func findUp(dir, rel string, wantDir bool) (string, bool) {
	for {
		if info, err := os.Stat(filepath.Join(dir, rel)); err == nil && info.IsDir() == wantDir {
			return dir, true
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", false
		}
		dir = parent
	}
}

// ValidateResult is the outcome of validating one skill.
type ValidateResult struct {
	Skill string // directory name
	File  string // the SKILL.md
	Valid bool
}

// Validate checks every skill found at the given paths: a SKILL.md file, a
// skill directory, or a root of skill directories. A path where no skill is
// found is a skill-md-missing error. Paths that do not exist are returned
// in missing and not checked.
func Validate(paths []string, hidden bool) (results []ValidateResult, ds []Diagnostic, missing []string) {
	for _, p := range paths {
		skills, err := findSkillsInPath(p)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				missing = append(missing, p)
				continue
			}
			ds = append(ds, Diagnostic{Severity: Error, Code: CodeReadFailed, File: p, Message: fmt.Sprintf("cannot read: %v", errors.Unwrap(err))})
			continue
		}
		if len(skills) == 0 {
			ds = append(ds, Diagnostic{Severity: Error, Code: CodeSkillMDMissing, File: p,
				Message: "no skill found: neither a SKILL.md nor a directory of skill directories"})
			continue
		}
		walked := make([][]Diagnostic, len(skills))
		linked := make([][]Diagnostic, len(skills))
		fsutil.Parallel(len(skills), func(i int) {
			s := skills[i]
			if s.realDir == "" {
				return
			}
			w := &diags{skill: s.name}
			files := walkSkill(s.dir, s.realDir, s.entries, hidden, false, w)
			walked[i] = w.list
			linked[i] = skillLinks(s, files, w.list)
		})
		for i, s := range skills {
			ds = append(ds, s.diags...)
			ds = append(ds, linked[i]...)
			for _, d := range walked[i] {
				if d.File != s.path() { // the skill file's own problems are reported above
					ds = append(ds, d)
				}
			}
			results = append(results, ValidateResult{Skill: s.name, File: s.path(), Valid: s.valid()})
		}
	}
	SortDiagnostics(ds)
	return results, ds, missing
}
