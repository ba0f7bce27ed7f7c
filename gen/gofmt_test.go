package gen

import (
	"bytes"
	"go/format"
	"strconv"
	"strings"
	"testing"
)

// checkGofmt fails if gofmt would change src: users' CI runs gofmt -l over
// generated files too.
func checkGofmt(t *testing.T, src []byte) {
	t.Helper()
	formatted, err := format.Source(src)
	if err != nil {
		t.Fatalf("generated file does not parse: %v", err)
	}
	if !bytes.Equal(formatted, src) {
		t.Errorf("gofmt changes the generated file:\n%s", diffLines(string(src), string(formatted)))
	}
}

// diffLines shows the first line where a and b differ.
func diffLines(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := range min(len(al), len(bl)) {
		if al[i] != bl[i] {
			return "line " + strconv.Itoa(i+1) + ":\n- " + al[i] + "\n+ " + bl[i]
		}
	}
	return "lengths differ"
}
