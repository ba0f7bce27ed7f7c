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
		if c.format == "github" {
			c.githubCommand(d.Severity, d.File, d.Line, d.Col, d.Code, d.Message)
			continue
		}
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

// githubCommand prints one GitHub Actions workflow command on stdout:
// ::error, ::warning or ::notice (for info), with file, line, col and title
// as far as they are known, escaped as GitHub's runner unescapes them.
// The file is relative to the directory skillgen was started in, even
// under -C: GitHub resolves it against the repository's root, where a
// workflow's steps start.
func (c *cli) githubCommand(sev gen.Severity, file string, line, col int, title, message string) {
	cmd := "notice"
	switch sev {
	case gen.Error:
		cmd = "error"
	case gen.Warning:
		cmd = "warning"
	}
	var props []string
	if file != "" {
		props = append(props, "file="+githubProperty(c.startRel(file)))
	}
	if line > 0 {
		props = append(props, fmt.Sprintf("line=%d", line))
	}
	if col > 0 {
		props = append(props, fmt.Sprintf("col=%d", col))
	}
	if title != "" {
		props = append(props, "title="+githubProperty(title))
	}
	sep := ""
	if len(props) > 0 {
		sep = " "
	}
	fmt.Fprintf(c.stdout, "::%s%s%s::%s\n", cmd, sep, strings.Join(props, ","), githubData(message))
}

// githubData escapes a workflow command's message: the runner turns %25,
// %0D and %0A back into %, CR and LF.
var githubData = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace

// githubProperty escapes a property's value, where ':' and ',' end it too.
var githubProperty = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace

// startRel is rel against the directory skillgen was started in rather
// than -C's.
func (c *cli) startRel(p string) string {
	if !filepath.IsAbs(p) {
		p = filepath.Join(c.wd, p)
	}
	return (&cli{wd: c.startDir}).rel(p)
}
