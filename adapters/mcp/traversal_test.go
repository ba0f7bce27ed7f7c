package mcp_test

import (
	"context"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	skillmcp "github.com/skillgen/skillgen/adapters/mcp"
)

// TestTraversal reads every traversal form through a client: each is
// "resource not found", the protocol's error for an unknown resource. The
// fixture registry exists in memory only, and the test runs in a directory
// that holds decoys at the paths the forms aim at, so a read that went to
// disk would find something.
func TestTraversal(t *testing.T) {
	dir := t.TempDir()
	for _, p := range []string{"etc/passwd", "odd-names/SKILL.md", "SKILL.md", "win.ini"} {
		if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, p), []byte("DECOY"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)

	cs := connect(t, fixtureRegistry(), nil, nil)
	for _, uri := range skillmcp.TraversalURIs {
		res, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: uri})
		if code := wireCode(err); code != -32602 {
			t.Errorf("read %q: %+v, error %v (code %d), want -32602 resource not found", uri, res, err, code)
		}
		if err != nil && strings.Contains(err.Error(), "DECOY") {
			t.Errorf("read %q reached a file on disk: %v", uri, err)
		}
	}
}

// TestNoOSAccess: the package reads nothing but Registry.FS. None of its
// files (tests aside) imports a package that reaches the operating
// system's files.
func TestNoOSAccess(t *testing.T) {
	forbidden := map[string]bool{"os": true, "os/exec": true, "path/filepath": true, "io/ioutil": true, "syscall": true, "unsafe": true, "plugin": true}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		ast, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		checked++
		for _, imp := range ast.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if forbidden[p] {
				t.Errorf("%s imports %s", f, p)
			}
		}
	}
	if checked == 0 {
		t.Fatal("no source files checked")
	}
}
