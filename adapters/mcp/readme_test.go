package mcp_test

import (
	"os"
	"strings"
	"testing"
)

// TestREADME: the README's program is Example's body, with the same
// imports, so that the code the README shows is the code go test runs.
func TestREADME(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, block, ok := strings.Cut(string(readme), "```go\npackage main\n")
	block, _, ok2 := strings.Cut(block, "```")
	if !ok || !ok2 {
		t.Fatal("README.md has no ```go block starting with package main")
	}
	example, err := os.ReadFile("example_test.go")
	if err != nil {
		t.Fatal(err)
	}
	between := func(s, from, to string) string {
		_, s, ok := strings.Cut(s, from)
		s, _, ok2 := strings.Cut(s, to)
		if !ok || !ok2 {
			t.Fatalf("no %q … %q in\n%s", from, to, s)
		}
		return s
	}
	if got, want := between(block, "import (", ")"), between(string(example), "import (", ")"); got != want {
		t.Errorf("README imports:\n%s\nexample_test.go imports:\n%s", got, want)
	}
	if got, want := between(block, "func main() {\n", "\n}\n"), between(string(example), "func Example() {\n", "\n\t// Output:"); got != want {
		t.Errorf("README program:\n%s\nExample:\n%s", got, want)
	}
}
