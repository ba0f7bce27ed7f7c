package runtime_test

import (
	"path/filepath"
	"testing"

	"github.com/skillgen/skillgen/runtime"
)

// The expected strings follow the reference implementation, skills-ref's
// to_prompt (agentskills/agentskills, skills-ref/src/skills_ref/prompt.py):
//
//	lines = ["<available_skills>"]
//	for each skill: "<skill>", "<name>", html.escape(name), "</name>",
//	    "<description>", html.escape(description), "</description>",
//	    "<location>", html.escape(str(skill_md_path)), "</location>", "</skill>"
//	lines.append("</available_skills>")
//	return "\n".join(lines)
//
// and with no skills "<available_skills>\n</available_skills>".
// html.escape(s, quote=True) maps & < > " ' to &amp; &lt; &gt; &quot; &#x27;.
// Only skill-sourced workflows are listed (not deploy, standup, tricky), by
// slug, and <location> keeps the skill file's name as found (a0/skill.md).

func TestSkillsXML(t *testing.T) {
	skill := func(name, desc, loc string) string {
		return "<skill>\n<name>\n" + name + "\n</name>\n<description>\n" + desc +
			"\n</description>\n<location>\n" + filepath.FromSlash(loc) + "\n</location>\n</skill>\n"
	}
	all := func(root string) string {
		return "<available_skills>\n" +
			skill("a", "The shortest slug.", root+"/a/SKILL.md") +
			skill("a-b", "Slug with a hyphen; sorts after &quot;a&quot; and before &quot;a0&quot;.", root+"/a-b/SKILL.md") +
			skill("a0", "Found as lower-case skill.md.", root+"/a0/skill.md") +
			skill("names", "Files with odd but legal names.", root+"/names/SKILL.md") +
			skill("pdf-tools", "Extract text &amp; tables from &lt;PDF&gt; files, &quot;quoted&quot; and &#x27;single&#x27;.\nUse for PDFs.", root+"/pdf-tools/SKILL.md") +
			"</available_skills>"
	}
	tests := []struct {
		root string
		want string
	}{
		{"/srv/skills", all("/srv/skills")},
		{"/srv/skills/", all("/srv/skills")},
		{"/tmp/a&b <c>", all("/tmp/a&amp;b &lt;c&gt;")},
		{"rel", all("rel")},
	}
	for _, tt := range tests {
		if got := Registry.SkillsXML(tt.root); got != tt.want {
			t.Errorf("SkillsXML(%q) =\n%s\nwant\n%s", tt.root, got, tt.want)
		}
	}

	// The literal layout for one skill, spelled out once.
	one := registryOf([]runtime.Workflow{
		{Slug: "pdf-reader", Description: "Read and extract text from PDF files", Source: runtime.Source{Kind: runtime.KindSkill, Path: "skills/pdf-reader/SKILL.md"}},
	}, nil, nil)
	const want = `<available_skills>
<skill>
<name>
pdf-reader
</name>
<description>
Read and extract text from PDF files
</description>
<location>
/path/to/pdf-reader/SKILL.md
</location>
</skill>
</available_skills>`
	if got := one.SkillsXML("/path/to"); got != filepath.FromSlash(want) {
		t.Errorf("SkillsXML, one skill =\n%s\nwant\n%s", got, want)
	}
}

func TestSkillsXMLEmpty(t *testing.T) {
	const want = "<available_skills>\n</available_skills>"
	inHouseOnly := registryOf([]runtime.Workflow{
		{Slug: "standup", Description: "x", UserInvocable: true, ModelInvocation: true, Source: runtime.Source{Kind: runtime.KindWorkflow, Path: ".insomnia/memory/workflow/standup.md"}},
	}, nil, nil)
	for name, r := range map[string]*runtime.Registry{"empty": registryOf(nil, nil, nil), "in-house only": inHouseOnly} {
		if got := r.SkillsXML("/srv/skills"); got != want {
			t.Errorf("%s: SkillsXML = %q, want %q", name, got, want)
		}
	}
}
