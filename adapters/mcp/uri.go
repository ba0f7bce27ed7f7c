package mcp

import (
	"io/fs"
	"path"
	"strings"
)

// scheme starts every resource URI this package serves.
const scheme = "skill://"

// fileURI returns the URI of the skill file at name ("<slug>/<path>", as
// served by Registry.FS): "skill://" and name with every byte that is not
// an RFC 3986 unreserved character (A-Z a-z 0-9 - . _ ~) percent-encoded,
// upper-case hex, except the "/" between segments. One name has exactly
// one URI, on every machine: spaces, "#", "%", "?", "\", non-ASCII and
// control bytes are all escaped, so a name can never be read as a query,
// a fragment, another host or an escape sequence.
func fileURI(name string) string {
	return scheme + escapePath(name)
}

// escapePath percent-encodes every byte of p but unreserved characters and "/".
func escapePath(p string) string {
	n := 0
	for i := 0; i < len(p); i++ {
		if !unreserved(p[i]) && p[i] != '/' {
			n++
		}
	}
	if n == 0 {
		return p
	}
	const hex = "0123456789ABCDEF"
	b := make([]byte, 0, len(p)+2*n)
	for i := 0; i < len(p); i++ {
		c := p[i]
		if unreserved(c) || c == '/' {
			b = append(b, c)
		} else {
			b = append(b, '%', hex[c>>4], hex[c&15])
		}
	}
	return string(b)
}

func unreserved(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
		c == '-' || c == '.' || c == '_' || c == '~'
}

// parseURI returns the file name ("<slug>/<path>") that uri names, and
// false for anything but the one URI fileURI gives that name. The URI is
// decoded segment by segment, and refused when a segment decodes to "",
// "." or "..", when the result is not a valid fs.FS path, or when it is not
// in canonical form (so "%2e%2e", "%2E%2E", lower-case hex, "%2F", "%5C",
// a raw "\", "//", a query, a fragment, a port or user info never name a
// file). The caller reads the name from Registry.FS only: a name that got
// through still cannot leave the registry's files.
func parseURI(uri string) (name string, ok bool) {
	rest, ok := strings.CutPrefix(uri, scheme)
	if !ok {
		return "", false
	}
	segs := strings.Split(rest, "/")
	if len(segs) < 2 { // a slug and at least one path segment
		return "", false
	}
	for i, s := range segs {
		d, ok := unescape(s)
		if !ok || d == "" || d == "." || d == ".." || strings.Contains(d, "/") {
			return "", false
		}
		segs[i] = d
	}
	name = strings.Join(segs, "/")
	if !fs.ValidPath(name) || fileURI(name) != uri {
		return "", false
	}
	return name, true
}

// unescape decodes %XX escapes; a "%" not followed by two hex digits is an error.
func unescape(s string) (string, bool) {
	if !strings.Contains(s, "%") {
		return s, true
	}
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] != '%' {
			b = append(b, s[i])
			continue
		}
		if i+2 >= len(s) {
			return "", false
		}
		hi, ok1 := unhex(s[i+1])
		lo, ok2 := unhex(s[i+2])
		if !ok1 || !ok2 {
			return "", false
		}
		b = append(b, hi<<4|lo)
		i += 2
	}
	return string(b), true
}

func unhex(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// mimeTypes maps the lower-cased extension of a skill file to its MIME
// type. It is a fixed table, not mime.TypeByExtension, because that
// function also reads the machine's /etc/mime.types and similar files, which
// differ between machines (and can override its built-in entries): the same
// registry must list the same bytes everywhere. Types are the IANA-registered
// ones where there is one, else the common x- type.
var mimeTypes = map[string]string{
	".md":       "text/markdown",
	".markdown": "text/markdown",
	".mdx":      "text/markdown",
	".txt":      "text/plain",
	".text":     "text/plain",
	".rst":      "text/x-rst",
	".csv":      "text/csv",
	".tsv":      "text/tab-separated-values",
	".html":     "text/html",
	".htm":      "text/html",
	".css":      "text/css",
	".xml":      "application/xml",
	".xsd":      "application/xml",
	".json":     "application/json",
	".ipynb":    "application/x-ipynb+json",
	".yaml":     "application/yaml",
	".yml":      "application/yaml",
	".toml":     "application/toml",
	".js":       "text/javascript",
	".mjs":      "text/javascript",
	".cjs":      "text/javascript",
	".ts":       "text/x-typescript",
	".py":       "text/x-python",
	".sh":       "text/x-shellscript",
	".bash":     "text/x-shellscript",
	".ps1":      "text/x-powershell",
	".rb":       "text/x-ruby",
	".go":       "text/x-go",
	".java":     "text/x-java",
	".c":        "text/x-c",
	".h":        "text/x-c",
	".rs":       "text/x-rust",
	".sql":      "application/sql",
	".tex":      "application/x-tex",
	".pdf":      "application/pdf",
	".png":      "image/png",
	".jpg":      "image/jpeg",
	".jpeg":     "image/jpeg",
	".gif":      "image/gif",
	".webp":     "image/webp",
	".svg":      "image/svg+xml",
	".ico":      "image/vnd.microsoft.icon",
	".zip":      "application/zip",
	".gz":       "application/gzip",
	".tar":      "application/x-tar",
	".docx":     "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
	".xlsx":     "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
	".pptx":     "application/vnd.openxmlformats-officedocument.presentationml.presentation",
	".ttf":      "font/ttf",
	".otf":      "font/otf",
	".woff":     "font/woff",
	".woff2":    "font/woff2",
}

// mimeType returns the MIME type of the skill file at name, from its
// extension; "application/octet-stream" when the extension is not in the
// table.
func mimeType(name string) string {
	if t, ok := mimeTypes[strings.ToLower(path.Ext(name))]; ok {
		return t
	}
	return "application/octet-stream"
}
