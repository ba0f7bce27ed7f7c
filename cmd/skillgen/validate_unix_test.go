//go:build unix

package main

import (
	"testing"

	"github.com/skillgen/skillgen/internal/casetest"
)

// TestValidateMalformed validates the malformed skills of testdata/cli/*.txtar
// (a FIFO among them, hence unix only): no panic (the harness fails on
// one), no hang, exit 1, and want/stderr holds every diagnostic
// (`go test -update` rewrites it).
func TestValidateMalformed(t *testing.T) {
	for _, c := range casetest.Load(t, "../../testdata/cli/*.txtar") {
		t.Run(c.Name, func(t *testing.T) {
			dir := tempDir(t)
			c.Materialize(t, dir)
			args := c.Args
			if len(args) == 0 {
				args = []string{"."}
			}
			r := skillgen(t, dir, nil, append([]string{"validate"}, args...)...)
			wantCode(t, r, 1)
			c.Check(t, "stderr", r.stderr)
			// Every diagnostic is well-formed, and -json says the same.
			rj := skillgen(t, dir, nil, append([]string{"validate", "-json"}, args...)...)
			wantCode(t, rj, 1)
			var fromJSON []string
			for _, m := range jsonLines(t, rj.stdout) {
				fromJSON = append(fromJSON, parseDiag(t, m).text())
			}
			textLines := r.stderrLines()
			wantLines(t, "-json vs text", fromJSON, textLines[:len(textLines)-1])
			c.Save(t)
		})
	}
}
