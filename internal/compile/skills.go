package compile

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/skillgen/skillgen/internal/fsutil"
)

// Skill file names: the spec's, and the lower-case spelling some tools write.
const (
	SkillFile      = "SKILL.md"
	SkillFileLower = "skill.md"
)

// skill is one directory that holds a SKILL.md, loaded and validated.
type skill struct {
	name    string // directory name, which is the slug
	dir     string // as listed: <root>/<name>
	realDir string // symlinks resolved
	file    string // SkillFile or SkillFileLower, as found
	src     []byte
	meta    SkillMeta
	diags   []Diagnostic
	found   bool          // the directory holds a skill file
	entries []fs.DirEntry // the listing of realDir, reused by the walk
}

func (s *skill) valid() bool { return s.found && !HasErrors(s.diags) }

func (s *skill) path() string { return filepath.Join(s.dir, s.file) }

// firstError is the first error of an invalid skill, for the notification.
func (s *skill) firstError() Diagnostic {
	ds := append([]Diagnostic(nil), s.diags...)
	SortDiagnostics(ds)
	for _, d := range ds {
		if d.Severity == Error {
			return d
		}
	}
	return Diagnostic{}
}

// skillDir is a candidate skill directory under a root.
type skillDir struct {
	path string // <root>/<name>, as listed
	real string // symlinks resolved; "" until known (the entry is a symlink)
}

// listSkillDirs returns the skill directory candidates of a root: its
// subdirectories (symlinks to directories followed), dot-directories left
// out, in byte order of name. The root is resolved once, so a plain
// subdirectory's real path needs no further lookups.
func listSkillDirs(root string) ([]skillDir, error) {
	entries, err := os.ReadDir(root)
	if err != nil {
		return nil, err
	}
	realRoot, err := filepath.EvalSymlinks(root)
	if err == nil {
		realRoot, err = filepath.Abs(realRoot)
	}
	if err != nil {
		return nil, err
	}
	var dirs []skillDir
	for _, e := range entries {
		name := e.Name()
		if strings.HasPrefix(name, ".") {
			continue
		}
		d := skillDir{path: filepath.Join(root, name)}
		switch {
		case e.IsDir():
			d.real = filepath.Join(realRoot, name)
		case e.Type()&fs.ModeSymlink != 0:
			if info, err := os.Stat(d.path); err != nil || !info.IsDir() {
				continue
			}
		default:
			continue
		}
		dirs = append(dirs, d)
	}
	return dirs, nil
}

// loadSkill reads and validates the skill in dir. A directory without a
// skill file is not a skill: found stays false and nothing is reported.
func loadSkill(d skillDir) *skill {
	s := &skill{name: filepath.Base(d.path), dir: d.path}
	ds := &diags{skill: s.name}
	defer func() { s.diags = append(s.diags, ds.list...) }()

	real := d.real
	if real == "" {
		var err error
		real, err = filepath.EvalSymlinks(d.path)
		if err == nil {
			real, err = filepath.Abs(real)
		}
		if err != nil {
			return s
		}
	}
	s.realDir = real
	entries, err := os.ReadDir(real)
	if err != nil {
		return s
	}
	s.entries = entries
	var entry fs.DirEntry
	for _, name := range []string{SkillFile, SkillFileLower} {
		for _, e := range entries {
			if e.Name() == name {
				entry, s.file = e, name
				break
			}
		}
		if entry != nil {
			break
		}
	}
	if entry == nil {
		return s
	}
	s.found = true
	ds.file = s.path()
	if s.file == SkillFileLower {
		ds.warnf(CodeSkillMDLowercase, 0, 0, "the skill file is named %q; the spec names it %q", SkillFileLower, SkillFile)
	}
	osPath := filepath.Join(real, s.file)
	if entry.Type()&fs.ModeSymlink != 0 {
		linkDiags := &diags{file: ds.file, skill: s.name}
		f, ok := followFileLink(osPath, real, s.file, true, linkDiags)
		if !ok {
			for _, d := range linkDiags.list {
				d.Severity = Error
				ds.list = append(ds.list, d)
			}
			return s
		}
		osPath = f.Src
	}
	listed := entry.Type()
	if osPath != filepath.Join(real, s.file) {
		listed = ^fs.FileMode(0) // a symlink's target: type unknown
	}
	src, diag := readRegular(osPath, MaxSkillMDSize, s.name, listed)
	if diag != nil {
		diag.File = ds.file
		ds.list = append(ds.list, *diag)
		return s
	}
	if src == nil {
		ds.errorf(CodeReadFailed, 0, 0, "%s is a directory", s.file)
		return s
	}
	s.src = src
	s.meta = parseSkillMD(ds, s.name, src)
	return s
}

// findSkillsInPath classifies a validate PATH: a SKILL.md file, a skill
// directory, or a root of skill directories.
func findSkillsInPath(p string) (skills []*skill, err error) {
	info, err := os.Stat(p)
	if err != nil {
		return nil, err
	}
	if !info.IsDir() {
		return []*skill{loadSkillFile(p)}, nil
	}
	if s := loadSkill(skillDir{path: p}); s.found {
		return []*skill{s}, nil
	}
	dirs, err := listSkillDirs(p)
	if err != nil {
		return nil, err
	}
	skills = make([]*skill, len(dirs))
	fsutil.Parallel(len(dirs), func(i int) { skills[i] = loadSkill(dirs[i]) })
	found := skills[:0]
	for _, s := range skills {
		if s.found {
			found = append(found, s)
		}
	}
	return found, nil
}

// loadSkillFile validates one SKILL.md given by its path; its directory's
// name is the expected skill name.
func loadSkillFile(file string) *skill {
	abs, err := filepath.Abs(file)
	if err != nil {
		abs = file
	}
	dir := filepath.Dir(file)
	s := &skill{name: filepath.Base(filepath.Dir(abs)), dir: dir, file: filepath.Base(file), found: true}
	ds := &diags{file: file, skill: s.name}
	if s.file == SkillFileLower {
		ds.warnf(CodeSkillMDLowercase, 0, 0, "the skill file is named %q; the spec names it %q", SkillFileLower, SkillFile)
	}
	src, d := readRegular(file, MaxSkillMDSize, s.name, ^fs.FileMode(0))
	switch {
	case d != nil:
		ds.list = append(ds.list, *d)
	case src == nil:
		ds.errorf(CodeReadFailed, 0, 0, "is a directory")
	default:
		s.src = src
		s.meta = parseSkillMD(ds, s.name, src)
	}
	s.diags = ds.list
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		s.realDir, _ = filepath.Abs(real)
	}
	return s
}
