package mcp

import (
	"io/fs"
	"net/url"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestFileURI(t *testing.T) {
	for _, tc := range []struct{ name, uri string }{
		{"pdf/SKILL.md", "skill://pdf/SKILL.md"},
		{"pdf/references/FORMS.md", "skill://pdf/references/FORMS.md"},
		{"a-b/x y.md", "skill://a-b/x%20y.md"},
		{"s/#?%\\", "skill://s/%23%3F%25%5C"},
		{"s/é", "skill://s/%C3%A9"},
		{"s/~._-", "skill://s/~._-"},
		{"s/a:b@c", "skill://s/a%3Ab%40c"},
		{"s/%2e%2e", "skill://s/%252e%252e"},
		{"s/\x00\x7f", "skill://s/%00%7F"},
	} {
		if got := fileURI(tc.name); got != tc.uri {
			t.Errorf("fileURI(%q) = %q, want %q", tc.name, got, tc.uri)
		}
		if got, ok := parseURI(tc.uri); !ok || got != tc.name {
			t.Errorf("parseURI(%q) = %q, %v, want %q", tc.uri, got, ok, tc.name)
		}
	}
}

// traversalURIs are URIs that try to leave a skill, or to name a file in a
// form other than the one it was listed in. None may name a file.
var traversalURIs = []string{
	"skill://odd-names/../odd-names/SKILL.md",
	"skill://odd-names/notes/../SKILL.md",
	"skill://odd-names/..",
	"skill://../etc/passwd",
	"skill://odd-names/../../../../etc/passwd",
	"skill://odd-names/%2e%2e/odd-names/SKILL.md",
	"skill://odd-names/%2E%2E/odd-names/SKILL.md",
	"skill://odd-names/%2e%2E/%2E%2e/etc/passwd",
	"skill://odd-names/.%2e/SKILL.md",
	"skill://%2e%2e/etc/passwd",
	"skill://odd-names/notes/%2e%2e", // the file "notes/%2e%2e" is %252e%252e
	"skill://odd-names//SKILL.md",
	"skill://odd-names/notes//a%20file.md",
	"skill:///odd-names/SKILL.md",
	"skill:////etc/passwd",
	"skill://odd-names/SKILL.md/",
	"skill://odd-names/./SKILL.md",
	"skill://odd-names/%2E/SKILL.md",
	"skill://odd-names/.",
	"skill://./odd-names/SKILL.md",
	"skill://odd-names\\..\\..\\etc\\passwd",
	"skill://odd-names/..\\..\\etc\\passwd",
	"skill://odd-names/notes\\a file.md",
	"skill://odd-names/..%5c..%5cetc%5cpasswd",
	"skill://odd-names/..%5C..%5Cetc%5Cpasswd",
	"skill://odd-names/notes/back%5cslash.txt", // lower-case hex: not the listed form
	"skill://odd-names/notes%2Fa%20file.md",
	"skill://odd-names/notes%2fa%20file.md",
	"skill://odd-names%2FSKILL.md",
	"skill:///SKILL.md",
	"skill://",
	"skill:///",
	"skill://odd-names",
	"skill://odd-names/",
	"skill:///etc/passwd",
	"skill://odd-names/notes/a file.md", // unescaped space
	"skill://odd-names/notes/a+file.md",
	"skill://odd-names/notes/%23hash.md#frag",
	"skill://odd-names/SKILL.md?x=1",
	"skill://odd-names/SKILL.md#",
	"skill://odd-names:80/SKILL.md",
	"skill://user@odd-names/SKILL.md",
	"skill://ODD-NAMES/SKILL.md",
	"SKILL://odd-names/SKILL.md",
	"file:///etc/passwd",
	"file://odd-names/SKILL.md",
	"/etc/passwd",
	"odd-names/SKILL.md",
	"../odd-names/SKILL.md",
	"C:\\Windows\\win.ini",
	"https://example.com/SKILL.md",
	"skills://odd-names/SKILL.md",
	"skill:odd-names/SKILL.md",
	"skill:/odd-names/SKILL.md",
	"skill://odd-names/%",
	"skill://odd-names/%4",
	"skill://odd-names/%zz",
	"skill://odd-names/SKILL.md%00",
	"skill://odd-names/%00",
	"skill://odd-names/assets",
	"skill://odd-names/notes/%2e%2e%2f%2e%2e%2fSKILL.md",
	"skill://odd-names/notes/%252e%252e/../../SKILL.md",
	"",
}

// TestParseURIRefuses: parseURI turns none of the traversal forms into a
// file name, but for a few canonical names of files that do not exist
// (TestTraversal checks all of them again, end to end).
func TestParseURIRefuses(t *testing.T) {
	canonical := map[string]string{
		"skill://odd-names/assets":      "odd-names/assets", // a directory
		"skill://ODD-NAMES/SKILL.md":    "ODD-NAMES/SKILL.md",
		"skill://odd-names/SKILL.md%00": "odd-names/SKILL.md\x00",
		"skill://odd-names/%00":         "odd-names/\x00",
		// In an fs.FS a backslash is an ordinary byte: one (missing) file name.
		"skill://odd-names/..%5C..%5Cetc%5Cpasswd": `odd-names/..\..\etc\passwd`,
	}
	for _, uri := range traversalURIs {
		name, ok := parseURI(uri)
		if want, isCanonical := canonical[uri]; ok != isCanonical || name != want {
			t.Errorf("parseURI(%q) = %q, %v; want %q, %v", uri, name, ok, want, isCanonical)
		}
	}
}

func TestMIMEType(t *testing.T) {
	for name, want := range map[string]string{
		"s/SKILL.md":        "text/markdown",
		"s/README.MD":       "text/markdown",
		"s/a.markdown":      "text/markdown",
		"s/x.py":            "text/x-python",
		"s/x.sh":            "text/x-shellscript",
		"s/x.json":          "application/json",
		"s/x.yaml":          "application/yaml",
		"s/x.csv":           "text/csv",
		"s/x.txt":           "text/plain",
		"s/x.pdf":           "application/pdf",
		"s/x.png":           "image/png",
		"s/x.JPG":           "image/jpeg",
		"s/x.docx":          "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
		"s/Makefile":        "application/octet-stream",
		"s/x.unknownext":    "application/octet-stream",
		"s/.md":             "text/markdown",
		"s/dir.md/LICENSE":  "application/octet-stream",
		"s/archive.tar.gz":  "application/gzip",
		"s/trailing.dot.":   "application/octet-stream",
		"s/%2e%2e":          "application/octet-stream",
		"s/notes/日本語.md":    "text/markdown",
		"s/tab\there~_-.MD": "text/markdown",
	} {
		if got := mimeType(name); got != want {
			t.Errorf("mimeType(%q) = %q, want %q", name, got, want)
		}
	}
}

// FuzzParseURI: whatever parseURI accepts is a valid fs.FS name without
// "." or ".." elements whose fileURI is the input, and every valid name
// round-trips through fileURI and parseURI, agreeing with net/url.
func FuzzParseURI(f *testing.F) {
	for _, uri := range traversalURIs {
		f.Add(uri)
	}
	f.Add("skill://odd-names/notes/%E6%97%A5%E6%9C%AC%E8%AA%9E.md")
	f.Add("skill://a-b/x%20y.md")
	f.Add("odd-names/notes/#hash?.md")
	f.Fuzz(func(t *testing.T, s string) {
		if name, ok := parseURI(s); ok {
			if !fs.ValidPath(name) || !strings.Contains(name, "/") || fileURI(name) != s {
				t.Fatalf("parseURI(%q) = %q", s, name)
			}
			for _, e := range strings.Split(name, "/") {
				if e == "." || e == ".." || e == "" {
					t.Fatalf("parseURI(%q) = %q", s, name)
				}
			}
		}
		// s as a file name.
		if !fs.ValidPath(s) || !strings.Contains(s, "/") || !utf8.ValidString(s) {
			return
		}
		uri := fileURI(s)
		if got, ok := parseURI(uri); !ok || got != s {
			t.Fatalf("parseURI(fileURI(%q)) = %q, %v", s, got, ok)
		}
		slug, _, _ := strings.Cut(s, "/")
		if strings.Trim(slug, "abcdefghijklmnopqrstuvwxyz0123456789-") != "" {
			return // not a slug: net/url allows %-escapes in a host for non-ASCII bytes only
		}
		u, err := url.Parse(uri)
		if err != nil {
			t.Fatalf("url.Parse(%q): %v", uri, err)
		}
		if u.Scheme != "skill" || u.Host+u.Path != s || u.RawQuery != "" || u.Fragment != "" {
			t.Fatalf("url.Parse(%q) = %#v, want host+path %q", uri, u, s)
		}
	})
}
