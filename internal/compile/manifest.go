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

// tomlErrorPosition extracts a position from a toml error: syntax errors
// carry one; decode errors name the line and the last key.
func tomlErrorPosition(src []byte, err error) (line, col int, msg string) {
	var pe toml.ParseError
	if errors.As(err, &pe) {
		line, col := tomlPos(src, pe.Position)
		return line, col, pe.Message
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
			// The decoder's message names Go types; for the keys skillgen
			// reads, say what the manifest must hold instead.
			switch key {
			case "skills":
				return line, col, "skills must be a table: [skills] directories = [...]"
			case "skills.directories":
				return line, col, "directories in [skills] must be a list of strings"
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

// indexString returns the offset of the first TOML string literal that
// holds s, or -1.
func indexString(src []byte, s string) int {
	first := -1
	for _, lit := range []string{strconv.Quote(s), "'" + s + "'"} {
		if i := bytes.Index(src, []byte(lit)); i >= 0 && (first < 0 || i < first) {
			first = i
		}
	}
	return first
}

// findTableKey returns the position of the key path k (such as skills,
// recursive) where the manifest defines it: an assignment inside the
// section of its table ([skills] recursive = …), a dotted assignment
// (skills.recursive = … at the top level), or a table header
// ([skills.recursive]). A key of the same name in another table is not it.
// Without a match it falls back to findKey.
func findTableKey(src []byte, k toml.Key) (line, col int) {
	full := strings.Join(k, ".")
	table := ""
	for i, l := range bytes.Split(src, []byte{'\n'}) {
		t := bytes.TrimLeft(l, " \t")
		c := len(l) - len(t) + 1
		if len(t) > 0 && t[0] == '[' {
			h := bytes.TrimLeft(t, "[")
			if end := bytes.IndexByte(h, ']'); end >= 0 {
				table = normKey(h[:end])
			}
			if table == full {
				return i + 1, c
			}
			continue
		}
		eq := bytes.IndexByte(t, '=')
		if eq < 0 {
			continue
		}
		key := normKey(t[:eq])
		if table != "" {
			key = table + "." + key
		}
		if key == full {
			return i + 1, c
		}
	}
	return findKey(src, k[len(k)-1])
}

// normKey writes a TOML key without quotes and the blanks around its dots.
func normKey(b []byte) string {
	return strings.NewReplacer(" ", "", "\t", "", `"`, "", "'", "").Replace(string(b))
}

// lineOffset returns the byte offset of the 1-based line in src (0 for 0).
func lineOffset(src []byte, line int) int {
	off := 0
	for l := 1; l < line; l++ {
		i := bytes.IndexByte(src[off:], '\n')
		if i < 0 {
			return len(src)
		}
		off += i + 1
	}
	return off
}
