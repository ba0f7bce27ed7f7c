package runtime_test

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/skillgen/skillgen/runtime"
)

// FuzzInvoke checks Invoke's line parsing against DESIGN §5 for any input:
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

		// The slug as DESIGN §5 defines it, computed independently.
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
