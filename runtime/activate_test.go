package runtime_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/skillgen/skillgen/runtime"
)

func TestActivationTool(t *testing.T) {
	tool, ok := Registry.ActivationTool()
	if !ok {
		t.Fatal("ActivationTool() = false, want true: the fixture has model-invocable workflows")
	}
	if tool.Name != "activate_skill" {
		t.Errorf("Name = %q, want activate_skill", tool.Name)
	}
	// The description: an instruction, a blank line, then exactly the
	// catalog lines of Resident.
	instruction, catalog, ok := strings.Cut(tool.Description, "\n\n")
	if !ok || instruction == "" || strings.Contains(instruction, "\n") {
		t.Errorf("Description does not start with a one-line instruction and a blank line:\n%s", tool.Description)
	}
	const wantCatalog = "- a: The shortest slug.\n" +
		"- a-b: Slug with a hyphen; sorts after \"a\" and before \"a0\".\n" +
		"- a0: Found as lower-case skill.md.\n" +
		"- deploy: Deploy the service (model only).\n" +
		"- names: Files with odd but legal names.\n" +
		"- pdf-tools: Extract text & tables from <PDF> files, \"quoted\" and 'single'. Use for PDFs.\n" +
		"- tricky: Line one line two line three end\n"
	if catalog != wantCatalog {
		t.Errorf("Description catalog =\n%s\nwant\n%s", catalog, wantCatalog)
	}
	if !strings.HasSuffix(Registry.Resident(), wantCatalog) {
		t.Errorf("the tool's catalog is not Resident's:\n%s", Registry.Resident())
	}

	// The schema, byte for byte (keys in a fixed order), and as JSON.
	const wantSchema = `{"type":"object","properties":{"name":{"type":"string","enum":["a","a-b","a0","deploy","names","pdf-tools","tricky"]}},"required":["name"],"additionalProperties":false}`
	if tool.InputSchema != wantSchema {
		t.Errorf("InputSchema =\n%s\nwant\n%s", tool.InputSchema, wantSchema)
	}
	var schema struct {
		Type       string
		Properties map[string]struct {
			Type string
			Enum []string
		}
		Required             []string
		AdditionalProperties *bool
	}
	if err := json.Unmarshal([]byte(tool.InputSchema), &schema); err != nil {
		t.Fatalf("InputSchema is not valid JSON: %v", err)
	}
	var modelSlugs []string
	for _, w := range Registry.Workflows() {
		if w.ModelInvocation {
			modelSlugs = append(modelSlugs, w.Slug)
		}
	}
	name := schema.Properties["name"]
	if schema.Type != "object" || name.Type != "string" || !slices.Equal(name.Enum, modelSlugs) ||
		!slices.Equal(schema.Required, []string{"name"}) || schema.AdditionalProperties == nil || *schema.AdditionalProperties {
		t.Errorf("InputSchema decodes to %+v; enum want %q", schema, modelSlugs)
	}
}

func TestActivationToolNone(t *testing.T) {
	for name, ws := range map[string][]runtime.Workflow{
		"empty":          nil,
		"user only":      {{Slug: "standup", Description: "User only.", UserInvocable: true}},
		"two, user only": {{Slug: "a", Description: "A."}, {Slug: "b", Description: "B.", UserInvocable: true}},
	} {
		r := registryOf(ws, nil, nil)
		if tool, ok := r.ActivationTool(); ok || tool != (runtime.Tool{}) {
			t.Errorf("%s: ActivationTool() = %+v, %v; want the zero Tool, false", name, tool, ok)
		}
	}
}

func TestActivate(t *testing.T) {
	pdfBody := body(dataPDFSkill)
	tests := []struct {
		name, dir string
		want      string
		err       error
	}{
		{
			name: "pdf-tools", dir: "/srv/skills/pdf-tools",
			want: "<skill_content name=\"pdf-tools\">\n" + pdfBody +
				"\nSkill directory: /srv/skills/pdf-tools\n" +
				"Relative paths in this skill are relative to the skill directory.\n" +
				"\n<skill_resources>\n" +
				"  <file>assets/deep/nested/form.txt</file>\n" +
				"  <file>assets/logo.bin</file>\n" +
				"  <file>references/REFERENCE.md</file>\n" +
				"  <file>scripts.md</file>\n" +
				"  <file>scripts/extract.sh</file>\n" +
				"</skill_resources>\n" +
				"</skill_content>\n",
		},
		{
			// No directory: the two directory lines go, the resources stay.
			name: "a-b", dir: "",
			want: "<skill_content name=\"a-b\">\nBody of a-b.\n" +
				"\n<skill_resources>\n  <file>notes/empty.txt</file>\n  <file>notes/todo.md</file>\n</skill_resources>\n" +
				"</skill_content>\n",
		},
		{
			// Only SKILL.md: no resources block.
			name: "a", dir: "skill://a",
			want: "<skill_content name=\"a\">\n# A\n\nBody of a.\n" +
				"\nSkill directory: skill://a\nRelative paths in this skill are relative to the skill directory.\n" +
				"</skill_content>\n",
		},
		{
			// Found as skill.md: that file is the body, not a resource.
			name: "a0", dir: "",
			want: "<skill_content name=\"a0\">\nBody of a0.\n</skill_content>\n",
		},
		{
			// Odd names are listed escaped; SKILL.md is not listed.
			name: "names", dir: "",
			want: "<skill_content name=\"names\">\nBody of names.\n\n<skill_resources>\n" +
				"  <file>#hash.md</file>\n  <file>A.md</file>\n  <file>_underscore.md</file>\n  <file>a.md</file>\n" +
				"  <file>con.md</file>\n  <file>empty</file>\n  <file>has space.md</file>\n  <file>odd-one.md</file>\n" +
				"  <file>odd/*?:\\.txt</file>\n  <file>ünïcödé.md</file>\n  <file>日本語/メモ.txt</file>\n" +
				"</skill_resources>\n</skill_content>\n",
		},
		{
			// An in-house workflow: no files, never a resources block.
			name: "deploy", dir: "/srv",
			want: "<skill_content name=\"deploy\">\nDeploy with care.\n\nSkill directory: /srv\n" +
				"Relative paths in this skill are relative to the skill directory.\n</skill_content>\n",
		},
		{
			// An empty body still gets its line.
			name: "tricky", dir: "",
			want: "<skill_content name=\"tricky\">\n\n</skill_content>\n",
		},
		{name: "standup", dir: "/srv", err: runtime.ErrNotModelInvocable},
		{name: "nope", dir: "/srv", err: runtime.ErrNotFound},
		{name: "", dir: "", err: runtime.ErrNotFound},
		{name: "/pdf-tools", dir: "", err: runtime.ErrNotFound},
	}
	for _, tt := range tests {
		got, err := Registry.Activate(tt.name, tt.dir)
		if !errors.Is(err, tt.err) || (tt.err != nil && got != "") {
			t.Errorf("Activate(%q, %q) error = %v (and %q), want %v", tt.name, tt.dir, err, got, tt.err)
			continue
		}
		if got != tt.want {
			t.Errorf("Activate(%q, %q) =\n%s\nwant\n%s", tt.name, tt.dir, got, tt.want)
		}
	}
}

// TestActivateBody covers the body rules on workflows of their own: the
// trailing newline, the directory placeholders, and the resource cap.
func TestActivateBody(t *testing.T) {
	many := []runtime.File{{Path: "SKILL.md"}}
	for i := range 103 {
		many = append(many, runtime.File{Path: fmt.Sprintf("references/r%03d.md", i)})
	}
	var listed strings.Builder
	for i := range 100 {
		fmt.Fprintf(&listed, "  <file>references/r%03d.md</file>\n", i)
	}
	skill := func(body string, files ...runtime.File) runtime.Workflow {
		if files == nil {
			files = []runtime.File{{Path: "SKILL.md"}}
		}
		return runtime.Workflow{Slug: "s", Description: "S.", ModelInvocation: true, Body: body,
			Source: runtime.Source{Kind: runtime.KindSkill, Path: "skills/s/SKILL.md"}, Files: files}
	}
	tests := []struct {
		name string
		w    runtime.Workflow
		dir  string
		want string
	}{
		{"newline added", skill("no newline"), "", "<skill_content name=\"s\">\nno newline\n</skill_content>\n"},
		{"newlines kept", skill("two\n\n"), "", "<skill_content name=\"s\">\ntwo\n\n</skill_content>\n"},
		{"CRLF kept", skill("crlf\r\n"), "", "<skill_content name=\"s\">\ncrlf\r\n</skill_content>\n"},
		{"baseDir", skill("Run {baseDir}/scripts/x.sh and ${CLAUDE_SKILL_DIR}/y; not {basedir} or $CLAUDE_SKILL_DIR.\n"), "/opt/s",
			"<skill_content name=\"s\">\nRun /opt/s/scripts/x.sh and /opt/s/y; not {basedir} or $CLAUDE_SKILL_DIR.\n" +
				"\nSkill directory: /opt/s\nRelative paths in this skill are relative to the skill directory.\n</skill_content>\n"},
		{"baseDir without dir stays", skill("Run {baseDir}/x and ${CLAUDE_SKILL_DIR}/y.\n"), "",
			"<skill_content name=\"s\">\nRun {baseDir}/x and ${CLAUDE_SKILL_DIR}/y.\n</skill_content>\n"},
		{"dir with $ is not expanded", skill("{baseDir}\n"), "/a$1/{baseDir}",
			"<skill_content name=\"s\">\n/a$1/{baseDir}\n\nSkill directory: /a$1/{baseDir}\nRelative paths in this skill are relative to the skill directory.\n</skill_content>\n"},
		{"capped at 100", skill("b\n", many...), "",
			"<skill_content name=\"s\">\nb\n\n<skill_resources>\n" + listed.String() + "  <!-- 3 more files -->\n</skill_resources>\n</skill_content>\n"},
		{"escaped", skill("b\n", runtime.File{Path: "SKILL.md"}, runtime.File{Path: "a&b<c>\"d\".md"}), "",
			"<skill_content name=\"s\">\nb\n\n<skill_resources>\n  <file>a&amp;b&lt;c&gt;&quot;d&quot;.md</file>\n</skill_resources>\n</skill_content>\n"},
	}
	for _, tt := range tests {
		ws := []runtime.Workflow{tt.w}
		r := registryOf(ws, nil, nil)
		got, err := r.Activate("s", tt.dir)
		if err != nil || got != tt.want {
			t.Errorf("%s: Activate = %v\n%s\nwant\n%s", tt.name, err, got, tt.want)
		}
	}
}

func TestExpand(t *testing.T) {
	tests := []struct {
		body, args, want string
	}{
		// $ARGUMENTS, as given.
		{"Fix issue $ARGUMENTS now.", "  42  and 'x' ", "Fix issue   42  and 'x'  now."},
		{"$ARGUMENTS$ARGUMENTS", "ab", "abab"},
		{"A: $ARGUMENTS.", "", "A: ."},
		// $ARGUMENTS[N] and $N, 0-based words.
		{"$ARGUMENTS[0] then $ARGUMENTS[1]", "one two three", "one then two"},
		{"$0-$1-$2", "one two three", "one-two-three"},
		{"$1 of $0", "a", " of a"},
		{"[$3]", "a b c", "[]"},
		{"$10", "0 1 2 3 4 5 6 7 8 9 ten", "ten"},
		{"$ARGUMENTS[10]", "0 1 2 3 4 5 6 7 8 9 ten", "ten"},
		{"$99999999999999999999999 end", "a", " end"},
		// Quotes group and are removed; nothing else is special.
		{"<$0><$1><$2>", `"hello world" 'it''s' x`, "<hello world><its><x>"},
		{"<$0><$1>", `a"b c"d e`, "<ab cd><e>"},
		{"<$0><$1><$2>", `'' "" x`, "<><><x>"},
		{"<$0><$1>", `"unclosed quote runs on`, "<unclosed quote runs on><>"},
		{"<$0><$1>", `a\ b c`, `<a\><b>`},
		{"<$0><$1>", "tab\tsep\nline", "<tab><sep>"},
		{"<$0><$1>", "\u3000wide\u00a0space", "<wide><space>"},
		{"<$0>", `"$1"`, "<$1>"},
		// Other $ forms stay.
		{"Costs $ 5 or $x or $$ or $ARGUMENTS[x] or $ARGUMENTS[] or $ARGUMENTS[1", "a b", "Costs $ 5 or $x or $$ or a b[x] or a b[] or a b[1"},
		{"trailing $", "a", "trailing $\n\nARGUMENTS: a"},
		{"$0 and trailing $", "a", "a and trailing $"},
		{"$arguments $Arguments", "a", "$arguments $Arguments\n\nARGUMENTS: a"},
		{"$ARGUMENTSX", "a", "aX"},
		// No placeholder: the arguments are appended after a blank line.
		{"Do it.\n", "now please", "Do it.\n\nARGUMENTS: now please"},
		{"Do it.", "now", "Do it.\n\nARGUMENTS: now"},
		{"Do it.\r\n", "now", "Do it.\r\n\nARGUMENTS: now"},
		{"", "now", "ARGUMENTS: now"},
		{"Do it.\n", "", "Do it.\n"},
		{"", "", ""},
		// A placeholder anywhere means no appendix, even with no args.
		{"Use $0.\n", "", "Use .\n"},
	}
	for _, tt := range tests {
		w := runtime.Workflow{Body: tt.body}
		if got := w.Expand(tt.args); got != tt.want {
			t.Errorf("Expand(%q) of %q = %q, want %q", tt.args, tt.body, got, tt.want)
		}
	}
}

// TestExpandRegistry expands a workflow served by the registry, as a host
// does after Invoke.
func TestExpandRegistry(t *testing.T) {
	w, args, err := Registry.Invoke("/deploy  to production")
	if !errors.Is(err, runtime.ErrNotUserInvocable) {
		t.Fatalf("Invoke: %v", err)
	}
	if got, want := w.Expand(args), "Deploy with care.\n\nARGUMENTS: to production"; got != want {
		t.Errorf("Expand = %q, want %q", got, want)
	}
}

func TestCatalog(t *testing.T) {
	entries, unlisted := Registry.Catalog()
	var lines strings.Builder
	for _, e := range entries {
		fmt.Fprintf(&lines, "- %s: %s\n", e.Slug, strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ").Replace(e.Description))
	}
	// Without a budget: every model-invocable workflow, whole, as Resident lists them.
	if unlisted != 0 || len(entries) != 7 || "## Workflows\n\nRun one by its slug as /<slug>.\n\n"+lines.String() != Registry.Resident() {
		t.Errorf("Catalog() = %q, %d; Resident is\n%s", entries, unlisted, Registry.Resident())
	}
	if e, _ := registryOf(nil, nil, nil).Catalog(); e != nil {
		t.Errorf("Catalog of an empty registry = %q", e)
	}
}
