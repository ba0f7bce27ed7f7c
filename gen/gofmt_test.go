package gen

import (
	"bytes"
	"go/format"
	"strconv"
	"strings"
	"testing"
)

// checkGofmt fails if gofmt would change src: the data part of the
// generated file is written without go/format (rows.go), and users' CI runs
// gofmt -l over generated files too.
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

// TestRowsAreGofmt: the row serializer's shapes, including strings that
// need escaping and every optional field, are a gofmt fixed point.
func TestRowsAreGofmt(t *testing.T) {
	var r rows
	r.b = []byte("package p\n\nimport \"example.com/runtime\"\n")
	r.decl("One workflow per line.")
	r.beginSlice("workflows", "runtime.Workflow")
	r.row()
	r.str("Slug", "a-b")
	r.str("Description", "tab\there \"quoted\" \u2028 line\nnext é 日本 \x00 \xff")
	r.flag("ModelInvocation", true)
	r.flag("UserInvocable", false)
	r.key("Requires")
	r.open("[]string")
	r.quoted("x")
	r.quoted("y-z")
	r.close()
	r.raw("Body", "blob0123456789abcdef[12:]")
	r.key("Source")
	r.open("runtime.Source")
	r.raw("Kind", "runtime.KindSkill")
	r.str("Path", "~/skills/a b/SKILL.md")
	r.close()
	r.key("Metadata")
	r.open("[]runtime.Meta")
	for _, kv := range [][2]string{{"k", "1.0"}, {"z", ""}} {
		r.key("")
		r.open("")
		r.str("Key", kv[0])
		r.str("Value", kv[1])
		r.close()
	}
	r.close()
	r.endRow()
	r.row() // an element with no fields at all
	r.endRow()
	r.endSlice()
	r.decl("")
	r.beginSlice("files_a_b", "runtime.File")
	r.row()
	r.str("Path", "con.md")
	r.raw("Mode", "0o755")
	r.int("Size", 0)
	r.str("SHA256", "00")
	r.endRow()
	r.endSlice()
	r.decl("")
	r.b = append(r.b, "const resident = \"x\\n\"\n"...)
	r.decl("")
	r.b = append(r.b, "//go:embed skills_data/00\nvar blob00 string\n"...)
	checkGofmt(t, r.b)
}
