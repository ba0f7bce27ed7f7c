package runtime_test

import (
	"errors"
	"reflect"
	"slices"
	"sync"
	"testing"

	"github.com/skillgen/skillgen/runtime"
)

var wantSlugs = []string{"a", "a-b", "a0", "deploy", "names", "pdf-tools", "standup", "tricky"}

func slugsOf(ws []runtime.Workflow) []string {
	var s []string
	for _, w := range ws {
		s = append(s, w.Slug)
	}
	return s
}

func TestWorkflows(t *testing.T) {
	got := Registry.Workflows()
	if !slices.Equal(slugsOf(got), wantSlugs) {
		t.Fatalf("Workflows() slugs = %q, want %q", slugsOf(got), wantSlugs)
	}
	if !reflect.DeepEqual(got, fixtureWorkflows) {
		t.Errorf("Workflows() differs from the table")
	}

	// The result is a copy: changing it leaves the registry as it was.
	got[0].Slug = "zzz"
	got[1] = runtime.Workflow{}
	got[2].UserInvocable = false
	slices.Reverse(got)
	_ = append(got[:1], runtime.Workflow{Slug: "x"})
	again := Registry.Workflows()
	if !slices.Equal(slugsOf(again), wantSlugs) {
		t.Errorf("after mutating a result, Workflows() slugs = %q, want %q", slugsOf(again), wantSlugs)
	}
	if !again[2].UserInvocable {
		t.Errorf("after mutating a result, a0 is no longer user invocable")
	}
	if w, ok := Registry.Lookup("a"); !ok || w.Slug != "a" {
		t.Errorf("after mutating a result, Lookup(a) = %v, %v", w, ok)
	}
	if &again[0] == &got[0] {
		t.Errorf("Workflows() returned the same backing array twice")
	}
}

func TestWorkflowsEmpty(t *testing.T) {
	r := registryOf(nil, nil, nil)
	if got := r.Workflows(); len(got) != 0 {
		t.Errorf("Workflows() of an empty table = %v", got)
	}
	if w, ok := r.Lookup("a"); ok || w != nil {
		t.Errorf("Lookup(a) on an empty table = %v, %v", w, ok)
	}
	if w, args, err := r.Invoke("/a b"); w != nil || args != "" || !errors.Is(err, runtime.ErrNotFound) {
		t.Errorf("Invoke on an empty table = %v, %q, %v", w, args, err)
	}
	if got := r.Resident(); got != "" {
		t.Errorf("Resident() of an empty table = %q", got)
	}
	if got := r.Grants(); len(got) != 0 {
		t.Errorf("Grants() of an empty table = %v", got)
	}
	if got := r.Notifications(); len(got) != 0 {
		t.Errorf("Notifications() of an empty table = %v", got)
	}
}

func TestLookup(t *testing.T) {
	for _, slug := range wantSlugs {
		w, ok := Registry.Lookup(slug)
		if !ok || w == nil || w.Slug != slug {
			t.Errorf("Lookup(%q) = %v, %v", slug, w, ok)
			continue
		}
		// The workflow as written, and the registry's own: the same
		// pointer every time, not a copy.
		i := slices.IndexFunc(fixtureWorkflows, func(w runtime.Workflow) bool { return w.Slug == slug })
		if !reflect.DeepEqual(*w, fixtureWorkflows[i]) {
			t.Errorf("Lookup(%q) = %+v\nwant %+v", slug, *w, fixtureWorkflows[i])
		}
		if again, _ := Registry.Lookup(slug); again != w {
			t.Errorf("Lookup(%q) returned two pointers", slug)
		}
	}
	for _, slug := range []string{"", "A", "a-", "a-bb", "a1", "b", "pdf", "pdf-tools ", " a", "/a", "zzz", "names/", "\x00", "tricky\n"} {
		if w, ok := Registry.Lookup(slug); ok || w != nil {
			t.Errorf("Lookup(%q) = %v, %v; want nil, false", slug, w, ok)
		}
	}
}

func TestInvoke(t *testing.T) {
	tests := []struct {
		input string
		slug  string // "" when no workflow is returned
		args  string
		err   error
	}{
		{"/a", "a", "", nil},
		{"/a args", "a", "args", nil},
		{"/a\targs", "a", "args", nil},
		{"/a\n\nmulti-line\nargs\n", "a", "multi-line\nargs\n", nil},
		{"/a   spaced", "a", "spaced", nil},
		{"/a \t\r\n spaced  out  ", "a", "spaced  out  ", nil},
		{"/a ", "a", "", nil},
		{"/a\r\nx", "a", "x", nil},
		{"/a\u3000ideographic space", "a", "ideographic space", nil},
		{"/a\u00a0nbsp", "a", "nbsp", nil},
		{"/a\u0085nel", "a", "nel", nil},
		{"/a\u2003\u2028\u2029x", "a", "x", nil},
		{"/a\v\fx", "a", "x", nil},
		{"/a-b", "a-b", "", nil},
		{"/a-b c", "a-b", "c", nil},
		{"/a0 c", "a0", "c", nil},
		{"/pdf-tools extract in.pdf", "pdf-tools", "extract in.pdf", nil},
		{"/standup", "standup", "", nil},
		{"/a /b", "a", "/b", nil},
		{"/a x\u3000", "a", "x\u3000", nil},

		// Not an invocation.
		{"", "", "", runtime.ErrNotInvocation},
		{"no slash", "", "", runtime.ErrNotInvocation},
		{"a", "", "", runtime.ErrNotInvocation},
		{" /a", "", "", runtime.ErrNotInvocation},
		{"\\a", "", "", runtime.ErrNotInvocation},
		{"／a", "", "", runtime.ErrNotInvocation}, // full-width solidus

		// Unknown slugs.
		{"/", "", "", runtime.ErrNotFound},
		{"/ a", "", "", runtime.ErrNotFound},
		{"/unknown", "", "", runtime.ErrNotFound},
		{"/unknown args", "", "", runtime.ErrNotFound},
		{"/A", "", "", runtime.ErrNotFound},
		{"//a", "", "", runtime.ErrNotFound},
		{"/a-", "", "", runtime.ErrNotFound},
		{"/a1", "", "", runtime.ErrNotFound},
		{"/a\u200bx", "", "", runtime.ErrNotFound}, // zero-width space is not white space
		{"/a,b", "", "", runtime.ErrNotFound},
		{"/a\xff", "", "", runtime.ErrNotFound},

		// Known but not user invocable: the workflow comes back with the error.
		{"/deploy", "deploy", "", runtime.ErrNotUserInvocable},
		{"/deploy now please", "deploy", "now please", runtime.ErrNotUserInvocable},
	}
	for _, tt := range tests {
		w, args, err := Registry.Invoke(tt.input)
		if err != tt.err {
			t.Errorf("Invoke(%q) error = %v, want %v", tt.input, err, tt.err)
		}
		if tt.slug == "" {
			if w != nil {
				t.Errorf("Invoke(%q) workflow = %q, want nil", tt.input, w.Slug)
			}
		} else if want, _ := Registry.Lookup(tt.slug); w != want {
			t.Errorf("Invoke(%q) workflow = %v, want the table's %q", tt.input, w, tt.slug)
		}
		if args != tt.args {
			t.Errorf("Invoke(%q) args = %q, want %q", tt.input, args, tt.args)
		}
	}
}

func TestInvokeErrorsAreDistinct(t *testing.T) {
	errs := []error{runtime.ErrNotInvocation, runtime.ErrNotFound, runtime.ErrNotUserInvocable}
	for i, a := range errs {
		if a == nil || a.Error() == "" {
			t.Errorf("error %d is empty", i)
		}
		for j, b := range errs {
			if (i == j) != errors.Is(a, b) {
				t.Errorf("errors.Is(%v, %v) = %v", a, b, !(i == j))
			}
		}
	}
}

func TestResident(t *testing.T) {
	// Model-invocable workflows only (not standup), by slug, each
	// description on one line (CRLF, LF and CR each folded to one space).
	const want = "## Workflows\n" +
		"\n" +
		"Run one by its slug as /<slug>.\n" +
		"\n" +
		"- a: The shortest slug.\n" +
		"- a-b: Slug with a hyphen; sorts after \"a\" and before \"a0\".\n" +
		"- a0: Found as lower-case skill.md.\n" +
		"- deploy: Deploy the service (model only).\n" +
		"- names: Files with odd but legal names.\n" +
		"- pdf-tools: Extract text & tables from <PDF> files, \"quoted\" and 'single'. Use for PDFs.\n" +
		"- tricky: Line one line two line three end\n"
	if got := Registry.Resident(); got != want {
		t.Errorf("Resident() =\n%s\nwant\n%s", got, want)
	}
}

func TestResidentFormat(t *testing.T) {
	const heading = "## Workflows\n\nRun one by its slug as /<slug>.\n\n"
	tests := []struct {
		name string
		ws   []runtime.Workflow
		want string
	}{
		{"nil", nil, ""},
		{"none model invocable", []runtime.Workflow{
			{Slug: "standup", Description: "x", UserInvocable: true},
			{Slug: "z", Description: "y"},
		}, ""},
		{"one", []runtime.Workflow{
			{Slug: "standup", Description: "x", UserInvocable: true},
			{Slug: "z", Description: "y", ModelInvocation: true},
		}, heading + "- z: y\n"},
		{"folding", []runtime.Workflow{
			{Slug: "crlf", Description: "a\r\nb", ModelInvocation: true},
			{Slug: "lf", Description: "a\n\nb\n", ModelInvocation: true},
			{Slug: "tab", Description: "a\tb", ModelInvocation: true},
		}, heading + "- crlf: a b\n- lf: a  b \n- tab: a\tb\n"},
	}
	for _, tt := range tests {
		if got := registryOf(tt.ws, nil, nil).Resident(); got != tt.want {
			t.Errorf("%s: Resident() = %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestGrants(t *testing.T) {
	want := []runtime.Grant{
		{Target: "a", Permission: runtime.Read, Recursive: true},
		{Target: "a-b", Permission: runtime.Read, Recursive: true},
		{Target: "a0", Permission: runtime.Read, Recursive: true},
		{Target: "names", Permission: runtime.Read, Recursive: true},
		{Target: "pdf-tools", Permission: runtime.Read, Recursive: true},
	}
	got := Registry.Grants()
	if !slices.Equal(got, want) {
		t.Fatalf("Grants() = %v, want %v", got, want)
	}
	// One per ingested skill, each naming a directory of FS.
	for _, g := range got {
		if w, ok := Registry.Lookup(g.Target); !ok || w.Source.Kind != runtime.KindSkill {
			t.Errorf("grant %q is not a skill", g.Target)
		}
	}
	got[0].Target = "/"
	got[1].Recursive = false
	if again := Registry.Grants(); !slices.Equal(again, want) {
		t.Errorf("after mutating a result, Grants() = %v", again)
	}
	if s := runtime.Read.String(); s != "read" {
		t.Errorf("Read.String() = %q", s)
	}
	if b, err := runtime.Read.MarshalText(); err != nil || string(b) != "read" {
		t.Errorf("Read.MarshalText() = %q, %v", b, err)
	}
}

func TestNotifications(t *testing.T) {
	want := []runtime.Notification{
		{Code: "shadowed", Message: "skill /deploy from skill (.claude/skills/deploy/SKILL.md) was shadowed by existing workspace workflow (.insomnia/memory/workflow/deploy.md)"},
		{Code: "skipped", Message: "skill /bad from skill (.claude/skills/bad/SKILL.md) was skipped: description is missing"},
		{Code: "shadowed", Message: "skill /a from skill (/opt/shared skills/a/SKILL.md) was shadowed by existing skill (.claude/skills/a/SKILL.md)"},
	}
	got := Registry.Notifications()
	if !slices.Equal(got, want) {
		t.Fatalf("Notifications() = %v, want %v (in resolution order)", got, want)
	}
	got[0].Code = "x"
	slices.Reverse(got)
	if again := Registry.Notifications(); !slices.Equal(again, want) {
		t.Errorf("after mutating a result, Notifications() = %v", again)
	}
}

func TestSourceKind(t *testing.T) {
	for k, want := range map[runtime.SourceKind]string{runtime.KindWorkflow: "workflow", runtime.KindSkill: "skill"} {
		if got := k.String(); got != want {
			t.Errorf("%d.String() = %q, want %q", k, got, want)
		}
		if b, err := k.MarshalText(); err != nil || string(b) != want {
			t.Errorf("%d.MarshalText() = %q, %v", k, b, err)
		}
	}
}

// TestConcurrentFirstUse has goroutines race to be the first to use each
// workflow of a fresh registry (each is decoded once, on first use): all
// must see the same, complete workflow. Run with -race.
func TestConcurrentFirstUse(t *testing.T) {
	r := registryOf(fixtureWorkflows, fixtureContents(), fixtureNotifications)
	const goroutines = 16
	got := make([][]*runtime.Workflow, goroutines)
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range wantSlugs {
				// Each goroutine walks the slugs from another start.
				slug := wantSlugs[(k+g)%len(wantSlugs)]
				w, ok := r.Lookup(slug)
				if !ok {
					t.Errorf("Lookup(%q) failed", slug)
					return
				}
				got[g] = append(got[g], w)
			}
			if ws := r.Workflows(); !reflect.DeepEqual(ws, fixtureWorkflows) {
				t.Errorf("Workflows() differs from the fixture")
			}
		}()
	}
	wg.Wait()
	for g := range got {
		for k, w := range got[g] {
			slug := wantSlugs[(k+g)%len(wantSlugs)]
			first, _ := r.Lookup(slug)
			if w != first {
				t.Errorf("goroutine %d: Lookup(%q) returned another pointer", g, slug)
			}
			i := slices.IndexFunc(fixtureWorkflows, func(w runtime.Workflow) bool { return w.Slug == slug })
			if !reflect.DeepEqual(*w, fixtureWorkflows[i]) {
				t.Errorf("goroutine %d: Lookup(%q) = %+v", g, slug, *w)
			}
		}
	}
}
