package compile

import (
	"fmt"
	"path/filepath"
	"strings"
)

// FormatDiagnostics prints diagnostics as the CLI does, with paths relative
// to dir, one per line.
func FormatDiagnostics(ds []Diagnostic, dir string) string {
	var b strings.Builder
	for _, d := range ds {
		fmt.Fprintf(&b, "%s:%d:%d: %s: %s [%s]\n", rel(dir, d.File), d.Line, d.Col, d.Severity, d.Message, d.Code)
	}
	return b.String()
}

func rel(dir, p string) string {
	if p == "" {
		return ""
	}
	if r, err := filepath.Rel(dir, p); err == nil && !strings.HasPrefix(r, "..") {
		return filepath.ToSlash(r)
	}
	return filepath.ToSlash(p)
}
