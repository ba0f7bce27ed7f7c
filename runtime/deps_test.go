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

// TestImports checks the rules of the runtime on the source of the
// package and its subpackages (the generated code's ABI): they import the
// standard library and each other only; no file but materialize.go may
// reach the filesystem (or the OS at all); and there is no init function.
func TestImports(t *testing.T) {
	var files []string
	for _, pattern := range []string{"*.go", "internal/*/*.go", "skillgenimpl/*.go"} {
		m, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	osOnly := map[string]bool{"os": true, "syscall": true, "io/ioutil": true, "os/exec": true,
		"os/signal": true, "net": true, "plugin": true, "unsafe": true, "embed": true}
	const self = "github.com/skillgen/skillgen/runtime"
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
			if first, _, _ := strings.Cut(p, "/"); strings.Contains(first, ".") && p != self && !strings.HasPrefix(p, self+"/") {
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
	if n < 10 {
		t.Errorf("found only %d source files", n)
	}
}
