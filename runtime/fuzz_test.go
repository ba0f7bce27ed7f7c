package runtime_test

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/skillgen/skillgen/runtime"
)

// FuzzInvoke checks Invoke's line parsing against its documented rule for any input:
// it never panics; without a leading "/" it is ErrNotInvocation; otherwise
// the slug runs up to the first white space, the white space after it is
// dropped, and the answer agrees with Lookup. Seeds are committed under
// testdata/fuzz/FuzzInvoke.
func FuzzInvoke(f *testing.F) {
	for _, s := range []string{"/a", "/a-b x", "/deploy now", "/pdf-tools\u3000x", "x", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, input string) {
		w, args, err := Registry.Invoke(input)

		if !strings.HasPrefix(input, "/") {
			if err != runtime.ErrNotInvocation || w != nil || args != "" {
				t.Fatalf("Invoke(%q) = %v, %q, %v; want ErrNotInvocation", input, w, args, err)
			}
			return
		}

		// The slug as Invoke's documentation defines it, computed independently.
		rest := input[1:]
		slug := rest
		if i := strings.IndexFunc(rest, unicode.IsSpace); i >= 0 {
			slug = rest[:i]
		}
		want, found := Registry.Lookup(slug)

		switch err {
		case nil, runtime.ErrNotUserInvocable:
			if w == nil {
				t.Fatalf("Invoke(%q) = nil workflow with %v", input, err)
			}
			if !found || w != want {
				t.Fatalf("Invoke(%q) = %q, but Lookup(%q) = %v, %v", input, w.Slug, slug, want, found)
			}
			if (err == nil) != w.UserInvocable {
				t.Fatalf("Invoke(%q) error %v for UserInvocable=%v", input, err, w.UserInvocable)
			}
			// The slug is a prefix of input[1:], followed by white space or the end.
			if !strings.HasPrefix(rest, w.Slug) {
				t.Fatalf("Invoke(%q): slug %q is not a prefix of the input", input, w.Slug)
			}
			after := rest[len(w.Slug):]
			if after != "" {
				r, _ := utf8.DecodeRuneInString(after)
				if !unicode.IsSpace(r) {
					t.Fatalf("Invoke(%q): slug %q followed by %q, not white space", input, w.Slug, r)
				}
			}
			// The args are the input's tail, with the white space before
			// them dropped, and never start with white space.
			if !strings.HasSuffix(after, args) {
				t.Fatalf("Invoke(%q): args %q are not the input's tail", input, args)
			}
			if gap := after[:len(after)-len(args)]; strings.TrimFunc(gap, unicode.IsSpace) != "" {
				t.Fatalf("Invoke(%q): dropped %q before the args, not only white space", input, gap)
			}
			if r, _ := utf8.DecodeRuneInString(args); args != "" && unicode.IsSpace(r) {
				t.Fatalf("Invoke(%q): args %q start with white space", input, args)
			}
		case runtime.ErrNotFound:
			if w != nil || args != "" {
				t.Fatalf("Invoke(%q) = %v, %q with ErrNotFound", input, w, args)
			}
			if found {
				t.Fatalf("Invoke(%q) = ErrNotFound, but Lookup(%q) finds it", input, slug)
			}
		default:
			t.Fatalf("Invoke(%q): unexpected error %v", input, err)
		}
	})
}

// placeholder matches what Expand substitutes, for FuzzExpand's oracle.
var placeholder = regexp.MustCompile(`\$ARGUMENTS\[([0-9]+)\]|\$ARGUMENTS|\$([0-9]+)`)

// FuzzExpand checks Expand against an independent oracle (a regular
// expression over the body, and strings.FieldsFunc for the words of
// arguments without quotes), and for any input that it never panics, that
// a body without placeholders comes back whole, and that the words of
// quoted arguments are what the quotes group. Seeds are committed under
// testdata/fuzz/FuzzExpand.
func FuzzExpand(f *testing.F) {
	for _, s := range [][2]string{
		{"Fix $ARGUMENTS.", "issue 42"}, {"$0 $1 $ARGUMENTS[2]", "a b c"}, {"$10$1", "0 1 2 3 4 5 6 7 8 9 10"},
		{"no placeholder", "x"}, {"$ARGUMENTS[", "'a b' c"}, {"$$1$", `"x y" z`}, {"", ""},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, body, args string) {
		got := (&runtime.Workflow{Body: body}).Expand(args)
		if !placeholder.MatchString(body) {
			want := body
			if args != "" {
				want = strings.TrimSuffix(body, "\n") + "\n\nARGUMENTS: " + args
				if body == "" {
					want = "ARGUMENTS: " + args
				}
			}
			if got != want {
				t.Fatalf("Expand(%q) of %q = %q, want %q", args, body, got, want)
			}
			return
		}
		if strings.ContainsAny(args, `'"`) {
			return // the oracle splits no quotes; the table tests cover them
		}
		words := strings.FieldsFunc(args, unicode.IsSpace)
		want := placeholder.ReplaceAllStringFunc(body, func(m string) string {
			sub := placeholder.FindStringSubmatch(m)
			n := sub[1] + sub[2]
			if n == "" {
				return args
			}
			i, err := strconv.Atoi(n)
			if err != nil || i >= len(words) {
				return ""
			}
			return words[i]
		})
		if got != want {
			t.Fatalf("Expand(%q) of %q = %q, want %q", args, body, got, want)
		}
	})
}
