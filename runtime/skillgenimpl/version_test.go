package skillgenimpl_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"strconv"
	"strings"
	"testing"

	"github.com/skillgen/skillgen/runtime/skillgenimpl"
)

func TestVersionRange(t *testing.T) {
	if !(skillgenimpl.MinVersion <= skillgenimpl.GenVersion && skillgenimpl.GenVersion <= skillgenimpl.MaxVersion) {
		t.Errorf("MinVersion %d <= GenVersion %d <= MaxVersion %d does not hold",
			skillgenimpl.MinVersion, skillgenimpl.GenVersion, skillgenimpl.MaxVersion)
	}
	// A runtime cannot serve generated code newer than its own generator's.
	if skillgenimpl.MaxVersion != skillgenimpl.GenVersion {
		t.Errorf("MaxVersion = %d, want GenVersion (%d)", skillgenimpl.MaxVersion, skillgenimpl.GenVersion)
	}
	if skillgenimpl.MinVersion < 1 {
		t.Errorf("MinVersion = %d, want >= 1", skillgenimpl.MinVersion)
	}
}

// TestVersionHandshake type-checks version.go together with the two lines
// that generated code declares, for versions inside and outside
// [MinVersion, MaxVersion]: inside compiles, outside is a constant overflow.
func TestVersionHandshake(t *testing.T) {
	check := func(g int) error {
		fset := token.NewFileSet()
		vf, err := parser.ParseFile(fset, "version.go", nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		src := "package skillgenimpl\nconst G = " + strconv.Itoa(g) + "\nconst (\n" +
			"\t_ = EnforceVersion(G - MinVersion)\n" +
			"\t_ = EnforceVersion(MaxVersion - G)\n)\n"
		gf, err := parser.ParseFile(fset, "gen.go", src, 0)
		if err != nil {
			t.Fatal(err)
		}
		_, err = new(types.Config).Check("skillgenimpl", fset, []*ast.File{vf, gf}, nil)
		return err
	}
	for g := skillgenimpl.MinVersion; g <= skillgenimpl.MaxVersion; g++ {
		if err := check(g); err != nil {
			t.Errorf("generated version %d (in range) does not compile: %v", g, err)
		}
	}
	// Too old fails at the first line (G - MinVersion), too new at the
	// second (MaxVersion - G): the generated file's comment relies on it.
	for _, tt := range []struct {
		g    int
		line string
	}{{skillgenimpl.MinVersion - 1, "gen.go:4:"}, {skillgenimpl.MaxVersion + 1, "gen.go:5:"}} {
		err := check(tt.g)
		if err == nil || !strings.Contains(err.Error(), "overflows") || !strings.HasPrefix(err.Error(), tt.line) {
			t.Errorf("generated version %d (out of range): %v; want a constant overflow at %s", tt.g, err, tt.line)
		}
	}
}

// TestLegacyHandshake type-checks the handshake of generated code of
// version 1, which named package runtime, against the names runtime keeps
// for it: it must fail on its first line, whose comment says to
// regenerate.
func TestLegacyHandshake(t *testing.T) {
	fset := token.NewFileSet()
	lf, err := parser.ParseFile(fset, "../legacy.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	src := "package runtime\nconst (\n" +
		"\t_ = EnforceVersion(1 - MinVersion)\n" +
		"\t_ = EnforceVersion(MaxVersion - 1)\n)\n"
	gf, err := parser.ParseFile(fset, "gen.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	_, err = new(types.Config).Check("runtime", fset, []*ast.File{lf, gf}, nil)
	if err == nil || !strings.Contains(err.Error(), "overflows") || !strings.HasPrefix(err.Error(), "gen.go:3:") {
		t.Errorf("generated code of version 1: %v; want a constant overflow at gen.go:3", err)
	}
}
