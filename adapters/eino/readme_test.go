package eino_test

import (
	"os"
	"strings"
	"testing"
)

// TestReadmeIsExample checks that the README's program is Example's code
// and that it prints what Example's output says.
func TestReadmeIsExample(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	example, err := os.ReadFile("example_test.go")
	if err != nil {
		t.Fatal(err)
	}
	between := func(s, start, end string) string {
		t.Helper()
		_, after, ok := strings.Cut(s, start)
		if !ok {
			t.Fatalf("no %q", start)
		}
		text, _, ok := strings.Cut(after, end)
		if !ok {
			t.Fatalf("no %q after %q", end, start)
		}
		return text
	}
	program := between(string(readme), "\nfunc main() {\n", "\n}\n```\n")
	body := between(string(example), "\nfunc Example() {\n", "\n\t// Output:\n")
	if program != body {
		t.Errorf("the README's main differs from Example:\n%s\nwant:\n%s", program, body)
	}
	printed := between(string(readme), "\nIt prints\n\n```\n", "```\n")
	output := between(string(example), "\t// Output:\n", "}\n")
	output = strings.ReplaceAll(strings.ReplaceAll(output, "\t// ", ""), "\t//\n", "\n")
	if printed != output {
		t.Errorf("the README says it prints:\n%s\nExample's output is:\n%s", printed, output)
	}
}

// TestRootReadme: the repository's README shows the same program, and
// what it prints, as this module's README.
func TestRootReadme(t *testing.T) {
	own, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	root, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(own), "```go\npackage main\n")
	program, rest, ok2 := strings.Cut(rest, "```\n")
	_, rest, ok3 := strings.Cut(rest, "\nIt prints\n\n```\n")
	printed, _, ok4 := strings.Cut(rest, "```\n")
	if !ok || !ok2 || !ok3 || !ok4 {
		t.Fatal("README.md has no program and output")
	}
	if want := "```go\npackage main\n" + program + "```\n\nIt prints\n\n```\n" + printed + "```\n"; !strings.Contains(string(root), want) {
		t.Errorf("the repository's README does not show this program and its output as README.md does")
	}
}
