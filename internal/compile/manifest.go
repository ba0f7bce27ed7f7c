package compile

import (
	"errors"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/BurntSushi/toml"
)

// ManifestDir and ManifestName locate a project manifest:
// <root>/.insomnia/manifest.toml.
const (
	ManifestDir  = ".insomnia"
	ManifestName = "manifest.toml"
)

// Root is one skill directory listed by a manifest.
type Root struct {
	Dir      string // absolute and clean
	Written  string // the entry as the manifest wrote it
	Manifest string // the manifest that listed it first
	Line     int    // position of the entry in that manifest
	Col      int
}

// manifestFile is the part of the manifest skillgen reads. Other tables
// belong to the host and are ignored.
type manifestFile struct {
	Skills *struct {
		Directories []string `toml:"directories"`
	} `toml:"skills"`
}

// manifestBase is the directory a manifest's relative entries resolve
// against: the project root for <root>/.insomnia/manifest.toml, else the
// directory holding the file.
func manifestBase(file string) string {
	dir := filepath.Dir(file)
	if filepath.Base(dir) == ManifestDir {
		return filepath.Dir(dir)
	}
	return dir
}

// loadManifest reads one manifest and returns its skill directories in the
// order written, resolved and made absolute. home expands "~".
func loadManifest(file, home string, ds *diags) []Root {
	src, err := readManifest(file)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			ds.errorf(CodeManifestMissing, 0, 0, "manifest does not exist")
		} else {
			ds.errorf(CodeReadFailed, 0, 0, "cannot read manifest: %v", err)
		}
		return nil
	}
	if off, what := tomlTooDeep(src); off >= 0 {
		line, col := position(src, off)
		ds.errorf(CodeManifestInvalid, line, col, "invalid manifest: %s", what)
		return nil
	}
	var m manifestFile
	md, err := toml.Decode(string(src), &m)
	if err != nil {
		line, col, msg := tomlErrorPosition(src, err)
		ds.errorf(CodeManifestInvalid, line, col, "invalid manifest: %s", msg)
		return nil
	}
	for _, k := range md.Undecoded() {
		if len(k) >= 2 && k[0] == "skills" {
			line, col := findTableKey(src, k)
			ds.warnf(CodeUnknownField, line, col, "unknown key %q in [skills] is ignored", k.String())
		}
	}
	if m.Skills == nil {
		return nil
	}
	base := manifestBase(file)
	var roots []Root
	// Entries are looked for in order from the directories key on, so that
	// a string of the same text elsewhere is not taken for them.
	dirLine, _ := findTableKey(src, toml.Key{"skills", "directories"})
	from := lineOffset(src, dirLine)
	for _, entry := range m.Skills.Directories {
		line, col := 0, 0
		if i := indexString(src[from:], entry); i >= 0 {
			line, col = position(src, from+i)
			from += i + 1
		}
		if entry == "" {
			ds.errorf(CodeManifestInvalid, line, col, "invalid manifest: empty entry in [skills] directories")
			continue
		}
		dir := entry
		switch {
		case dir == "~" || strings.HasPrefix(dir, "~/") || strings.HasPrefix(dir, `~\`):
			if home == "" {
				ds.errorf(CodeManifestInvalid, line, col, "invalid manifest: cannot expand %q: no home directory", entry)
				continue
			}
			dir = filepath.Join(home, dir[1:])
		case strings.HasPrefix(dir, "~"):
			ds.errorf(CodeManifestInvalid, line, col, "invalid manifest: %q: only \"~\" and \"~/…\" are expanded", entry)
			continue
		case !filepath.IsAbs(dir):
			dir = filepath.Join(base, dir)
		}
		roots = append(roots, Root{
			Dir: filepath.Clean(dir), Written: entry, Manifest: file, Line: line, Col: col,
		})
	}
	return roots
}

// display returns the slash path that starts Source.Path for the skills of
// this root: relative to the workspace when inside it, else as written.
func (r Root) display(workspace string) string {
	if rel, err := filepath.Rel(workspace, r.Dir); err == nil && rel != ".." &&
		!strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel) {
		return filepath.ToSlash(rel)
	}
	w := filepath.ToSlash(r.Written)
	if t := strings.TrimRight(w, "/"); t != "" {
		w = t
	}
	return path.Clean(w)
}
