package compile

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillgen/skillgen/internal/casetest"
)

// TestValidateGolden runs every testdata/validate case: its files are a
// directory of skills (or the paths given by "args:"), validated as
// `skillgen validate` does; want/diagnostics holds every diagnostic with
// its position, want/results each skill's verdict.
func TestValidateGolden(t *testing.T) {
	for _, c := range casetest.Load(t, "../../testdata/validate/*.txtar") {
		t.Run(c.Name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			c.Materialize(t, dir)
			args := c.Args
			if len(args) == 0 {
				args = []string{"."}
			}
			var paths []string
			for _, a := range args {
				paths = append(paths, filepath.Join(dir, filepath.FromSlash(a)))
			}
			results, diags, missing := Validate(paths, false)
			c.Check(t, "diagnostics", FormatDiagnostics(diags, dir))
			var out strings.Builder
			for _, m := range missing {
				fmt.Fprintf(&out, "missing %s\n", rel(dir, m))
			}
			for _, r := range results {
				verdict := "valid"
				if !r.Valid {
					verdict = "invalid"
				}
				fmt.Fprintf(&out, "%s %s\n", r.Skill, verdict)
			}
			c.Check(t, "results", out.String())
			c.Save(t)
		})
	}
}
