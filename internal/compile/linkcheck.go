package compile

import (
	"bytes"
	"fmt"
	"html"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// The link-broken check. A skill's body is served to the model, which then
// asks for the files it links to; a link to a file the skill does not carry
// is a request that must fail. Every link and image target of a body
// (links.go finds them) is checked, except:
//
//   - URLs with a scheme (http:, https:, file:, mailto:, tel:, any
//     "letter [letters digits + - .]* :" prefix), "//host" URLs, "#anchors"
//     and absolute paths ("/x"): they name nothing in the skill;
//   - empty targets, and targets that are only a "?query" or "#fragment".
//
// A target is read as CommonMark reads it (backslash escapes and entity
// references decoded), its "?query" and "#fragment" cut off, and its
// %XX escapes decoded. A leading "{baseDir}" or "${CLAUDE_SKILL_DIR}"
// stands for the skill directory, as hosts substitute it.
//
// In a skill, the path, relative to the skill directory, must stay inside
// it and name one of the files the walk found (the files the generated
// package carries: so a dot-file is not one unless -hidden is given), or a
// directory with such a file below it; matching is exact, as the embedded
// file system's is. An in-house Workflow has no directory of its own: its
// relative links are resolved against the directory of its file on disk,
// and must name an existing file or directory inside the workspace, where
// the agent reads them; "{baseDir}" has no meaning there.
//
// generate checks the skills it ingests and every in-house Workflow;
// validate checks every skill whose frontmatter parses (its body starts
// where that ends). A broken link is a warning, under -strict too: it
// skips nothing.

// Placeholders hosts replace with the skill directory.
var skillDirPlaceholders = []string{"{baseDir}", "${CLAUDE_SKILL_DIR}"}

// linkPath returns the path a link target names, slash-separated and
// cleaned (it may start with "../"), and whether it was written relative
// to the skill directory placeholder. ok is false for a target that names
// no local file: a URL, an anchor, an absolute path, an empty target.
func linkPath(raw []byte) (p string, skillDir, ok bool) {
	t := unescapeTarget(raw)
	if i := bytes.IndexAny(t, "?#"); i >= 0 {
		t = t[:i]
	}
	for _, ph := range skillDirPlaceholders {
		if rest, found := bytes.CutPrefix(t, []byte(ph)); found && (len(rest) == 0 || rest[0] == '/') {
			t, skillDir = bytes.TrimLeft(rest, "/"), true
			if len(t) == 0 {
				return ".", true, true
			}
			break
		}
	}
	if len(t) == 0 || t[0] == '/' || hasScheme(t) {
		return "", false, false
	}
	t = percentDecode(t)
	if len(t) == 0 || t[0] == '/' {
		return "", false, false
	}
	return path.Clean(string(t)), skillDir, true
}

// hasScheme reports whether t starts with a URI scheme and ":".
func hasScheme(t []byte) bool {
	for i, c := range t {
		switch {
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		case i > 0 && (c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.'):
		case i > 0 && c == ':':
			return true
		default:
			return false
		}
	}
	return false
}

// unescapeTarget decodes the backslash escapes and entity references of a
// link target as CommonMark does. It returns raw itself when there is
// nothing to decode.
func unescapeTarget(raw []byte) []byte {
	if bytes.IndexByte(raw, '\\') < 0 && bytes.IndexByte(raw, '&') < 0 {
		return raw
	}
	out := make([]byte, 0, len(raw))
	for i := 0; i < len(raw); i++ {
		switch c := raw[i]; {
		case c == '\\' && i+1 < len(raw) && isPunct(raw[i+1]):
			i++
			out = append(out, raw[i])
		case c == '&':
			// Only a reference closed by ";" is one (html alone would also
			// decode "&copy" without it, as browsers do).
			if j := bytes.IndexByte(raw[i:min(i+40, len(raw))], ';'); j > 1 {
				ref := string(raw[i : i+j+1])
				if dec := html.UnescapeString(ref); dec != ref {
					out = append(out, dec...)
					i += j
					break
				}
			}
			out = append(out, c)
		default:
			out = append(out, c)
		}
	}
	return out
}

// percentDecode decodes %XX escapes; a "%" not followed by two hex digits
// is kept as it is, as browsers do.
func percentDecode(t []byte) []byte {
	if bytes.IndexByte(t, '%') < 0 {
		return t
	}
	out := make([]byte, 0, len(t))
	for i := 0; i < len(t); i++ {
		if t[i] == '%' && i+2 < len(t) && isHex(t[i+1]) && isHex(t[i+2]) {
			out = append(out, unhex(t[i+1])<<4|unhex(t[i+2]))
			i += 2
			continue
		}
		out = append(out, t[i])
	}
	return out
}

func isHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

func unhex(c byte) byte {
	switch {
	case c >= 'a':
		return c - 'a' + 10
	case c >= 'A':
		return c - 'A' + 10
	}
	return c - '0'
}

// bodyPositions converts offsets in a file, given in increasing order, to
// 1-based lines and byte columns, counting each byte once.
type bodyPositions struct {
	src       []byte
	off       int // offset reached
	line      int // its line
	lineStart int // the offset its line starts at
}

func (b *bodyPositions) at(off int) (line, col int) {
	if b.line == 0 {
		b.line = 1
	}
	seg := b.src[b.off:off]
	if n := bytes.Count(seg, []byte{'\n'}); n > 0 {
		b.line += n
		b.lineStart = b.off + bytes.LastIndexByte(seg, '\n') + 1
	}
	b.off = off
	return b.line, off - b.lineStart + 1
}

// skillLinks returns the link-broken warnings of a skill's body. files are
// the files the walk found, walked the walk's diagnostics: they tell a
// file that exists but was left out from one that does not exist.
func skillLinks(s *skill, files []File, walked []Diagnostic) []Diagnostic {
	start := s.meta.BodyStart
	if s.src == nil || start <= 0 || start > len(s.src) {
		return nil // the body could not be located
	}
	body := s.src[start:]
	links := scanLinks(body)
	if len(links) == 0 {
		return nil
	}
	var paths []string // the files' paths, sorted: made on first need
	ds := &diags{file: s.path(), skill: s.name}
	pos := bodyPositions{src: s.src}
	for _, l := range links {
		raw := body[l.start:l.end]
		p, _, ok := linkPath(raw)
		if !ok || p == "." {
			continue
		}
		var msg string
		switch {
		case p == ".." || strings.HasPrefix(p, "../"):
			msg = fmt.Sprintf("link target %q leaves the skill directory%s", raw, resolved(raw, p))
		default:
			if paths == nil {
				paths = make([]string, len(files))
				for i, f := range files {
					paths[i] = f.Path
				}
				slices.Sort(paths)
			}
			i, found := slices.BinarySearch(paths, p)
			if found || i < len(paths) && strings.HasPrefix(paths[i], p+"/") {
				continue // a file, or a directory holding one
			}
			switch d, what, ok := leftOut(s, p, walked); {
			case !ok:
				msg = fmt.Sprintf("link target %q names no file of the skill%s", raw, resolved(raw, p))
			case d.Severity == Info:
				msg = fmt.Sprintf("link target %q names a hidden %s that exists but is left out (-hidden includes it)", raw, what)
			default:
				msg = fmt.Sprintf("link target %q names a %s that exists but is left out (see its %s warning)", raw, what, d.Code)
			}
		}
		line, col := pos.at(start + l.start)
		ds.warnf(CodeLinkBroken, line, col, "%s", msg)
	}
	return ds.list
}

// resolved says what path a target names, when that is not plain from how
// it is written.
func resolved(raw []byte, p string) string {
	if path.Clean(string(raw)) == p {
		return ""
	}
	return fmt.Sprintf(" (it names %q)", p)
}

// leftOut returns the walk's diagnostic about p or a directory above it,
// provided p exists on disk: the walk found it and left it out. what says
// what p is ("file", "directory", "symlink", ...).
func leftOut(s *skill, p string, walked []Diagnostic) (d Diagnostic, what string, ok bool) {
	for _, d := range walked {
		if d.Code != CodeFileSkipped && d.Code != CodeSymlinkEscape {
			continue
		}
		rel, err := filepath.Rel(s.dir, d.File)
		if err != nil {
			continue
		}
		rel = filepath.ToSlash(rel)
		if rel != p && !strings.HasPrefix(p, rel+"/") {
			continue
		}
		if info, err := os.Lstat(filepath.Join(s.realDir, filepath.FromSlash(p))); err == nil {
			return d, kindWord(info.Mode().Type()), true
		}
	}
	return Diagnostic{}, "", false
}

// workflowLinks returns the link-broken warnings of an in-house Workflow
// whose file (src, its body at bodyStart) lies in workspace.
func workflowLinks(file, workspace string, src []byte, bodyStart int) []Diagnostic {
	if bodyStart <= 0 || bodyStart > len(src) {
		return nil
	}
	body := src[bodyStart:]
	links := scanLinks(body)
	if len(links) == 0 {
		return nil
	}
	ds := &diags{file: file}
	pos := bodyPositions{src: src}
	for _, l := range links {
		raw := body[l.start:l.end]
		p, skillDir, ok := linkPath(raw)
		if !ok {
			continue
		}
		var msg string
		target := filepath.Join(filepath.Dir(file), filepath.FromSlash(p))
		rel, err := filepath.Rel(workspace, target)
		switch {
		case skillDir:
			msg = fmt.Sprintf("link target %q names the skill directory, which an in-house workflow does not have", raw)
		case err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)):
			msg = fmt.Sprintf("link target %q leaves the workspace", raw)
		default:
			if _, err := os.Stat(target); err == nil {
				continue
			}
			msg = fmt.Sprintf("link target %q names no file of the workspace (it resolves to %q)", raw, filepath.ToSlash(rel))
		}
		line, col := pos.at(bodyStart + l.start)
		ds.warnf(CodeLinkBroken, line, col, "%s", msg)
	}
	return ds.list
}
