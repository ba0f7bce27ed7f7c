package mcp

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestFrontmatterJSON(t *testing.T) {
	for _, tc := range []struct {
		name, src, want string // want: JSON, or "error"
	}{
		{"plain", "---\nname: a\ndescription: b\n---\nbody", `{"description":"b","name":"a"}`},
		{"crlf and bom", "\ufeff---\r\nname: a\r\ndescription: b\r\n--- \r\nbody", `{"description":"b","name":"a"}`},
		{"no body", "---\nname: a\n---", `{"name":"a"}`},
		{"empty", "---\n---\nbody", `{}`},
		{"folded", "---\ndescription: >\n  one\n  two\n---\n", `{"description":"one two\n"}`},
		{"scalars", "---\ni: 42\nneg: -7\nhex: 0x1F\nf: 1.0\ng: 2.5e3\nt: true\nn: ~\nnull2: null\ns: '42'\nyes: yes\n---\n",
			`{"f":1,"g":2500,"hex":31,"i":42,"n":null,"neg":-7,"null2":null,"s":"42","t":true,"yes":"yes"}`},
		{"no JSON type", "---\nday: 2024-01-02\nat: 2001-12-14t21:59:43.10-05:00\ninf: .inf\nnan: .NaN\nbin: !!binary aGk=\ncustom: !thing x\n---\n",
			`{"at":"2001-12-14t21:59:43.10-05:00","bin":"aGk=","custom":"x","day":"2024-01-02","inf":".inf","nan":".NaN"}`},
		{"nested", "---\nmetadata:\n  version: \"1.0\"\n  list: [a, 1, {k: v}]\n---\n", `{"metadata":{"list":["a",1,{"k":"v"}],"version":"1.0"}}`},
		{"aliases", "---\nbase: &b {x: 1}\ncopy: *b\n---\n", `{"base":{"x":1},"copy":{"x":1}}`},
		{"duplicate key keeps the first", "---\nname: first\nname: second\n---\n", `{"name":"first"}`},
		{"non-scalar key", "---\n? [a, b]\n: v\n---\n", `{"[a, b]":"v"}`},
		{"numeric key", "---\n1: one\n---\n", `{"1":"one"}`},
		{"no frontmatter", "# Title\n", "error"},
		{"unclosed", "---\nname: a\n", "error"},
		{"not a mapping", "---\n- a\n---\n", "error"},
		{"bad YAML", "---\nname: [\n---\n", "error"},
		{"billion laughs", "---\n" + laughs(9) + "---\n", "error"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := frontmatterJSON([]byte(tc.src))
			if tc.want == "error" {
				if err == nil {
					t.Fatalf("%v, want an error", m)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			b, err := json.Marshal(m)
			if err != nil {
				t.Fatal(err)
			}
			if string(b) != tc.want {
				t.Errorf("%s\nwant %s", b, tc.want)
			}
		})
	}
}

// laughs returns n levels of aliases, each ten times the last.
func laughs(n int) string {
	var b strings.Builder
	b.WriteString("l0: &l0 [lol]\n")
	for i := 1; i <= n; i++ {
		b.WriteString("l" + string(rune('0'+i)) + ": &l" + string(rune('0'+i)) + " [")
		for j := range 10 {
			if j > 0 {
				b.WriteString(", ")
			}
			b.WriteString("*l" + string(rune('0'+i-1)))
		}
		b.WriteString("]\n")
	}
	return b.String()
}

// FuzzFrontmatterJSON: frontmatterJSON never panics, and what it returns
// always marshals as JSON.
func FuzzFrontmatterJSON(f *testing.F) {
	f.Add("---\nname: a\ndescription: b\n---\nbody")
	f.Add("---\nmetadata: {version: 1.0, when: 2024-01-02}\nx: &a [*a]\n---\n")
	f.Add("\ufeff---\r\n? {a: b}\r\n: [.inf, .nan, !!binary aGk=]\r\n---\r\n")
	f.Fuzz(func(t *testing.T, src string) {
		m, err := frontmatterJSON([]byte(src))
		if err != nil {
			return
		}
		if _, err := json.Marshal(m); err != nil {
			t.Fatalf("frontmatterJSON(%q) = %#v, which does not marshal: %v", src, m, err)
		}
	})
}
