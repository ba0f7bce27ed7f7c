package runtime

import (
	"path"
	"path/filepath"
	"strings"
)

// SkillsXML renders the skill-sourced workflows in the <available_skills>
// layout of the agentskills reference implementation's to-prompt: every tag
// and every value on a line of its own, values HTML-escaped, and
// <location> = root/<slug>/SKILL.md (the file name as found).
func (r *Registry) SkillsXML(root string) string {
	var b strings.Builder
	b.WriteString("<available_skills>")
	for i := range r.t.Workflows {
		w := &r.t.Workflows[i]
		if w.Source.Kind != KindSkill {
			continue
		}
		for _, s := range [...]string{
			"<skill>",
			"<name>", htmlEscape(w.Slug), "</name>",
			"<description>", htmlEscape(w.Description), "</description>",
			"<location>", htmlEscape(filepath.Join(root, w.Slug, path.Base(w.Source.Path))), "</location>",
			"</skill>",
		} {
			b.WriteByte('\n')
			b.WriteString(s)
		}
	}
	b.WriteString("\n</available_skills>")
	return b.String()
}

// htmlEscape escapes as Python's html.escape(s, quote=True), which the
// reference implementation uses.
var htmlEscape = strings.NewReplacer(
	"&", "&amp;",
	"<", "&lt;",
	">", "&gt;",
	`"`, "&quot;",
	"'", "&#x27;",
).Replace
