package main

import (
	"cmp"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/skillgen/skillgen/gen"
)

// summary is the one-line account of what a run compiled.
func summary(s gen.Summary) string {
	return fmt.Sprintf("%s, %s, %d shadowed, %d skipped, %s, %s, %s",
		count(s.Workflows, "workflow"), count(s.Skills, "skill"), s.Shadowed, s.Skipped,
		count(s.Files, "file"), count(s.Bytes, "byte"), catalogSummary(s.Catalog))
}

// catalogSummary is the catalog's size, in characters, and what its
// budget did: "catalog 611 characters", "catalog 7,994 characters (fitted
// to -catalog-budget 8000 from 51,234)".
func catalogSummary(c gen.Catalog) string {
	s := "catalog " + count(c.Size, "character")
	switch {
	case c.Trimmed():
		s += fmt.Sprintf(" (fitted to -catalog-budget %d from %d)", c.Budget, c.Full)
	case c.Budget > 0:
		s += fmt.Sprintf(" (within -catalog-budget %d)", c.Budget)
	}
	return s
}

// count is "1 skill", "2 skills".
func count[N int | int64](n N, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

func countErrors(ds []gen.Diagnostic) string {
	n := 0
	for _, d := range ds {
		if d.Severity == gen.Error {
			n++
		}
	}
	if n == 1 {
		return "1 error"
	}
	return fmt.Sprintf("%d errors", n)
}

// jsonDiagnostic is the -json line format (README.md, "Command line").
type jsonDiagnostic struct {
	Severity string `json:"severity"`
	Code     string `json:"code"`
	File     string `json:"file"`
	Line     int    `json:"line"`
	Col      int    `json:"col"`
	Skill    string `json:"skill"`
	Message  string `json:"message"`
}

func (c *cli) printDiagnostics(ds []gen.Diagnostic) {
	// Sorted by the path as printed: PATHs given in other spellings
	// ("./a", "/abs/a", "b/../a") must not scatter the output.
	files := make([]string, len(ds))
	order := make([]int, len(ds))
	for i, d := range ds {
		files[i], order[i] = c.rel(d.File), i
	}
	slices.SortStableFunc(order, func(i, j int) int {
		return cmp.Or(strings.Compare(files[i], files[j]), cmp.Compare(ds[i].Line, ds[j].Line), cmp.Compare(ds[i].Col, ds[j].Col))
	})
	// JSON diagnostics go to stdout, except where stdout carries the
	// command's own output (list's rows, prompt's text).
	out := c.stdout
	if c.cmd == "list" || c.cmd == "prompt" {
		out = c.stderr
	}
	enc := json.NewEncoder(out)
	for _, i := range order {
		d, file := ds[i], files[i]
		if c.json {
			enc.Encode(jsonDiagnostic{d.Severity.String(), d.Code, file, d.Line, d.Col, d.Skill, d.Message})
			continue
		}
		if file == "" {
			file = "skillgen"
		}
		fmt.Fprintf(c.stderr, "%s:%d:%d: %s: %s [%s]\n", file, d.Line, d.Col, d.Severity, d.Message, d.Code)
	}
}

// rel makes a path relative to the working directory when it is below it,
// else absolute; always slash-separated.
func (c *cli) rel(p string) string {
	if p == "" {
		return ""
	}
	abs := p
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(c.wd, p)
	}
	if r, err := filepath.Rel(c.wd, abs); err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return filepath.ToSlash(r)
	}
	return filepath.ToSlash(abs)
}
