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
