package runtime_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestImports checks DESIGN §5's rules on the package's own source: it
// imports the standard library only; no file but materialize.go may reach
// the filesystem (or the OS at all); and there is no init function.
func TestImports(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	osOnly := map[string]bool{"os": true, "syscall": true, "io/ioutil": true, "os/exec": true,
		"os/signal": true, "net": true, "plugin": true, "unsafe": true, "embed": true}
	n := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		n++
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if first, _, _ := strings.Cut(p, "/"); strings.Contains(first, ".") {
				t.Errorf("%s imports %s: runtime is standard library only", name, p)
			}
			if osOnly[p] && name != "materialize.go" {
				t.Errorf("%s imports %s: only Materialize may touch the filesystem", name, p)
			}
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.Name == "init" {
				t.Errorf("%s has an init function", name)
			}
		}
	}
	if n < 5 {
		t.Errorf("found only %d source files", n)
	}
}
