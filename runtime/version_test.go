package runtime_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"strconv"
	"strings"
	"testing"

	"github.com/skillgen/skillgen/runtime"
)

func TestVersionRange(t *testing.T) {
	if !(runtime.MinVersion <= runtime.GenVersion && runtime.GenVersion <= runtime.MaxVersion) {
		t.Errorf("MinVersion %d <= GenVersion %d <= MaxVersion %d does not hold",
			runtime.MinVersion, runtime.GenVersion, runtime.MaxVersion)
	}
	// A runtime cannot serve generated code newer than its own generator's.
	if runtime.MaxVersion != runtime.GenVersion {
		t.Errorf("MaxVersion = %d, want GenVersion (%d)", runtime.MaxVersion, runtime.GenVersion)
	}
	if runtime.MinVersion < 1 {
		t.Errorf("MinVersion = %d, want >= 1", runtime.MinVersion)
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
		src := "package runtime\nconst G = " + strconv.Itoa(g) + "\nconst (\n" +
			"\t_ = EnforceVersion(G - MinVersion)\n" +
			"\t_ = EnforceVersion(MaxVersion - G)\n)\n"
		gf, err := parser.ParseFile(fset, "gen.go", src, 0)
		if err != nil {
			t.Fatal(err)
		}
		_, err = new(types.Config).Check("runtime", fset, []*ast.File{vf, gf}, nil)
		return err
	}
	for g := runtime.MinVersion; g <= runtime.MaxVersion; g++ {
		if err := check(g); err != nil {
			t.Errorf("generated version %d (in range) does not compile: %v", g, err)
		}
	}
	// Too old fails at the first line (G - MinVersion), too new at the
	// second (MaxVersion - G): the generated file's comment relies on it.
	for _, tt := range []struct {
		g    int
		line string
	}{{runtime.MinVersion - 1, "gen.go:4:"}, {runtime.MaxVersion + 1, "gen.go:5:"}} {
		err := check(tt.g)
		if err == nil || !strings.Contains(err.Error(), "overflows") || !strings.HasPrefix(err.Error(), tt.line) {
			t.Errorf("generated version %d (out of range): %v; want a constant overflow at %s", tt.g, err, tt.line)
		}
	}
}
