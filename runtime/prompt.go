package runtime

import (
	"path"

	"github.com/skillgen/skillgen/runtime/internal/abi"
)

// SkillsXML renders the skill-sourced workflows in the <available_skills>
// layout of the agentskills reference implementation's to-prompt: every tag
// and every value on a line of its own, values HTML-escaped, and
// <location> = root/<slug>/SKILL.md (the file name as found). Within a
// catalog budget, descriptions are the catalog's and skills it left out
// are counted in a last comment line; the block keeps to the budget for
// any root, a root longer than the build assumed (64 characters after
// HTML escaping) leaving more skills out, from the end.
func (r *Registry) SkillsXML(root string) string {
	return abi.SkillsXML(root, r.len(), func(i int) (name, description, file string, ok bool) {
		const want = abi.FlagSkill | abi.FlagListedXML
		if r.flags(i)&want != want {
			return "", "", "", false
		}
		rec := r.record(i)
		return r.slug(i), r.d.String(rec + 4*abi.WCatalogXML), path.Base(r.d.String(rec + 4*abi.WSource)), true
	}, r.d.Header(abi.HUnlistedSkills), r.d.Header(abi.HCatalogBudget))
}
