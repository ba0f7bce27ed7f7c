package compile

import (
	"bytes"
	"errors"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
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

var tomlErrLine = regexp.MustCompile(`^toml: line (\d+)(?: \(last key "([^"]*)"\))?: (.*)$`)

// loadManifest reads one manifest and returns its skill directories in the
// order written, resolved and made absolute. home expands "~".
func loadManifest(file, home string, ds *diags) []Root {
	src, err := os.ReadFile(file)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			ds.errorf(CodeManifestMissing, 0, 0, "manifest does not exist")
		} else {
			ds.errorf(CodeReadFailed, 0, 0, "cannot read manifest: %v", err)
		}
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
			line, col := findKey(src, k[len(k)-1])
			ds.warnf(CodeUnknownField, line, col, "unknown key %q in [skills] is ignored", k.String())
		}
	}
	if m.Skills == nil {
		return nil
	}
	base := manifestBase(file)
	var roots []Root
	for _, entry := range m.Skills.Directories {
		line, col := findString(src, entry)
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

// tomlErrorPosition extracts a position from a toml error: syntax errors
// carry one; decode errors name the line and the last key.
func tomlErrorPosition(src []byte, err error) (line, col int, msg string) {
	var pe toml.ParseError
	if errors.As(err, &pe) {
		return pe.Position.Line, max(pe.Position.Col, 1), pe.Message
	}
	msg = err.Error()
	if m := tomlErrLine.FindStringSubmatch(msg); m != nil {
		line, _ = strconv.Atoi(m[1])
		col = 1
		if key := m[2]; key != "" {
			keyName := key[strings.LastIndexByte(key, '.')+1:]
			if l, c := findKey(src, keyName); l == line {
				col = c
			}
			return line, col, m[3] + " (key " + strconv.Quote(key) + ")"
		}
		return line, col, m[3]
	}
	return 0, 0, strings.TrimPrefix(msg, "toml: ")
}

// findKey returns the position of the first line that assigns key, or 0, 0.
// TOML keys carry no positions in the decoder's metadata; this is good
// enough for the keys skillgen reports on.
func findKey(src []byte, key string) (line, col int) {
	for i, l := range bytes.Split(src, []byte{'\n'}) {
		t := bytes.TrimLeft(l, " \t")
		for _, k := range []string{key, strconv.Quote(key), "'" + key + "'", "skills." + key} {
			if rest, ok := bytes.CutPrefix(t, []byte(k)); ok {
				if r := bytes.TrimLeft(rest, " \t"); len(r) > 0 && r[0] == '=' {
					return i + 1, len(l) - len(t) + 1
				}
			}
		}
	}
	return 0, 0
}

// findString returns the position of the first TOML string literal that
// holds s, or 0, 0.
func findString(src []byte, s string) (line, col int) {
	for _, lit := range []string{strconv.Quote(s), "'" + s + "'"} {
		if i := bytes.Index(src, []byte(lit)); i >= 0 {
			return position(src, i)
		}
	}
	return 0, 0
}
