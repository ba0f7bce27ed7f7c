// Package corpus writes synthetic workspaces shaped like public Agent Skills
// collections, for skillgen's benchmarks and scale tests.
//
// A corpus is a workspace with a project manifest (.insomnia/manifest.toml)
// that lists several skill roots, .claude/skills among them, and a few
// in-house Workflows. At the default 1,000 skills it holds about 40 MB in
// about 3,000 files: most skills are a single SKILL.md of 2–20 KB of
// Markdown; about 10% also have scripts/ (some executable), references/
// and assets/; a few carry multi-MB binary assets (fonts, images); license
// files are repeated byte for byte across skills; about 2% of the names are
// shadowed between roots (and one by an in-house Workflow); about 8% of the
// skills are invalid in varied ways. Descriptions come folded, literal and
// quoted; some files have CRLF line ends, a BOM, unknown keys, metadata,
// allowed-tools and hidden files. About a fifth of the valid skills end
// with a section of links to their own files (a few of them broken, each
// recorded in Stats.BrokenLinks) and link-like text in code.
//
// Everything is derived from Options.Seed: the same options write the same
// bytes, file modes and names, on every platform.
package corpus

import (
	"cmp"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"
)

// Options say what to write.
type Options struct {
	Seed   uint64 // everything is derived from it
	Skills int    // skill directories to write, over all roots; 0 means 1,000
}

// ManifestPath is where Write puts the project manifest, relative to dir.
const ManifestPath = ".insomnia/manifest.toml"

// WorkflowDir holds the in-house Workflows, relative to dir.
const WorkflowDir = ".insomnia/memory/workflow"

// Stats describe a written corpus: what is there, and what skillgen is
// expected to make of it. Paths are slash-separated and relative to the
// workspace.
type Stats struct {
	Roots     []string // the manifest's skill directories, in order
	Skills    int      // skill directories (holding a SKILL.md or skill.md), over all roots
	Workflows []string // slugs of the in-house Workflows, sorted
	Files     int      // regular files under the roots
	Bytes     int64    // their total size

	Ingested []string  // skill directories expected to be ingested, sorted
	Shadowed []string  // skill directories expected to lose to an earlier Workflow or skill, sorted
	Invalid  []Invalid // skill directories expected to be skipped, sorted by Dir

	Rich        int // skills with scripts/, references/ or assets/
	BigAssets   int // files of a megabyte or more
	Executables int // files written with mode 0755
	CRLF        int // SKILL.md files with CRLF line ends

	// Links counts the relative links of skill bodies that name a file or
	// directory of their skill; BrokenLinks are those that do not, which
	// skillgen is expected to report (link-broken), sorted by Dir, then
	// Target. Link-like text in code is neither.
	Links       int
	BrokenLinks []BrokenLink
}

// BrokenLink is a link written to draw link-broken: its skill directory,
// its target as written, and how it is broken ("missing": no such file;
// "leaves": out of the skill directory; "hidden": a dot-file skillgen
// leaves out).
type BrokenLink struct {
	Dir, Target, Kind string
}

// Invalid is a skill written to fail validation, and the code of the error
// it was written to draw (README.md, "Rules and codes").
type Invalid struct {
	Dir  string
	Code string
}

// Roots of a corpus, in manifest order, with their share of the skills and
// the license file each copies into most of its skills.
var roots = []struct {
	dir     string
	weight  int    // percent of the skills
	license string // file name, "" for none
	licKey  string // which text
	licPct  int    // percent of the root's skills that carry it
}{
	{".claude/skills", 15, "", "", 0},
	{"vendor/anthropic-skills", 30, "LICENSE.txt", "Apache License, Version 2.0", 90},
	{"vendor/community-skills", 35, "LICENSE", "MIT License", 45},
	{"team/skills", 20, "LICENSE.md", "Proprietary license of the team", 25},
}

var licenseSizes = map[string]int{
	"Apache License, Version 2.0":     11_357,
	"MIT License":                     1_077,
	"Proprietary license of the team": 2_400,
}

type kind int

const (
	normal     kind = iota
	original        // normal, and a later root has a copy of its name
	copied          // shadowed by an original in an earlier root
	byWorkflow      // shadowed by an in-house Workflow
	invalid
)

// invalidKinds are the ways a skill is broken, with the code each draws.
// Common mistakes appear more than once.
var invalidKinds = []struct{ name, code string }{
	{"yaml-colon", "yaml-invalid"},
	{"name-upper", "name-invalid"},
	{"description-missing", "description-missing"},
	{"name-mismatch", "name-mismatch"},
	{"frontmatter-missing", "frontmatter-missing"},
	{"yaml-unclosed-quote", "yaml-invalid"},
	{"name-underscore", "name-invalid"},
	{"description-too-long", "description-too-long"},
	{"field-type", "field-type"},
	{"yaml-tab", "yaml-invalid"},
	{"name-missing", "name-missing"},
	{"yaml-duplicate-key", "yaml-invalid"},
	{"frontmatter-unclosed", "frontmatter-unclosed"},
	{"yaml-colon", "yaml-invalid"},
	{"name-double-hyphen", "name-invalid"},
	{"yaml-not-mapping", "yaml-invalid"},
	{"compatibility-too-long", "compatibility-too-long"},
	{"description-empty", "description-missing"},
	{"frontmatter-missing", "frontmatter-missing"},
	{"yaml-flow-unclosed", "yaml-invalid"},
	{"encoding-invalid", "encoding-invalid"},
	{"name-too-long", "name-invalid"},
	{"name-trailing-hyphen", "name-invalid"},
	{"name-mismatch", "name-mismatch"},
}

type plan struct {
	root    int
	name    string // directory name
	domain  string
	action  string
	kind    kind
	bad     int  // index into invalidKinds, for kind invalid
	rich    bool // scripts/, references/, assets/
	big     []int
	lower   bool // skill.md
	tooBig  bool // a SKILL.md over 1 MiB (file-too-large)
	license bool
}

// Write writes a corpus into dir, which must be empty or not exist.
func Write(dir string, opts Options) (Stats, error) {
	n := cmp.Or(opts.Skills, 1000)
	if n < 0 {
		return Stats{}, fmt.Errorf("corpus: %d skills", n)
	}
	if entries, err := os.ReadDir(dir); err == nil && len(entries) > 0 {
		return Stats{}, fmt.Errorf("corpus: %s is not empty", dir)
	}
	w := &writer{dir: dir, seed: opts.Seed}
	plans := makePlans(opts.Seed, n)
	if err := w.writeAll(plans); err != nil {
		return Stats{}, err
	}
	return w.stats, nil
}

// makePlans decides every skill: its root, name, fate and shape.
func makePlans(seed uint64, n int) []*plan {
	r := rand.New(rand.NewPCG(seed, 0x5c111))
	plans := make([]*plan, n)
	// Names taken, lower-cased so that no two clash on a case-insensitive
	// disk; the in-house Workflows' slugs first.
	taken := map[string]bool{}
	for _, slug := range []string{"release-notes", "triage"} {
		taken[slug] = true
	}
	unique := func(base string) string {
		name := base
		for i := 2; taken[name]; i++ {
			name = fmt.Sprintf("%s-%d", base, i)
		}
		taken[name] = true
		return name
	}
	for i := range plans {
		p := &plan{domain: pick(r, domains), action: pick(r, actions)}
		for k, w := 0, r.IntN(100); k < len(roots); k++ {
			if w < roots[k].weight || k == len(roots)-1 {
				p.root = k
				break
			}
			w -= roots[k].weight
		}
		name := p.domain + "-" + p.action
		if r.IntN(3) == 0 {
			name = p.domain + "-" + pick(r, topics) + "-" + p.action
		}
		p.name = unique(name)
		p.license = roots[p.root].license != "" && r.IntN(100) < roots[p.root].licPct
		plans[i] = p
	}

	// Fates, in a seeded order: copies of earlier roots' names (~2%), one
	// skill shadowed by an in-house Workflow, then the invalid ones (~8%).
	perm := r.Perm(n)
	nCopies := (n*2 + 50) / 100
	for _, i := range perm {
		if nCopies == 0 {
			break
		}
		c := plans[i]
		if c.root == 0 || c.kind != normal {
			continue
		}
		for _, j := range perm {
			if o := plans[j]; o.kind == normal && o.root < c.root {
				o.kind, c.kind = original, copied
				delete(taken, c.name)
				c.name, c.domain, c.action = o.name, o.domain, o.action
				nCopies--
				break
			}
		}
	}
	for _, i := range perm {
		if p := plans[i]; p.kind == normal && p.root == 0 {
			p.kind = byWorkflow
			break
		}
	}
	nInvalid := (n*8 + 50) / 100
	bad := 0
	for _, i := range perm {
		if bad == nInvalid {
			break
		}
		p := plans[i]
		if p.kind != normal {
			continue
		}
		p.kind, p.bad = invalid, bad%len(invalidKinds)
		bad++
		switch invalidKinds[p.bad].name {
		case "name-upper":
			p.name = rename(taken, p.name, strings.ToUpper(p.name[:1])+p.name[1:])
		case "name-underscore":
			p.name = rename(taken, p.name, strings.ReplaceAll(p.name, "-", "_"))
		case "name-double-hyphen":
			p.name = rename(taken, p.name, strings.Replace(p.name, "-", "--", 1))
		case "name-trailing-hyphen":
			p.name = rename(taken, p.name, p.name+"-")
		case "name-too-long":
			long := p.name
			for len(long) <= 64 {
				long += "-" + pick(r, words)
			}
			p.name = rename(taken, p.name, long)
		}
	}
	if n >= 100 { // one SKILL.md over 1 MiB, as some generated docs are
		for _, i := range perm {
			if p := plans[i]; p.kind == normal {
				p.kind, p.tooBig = invalid, true
				break
			}
		}
	}

	// Shapes: ~10% rich skills, a few big assets (one content twice), a
	// few lower-case skill.md.
	nBig := (n + 100) / 200
	bigSlot := 0
	for _, i := range perm {
		p := plans[i]
		if p.kind == invalid || r.IntN(10) != 0 {
			continue
		}
		p.rich = true
		if bigSlot < nBig && (p.kind == normal || p.kind == original) {
			content := bigSlot
			if bigSlot == 1 {
				content = 0 // the same font vendored into two skills
			}
			p.big = append(p.big, content)
			bigSlot++
		}
	}
	lower := n / 300
	for _, i := range slices.Backward(perm) {
		if lower == 0 {
			break
		}
		if p := plans[i]; p.kind == normal && !p.rich {
			p.lower = true
			lower--
		}
	}
	return plans
}

// rename gives a plan a new, unused directory name.
func rename(taken map[string]bool, old, name string) string {
	delete(taken, old)
	for i := 2; taken[strings.ToLower(name)]; i++ {
		name = fmt.Sprintf("%s%d", name, i)
	}
	taken[strings.ToLower(name)] = true
	return name
}

type writer struct {
	dir    string
	seed   uint64
	stats  Stats
	files  []string // the files written into the current skill directory (workspace-relative)
	linked int      // skills without a hidden file given a link section so far
	hidden int      // skills with one given a link section so far
}

// file writes one file, its mode set exactly (whatever the umask).
func (w *writer) file(rel string, data []byte, mode fs.FileMode, underRoot bool) error {
	p := filepath.Join(w.dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	if _, err := os.Lstat(p); err == nil {
		return fmt.Errorf("corpus: %s written twice", rel)
	}
	if err := os.WriteFile(p, data, mode); err != nil {
		return err
	}
	if err := os.Chmod(p, mode); err != nil {
		return err
	}
	w.files = append(w.files, rel)
	if underRoot {
		w.stats.Files++
		w.stats.Bytes += int64(len(data))
		if mode&0o111 != 0 {
			w.stats.Executables++
		}
		if len(data) >= 1<<20 {
			w.stats.BigAssets++
		}
	}
	return nil
}

func (w *writer) writeAll(plans []*plan) error {
	st := &w.stats
	for _, r := range roots {
		st.Roots = append(st.Roots, r.dir)
	}
	if err := w.manifest(); err != nil {
		return err
	}
	if err := w.workflows(plans); err != nil {
		return err
	}
	if err := w.rootExtras(); err != nil {
		return err
	}
	for i, p := range plans {
		r := rand.New(rand.NewPCG(w.seed, uint64(i)+1<<40))
		lr := rand.New(rand.NewPCG(w.seed, uint64(i)+2<<40)) // links: a stream of their own, so the rest is as it was
		dir := path.Join(roots[p.root].dir, p.name)
		if err := w.skill(r, lr, p, dir); err != nil {
			return err
		}
		st.Skills++
		switch p.kind {
		case normal, original:
			st.Ingested = append(st.Ingested, dir)
		case copied, byWorkflow:
			st.Shadowed = append(st.Shadowed, dir)
		case invalid:
			code := "file-too-large"
			if !p.tooBig {
				code = invalidKinds[p.bad].code
			}
			st.Invalid = append(st.Invalid, Invalid{dir, code})
		}
		if p.rich {
			st.Rich++
		}
	}
	slices.Sort(st.Ingested)
	slices.Sort(st.Shadowed)
	slices.SortFunc(st.Invalid, func(a, b Invalid) int { return strings.Compare(a.Dir, b.Dir) })
	slices.SortFunc(st.BrokenLinks, func(a, b BrokenLink) int {
		return cmp.Or(strings.Compare(a.Dir, b.Dir), strings.Compare(a.Target, b.Target))
	})
	return nil
}

func (w *writer) manifest() error {
	var b strings.Builder
	fmt.Fprintf(&b, "# Project manifest of a synthetic agent workspace (corpus seed %d).\n", w.seed)
	b.WriteString("# skillgen reads only [skills]; the other tables belong to the host.\n\n")
	b.WriteString("[scope]\nallow = [{ target = \"docs\", permission = \"read\" }]\n\n")
	b.WriteString("[skills]\n# Earlier directories win: the project's own skills shadow vendored ones.\ndirectories = [\n")
	for _, r := range roots {
		fmt.Fprintf(&b, "  %q,\n", r.dir)
	}
	b.WriteString("]\n")
	return w.file(ManifestPath, []byte(b.String()), 0o644, false)
}

// workflows writes the in-house Workflows; the last one takes the name of
// a skill in the first root, which it shadows.
func (w *writer) workflows(plans []*plan) error {
	r := rand.New(rand.NewPCG(w.seed, 0x3f10))
	type wf struct {
		slug, front string
	}
	wfs := []wf{
		{"release-notes", "description: >\n  Draft the release notes of this repository from the merged pull requests,\n  in the house style.\nmodel_invokation: true\nrequires: [changelog-style, release-calendar]\ncreated_at: 2025-01-14\nupdated_at: 2025-06-02T09:30:00Z\n"},
		{"triage", "description: Triage a new issue (labels, owner, priority) the way the team does it.\nuser_invocable: true\nmodel_invokation: false\nowner: platform-team\n"},
	}
	for _, p := range plans {
		if p.kind == byWorkflow {
			wfs = append(wfs, wf{p.name, "description: The team's own take on " + p.domain + " " + p.action + ", which replaces the vendored skill.\nmodel_invokation: true\nrequires:\n  - " + p.domain + "-conventions\n"})
		}
	}
	for _, f := range wfs {
		var b strings.Builder
		b.WriteString("---\n" + f.front + "---\n\n")
		markdown(r, &b, title(f.slug), between(r, 1500, 4000), false)
		if f.slug == "release-notes" { // resolved against the workflow's own directory
			b.WriteString("The project's skills are listed in [the manifest](../../manifest.toml).\n")
		}
		if err := w.file(path.Join(WorkflowDir, f.slug+".md"), []byte(b.String()), 0o644, false); err != nil {
			return err
		}
		w.stats.Workflows = append(w.stats.Workflows, f.slug)
	}
	slices.Sort(w.stats.Workflows)
	return nil
}

// rootExtras writes what collections keep beside their skills: a README,
// CI configuration in a dot-directory, a template directory with no
// SKILL.md. None of it is a skill.
func (w *writer) rootExtras() error {
	r := rand.New(rand.NewPCG(w.seed, 0xe7a5))
	for i, root := range roots {
		if i == 0 {
			continue
		}
		var b strings.Builder
		markdown(r, &b, "Skills of "+root.dir, between(r, 3000, 8000), true)
		if err := w.file(root.dir+"/README.md", []byte(b.String()), 0o644, true); err != nil {
			return err
		}
	}
	ci := "name: validate\non: [push, pull_request]\njobs:\n  validate:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - run: skills-ref validate skills/*\n"
	if err := w.file(roots[1].dir+"/.github/workflows/validate.yml", []byte(ci), 0o644, true); err != nil {
		return err
	}
	var b strings.Builder
	markdown(r, &b, "Template", 1200, false)
	return w.file(roots[3].dir+"/_template/README.md", []byte(b.String()), 0o644, true)
}

// skill writes one skill directory. Its SKILL.md is written last, so that
// its links can name the files written before it; r draws as it always did,
// lr draws the links.
func (w *writer) skill(r, lr *rand.Rand, p *plan, dir string) error {
	crlf := r.IntN(20) == 0
	src := skillMD(r, p)
	file := "SKILL.md"
	if p.lower {
		file = "skill.md"
	}
	bom := !p.tooBig && p.kind != invalid && r.IntN(100) == 0
	w.files = w.files[:0]
	if p.license {
		key := roots[p.root].licKey
		if err := w.file(dir+"/"+roots[p.root].license, []byte(licenseText(key, licenseSizes[key])), 0o644, true); err != nil {
			return err
		}
	}
	if r.IntN(50) == 0 { // a macOS leftover, which skillgen leaves out
		if err := w.file(dir+"/.DS_Store", randomBytes(w.seed^0xd5, uint64(r.IntN(8)), 6148, "\x00\x00\x00\x01Bud1"), 0o644, true); err != nil {
			return err
		}
	}
	if p.rich {
		if err := w.resources(r, p, dir); err != nil {
			return err
		}
	}
	hidden := slices.Contains(w.files, dir+"/.DS_Store")
	if (p.kind == normal || p.kind == original) && (lr.IntN(5) == 0 || hidden) {
		src += w.links(lr, dir, hidden)
	}
	if crlf {
		src = strings.ReplaceAll(src, "\n", "\r\n")
		w.stats.CRLF++
	}
	data := []byte(src)
	if bom {
		data = append([]byte("\xEF\xBB\xBF"), data...)
	}
	return w.file(dir+"/"+file, data, 0o644, true)
}

// links returns the section of links a skill's body ends with: links to
// files written into dir (as in w.files), in the shapes real skills use,
// and link-like text in code. A few are given one broken link: every
// other skill with a hidden file, a link to it; every eighth of the rest,
// a missing file or a path out of the skill, in turn.
func (w *writer) links(lr *rand.Rand, dir string, hidden bool) string {
	var own []string // the skill's files, but hidden ones
	for _, f := range w.files {
		rel := strings.TrimPrefix(f, dir+"/")
		if !strings.HasPrefix(rel, ".") {
			own = append(own, rel)
		}
	}
	slices.Sort(own)
	var b strings.Builder
	b.WriteString("\n## Files\n\n")
	good := func(text, target string) {
		fmt.Fprintf(&b, "- [%s](%s)\n", text, target)
		w.stats.Links++
	}
	for _, i := range lr.Perm(len(own))[:min(len(own), between(lr, 1, 5))] {
		f := own[i]
		switch k := lr.IntN(6); {
		case strings.HasSuffix(f, ".png") && k < 3:
			fmt.Fprintf(&b, "- ![%s](%s)\n", path.Base(f), f)
			w.stats.Links++
		case strings.HasPrefix(f, "scripts/") && k < 2:
			good("run "+path.Base(f), "{baseDir}/"+f)
		case strings.HasPrefix(f, "scripts/") && k < 3:
			good("run "+path.Base(f), "${CLAUDE_SKILL_DIR}/"+f)
		case strings.HasSuffix(f, ".md") && k < 2:
			good(strings.TrimSuffix(path.Base(f), ".md"), f+"#overview")
		case k == 5 && strings.Contains(f, "/"):
			good(path.Dir(f), path.Dir(f)+"/")
		default:
			good(path.Base(f), "./"+f)
		}
	}
	b.WriteString("- [Spec](https://agentskills.io/specification), [top](#overview)\n\n")
	b.WriteString("Link as `[x](a.md)`:\n```\n[x](no/such.md)\n```\n") // code: never a link

	var target, kind string
	if hidden {
		if w.hidden++; w.hidden%2 == 1 {
			target, kind = ".DS_Store", "hidden"
		}
	} else if w.linked++; w.linked%8 == 0 {
		switch w.linked / 8 % 3 {
		case 1:
			target, kind = "references/troubleshooting-old.md", "missing"
		case 2:
			target, kind = "../shared/CONVENTIONS.md", "leaves"
		default:
			target, kind = "{baseDir}/scripts/setup.sh", "missing"
		}
	}
	if target != "" {
		fmt.Fprintf(&b, "\nSee also [this](%s).\n", target)
		w.stats.BrokenLinks = append(w.stats.BrokenLinks, BrokenLink{Dir: dir, Target: target, Kind: kind})
	}
	return b.String()
}

// resources writes the scripts/, references/ and assets/ of a rich skill:
// about 150 KB in about a dozen files.
func (w *writer) resources(r *rand.Rand, p *plan, dir string) error {
	exts := []string{".py", ".sh", ".py", ".js"}
	used := map[string]bool{}
	for i := range between(r, 2, 7) {
		ext := pick(r, exts)
		name := fmt.Sprintf("scripts/%s_%s%s", pick(r, words), p.domain, ext)
		if i == 0 {
			name = "scripts/" + strings.ReplaceAll(p.action, "-", "_") + ext
		}
		if used[name] || name == "scripts/common.sh" {
			name = fmt.Sprintf("scripts/%s_%d%s", p.domain, i, ext)
		}
		used[name] = true
		mode := fs.FileMode(0o644)
		if ext == ".sh" || r.IntN(2) == 0 {
			mode = 0o755
		}
		if err := w.file(dir+"/"+name, []byte(script(r, ext, logBetween(r, 600, 9000))), mode, true); err != nil {
			return err
		}
	}
	if r.IntN(3) == 0 { // the helper every skill of a collection copies
		if err := w.file(dir+"/scripts/common.sh", []byte(script(rand.New(rand.NewPCG(uint64(p.root), 7)), ".sh", 3000)), 0o755, true); err != nil {
			return err
		}
	}
	refs := []string{"REFERENCE.md", "api.md", "forms.md", "examples.md", "troubleshooting.md", "style-guide.md"}
	for _, i := range r.Perm(len(refs))[:between(r, 1, 6)] {
		var b strings.Builder
		markdown(r, &b, title(p.domain)+" "+strings.TrimSuffix(refs[i], ".md"), logBetween(r, 3000, 40_000), true)
		text := b.String()
		if r.IntN(10) == 0 {
			text = strings.ReplaceAll(text, "\n", "\r\n")
		}
		if err := w.file(dir+"/references/"+refs[i], []byte(text), 0o644, true); err != nil {
			return err
		}
	}
	for i := range between(r, 1, 8) {
		var name string
		var data []byte
		switch k := r.IntN(6); k {
		case 0, 1:
			name = fmt.Sprintf("assets/%s-%d.png", pick(r, words), i)
			data = randomBytes(w.seed, r.Uint64(), logBetween(r, 4000, 120_000), "\x89PNG\r\n\x1a\n")
		case 2:
			name = fmt.Sprintf("assets/fonts/%s-%d.ttf", title(pick(r, words)), i)
			data = randomBytes(w.seed, r.Uint64(), logBetween(r, 20_000, 90_000), "\x00\x01\x00\x00")
		default:
			ext := pick(r, []string{".html", ".json", ".csv", ".txt", ".xml"})
			name = fmt.Sprintf("assets/template-%d%s", i, ext)
			var b strings.Builder
			for b.Len() < logBetween(r, 500, 20_000) {
				sentence(r, &b, between(r, 5, 15))
				b.WriteByte('\n')
			}
			data = []byte(b.String())
		}
		if err := w.file(dir+"/"+name, data, 0o644, true); err != nil {
			return err
		}
	}
	for _, content := range p.big {
		br := rand.New(rand.NewPCG(w.seed, uint64(content)+0xb16))
		size := between(br, 1_500_000, 4_000_000)
		name, magic := fmt.Sprintf("assets/fonts/Display-%d.ttf", content), "\x00\x01\x00\x00"
		if content%2 == 1 {
			name, magic = fmt.Sprintf("assets/hero-%d.png", content), "\x89PNG\r\n\x1a\n"
		}
		if err := w.file(dir+"/"+name, randomBytes(w.seed, uint64(content)+0xb16, size, magic), 0o644, true); err != nil {
			return err
		}
	}
	return nil
}

// randomBytes returns size incompressible bytes after magic, the same for
// the same seeds.
func randomBytes(seed, stream uint64, size int, magic string) []byte {
	var key [32]byte
	binary.LittleEndian.PutUint64(key[0:], seed)
	binary.LittleEndian.PutUint64(key[8:], stream)
	data := make([]byte, size)
	rand.NewChaCha8(key).Read(data)
	copy(data, magic)
	return data
}

// skillMD returns the text of a skill's SKILL.md, LF line ends.
func skillMD(r *rand.Rand, p *plan) string {
	var fm strings.Builder
	desc := description(r, p.domain, p.action, logBetween(r, 60, 500))
	field := func(k, v string) { fm.WriteString(k + ": " + v + "\n") }
	bad := ""
	if p.kind == invalid && !p.tooBig {
		bad = invalidKinds[p.bad].name
	}

	name := p.name
	switch bad {
	case "name-mismatch":
		name = p.name + "-" + pick(r, []string{"v2", "skill", "pro", "beta"})
	case "name-missing":
		name = ""
	}
	if name != "" {
		field("name", name)
	}
	if bad == "yaml-duplicate-key" {
		field("name", p.name)
	}

	switch bad {
	case "description-missing":
	case "description-empty":
		field("description", `""`)
	case "description-too-long":
		var b strings.Builder
		for utf8.RuneCountInString(b.String()) < 1100 { // over 1024 runes, some of them multi-byte
			sentence(r, &b, 12)
			b.WriteString(" " + pick(r, nonASCII) + " ")
		}
		field("description", strings.TrimSpace(b.String()))
	case "yaml-colon": // the most common mistake in public collections
		field("description", "Use this skill: "+strings.ToLower(desc[:1])+desc[1:])
	case "yaml-unclosed-quote":
		field("description", `"`+desc)
	case "field-type":
		field("description", "["+p.domain+", "+p.action+"]")
	default:
		writeDescription(r, &fm, desc)
	}

	if p.license || r.IntN(3) == 0 {
		field("license", pick(r, []string{"Apache-2.0", "MIT", "Complete terms in LICENSE.txt", "Proprietary. LICENSE.txt has complete terms"}))
	}
	switch {
	case bad == "compatibility-too-long":
		var b strings.Builder
		for b.Len() < 700 {
			sentence(r, &b, 10)
			b.WriteByte(' ')
		}
		field("compatibility", strings.TrimSpace(b.String()))
	case r.IntN(10) == 0:
		field("compatibility", "Requires Python 3.10+ and "+p.domain+" command-line tools on the PATH")
	}
	switch k := r.IntN(20); {
	case k < 3:
		field("allowed-tools", "Read Grep Glob Bash(python scripts/*.py)")
	case k == 3:
		fm.WriteString("allowed-tools:\n  - Read\n  - Write\n  - Bash(git diff:*)\n")
	}
	switch k := r.IntN(8); {
	case bad == "yaml-tab":
		fm.WriteString("metadata:\n\tauthor: " + pick(r, words) + "\n")
	case k < 2:
		fmt.Fprintf(&fm, "metadata:\n  author: %s-org\n  version: \"%d.%d\"\n  category: %s\n", pick(r, words), r.IntN(3)+1, r.IntN(10), p.domain)
		if r.IntN(10) == 0 {
			fm.WriteString("  tags: [" + p.domain + ", " + p.action + "]\n") // metadata-invalid: dropped with a warning
		}
	}
	switch k := r.IntN(20); { // keys the spec does not know: warnings
	case k == 0:
		field("version", fmt.Sprintf("%d.%d.%d", r.IntN(3), r.IntN(10), r.IntN(20)))
	case k == 1:
		field("tags", "["+p.domain+", "+pick(r, topics)+"]")
	case k == 2:
		field("disable-model-invocation", "false")
	case k == 3:
		fm.WriteString("requires:\n  - python3\n  - " + p.domain + "\n")
	}
	if bad == "yaml-flow-unclosed" {
		field("tags", "["+p.domain+", "+p.action)
	}

	front := fm.String()
	if bad == "yaml-not-mapping" {
		front = "- name: " + p.name + "\n- description: " + desc + "\n"
	}
	fence := "---\n"
	if r.IntN(50) == 0 {
		fence = "---  \n" // trailing spaces are tolerated
	}

	var b strings.Builder
	switch bad {
	case "frontmatter-missing":
		b.WriteString("# " + title(p.name) + "\n\n" + front + "\n")
	case "frontmatter-unclosed":
		b.WriteString(fence + front + "\n")
	default:
		b.WriteString(fence + front + fence + "\n")
	}
	size := logBetween(r, 2000, 20_000) - b.Len()
	if p.tooBig {
		size = 1<<20 + 4096
	}
	rules := bad != "frontmatter-unclosed"
	markdown(r, &b, title(strings.ReplaceAll(p.name, "-", " ")), size, rules)
	text := b.String()
	if bad == "encoding-invalid" { // a Latin-1 "é" pasted from an old document
		i := len(text) / 2
		text = text[:i] + "caf\xe9 " + text[i:]
	}
	return text
}

// writeDescription writes a valid description in one of the styles real
// skills use: plain, folded, literal, double- or single-quoted.
func writeDescription(r *rand.Rand, fm *strings.Builder, desc string) {
	switch k := r.IntN(20); {
	case k < 11:
		fm.WriteString("description: " + desc + "\n")
	case k < 15:
		fm.WriteString("description: " + pick(r, []string{">", ">-"}) + "\n")
		for _, l := range wrap(desc, 72) {
			fm.WriteString("  " + l + "\n")
		}
	case k < 16:
		fm.WriteString("description: |-\n")
		for _, l := range wrap(desc, 72) {
			fm.WriteString("  " + l + "\n")
		}
	case k < 19:
		fm.WriteString("description: \"" + desc + "\"\n")
	default:
		fm.WriteString("description: '" + desc + "'\n")
	}
}

// TreeHash returns a digest of every regular file below dir: its slash
// path, its executable bit and its content, in path order. Two trees with
// the same hash hold the same bytes under the same names.
func TreeHash(dir string) (string, error) {
	type entry struct {
		rel  string
		exec bool
		sum  [32]byte
	}
	var entries []entry
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		if !d.Type().IsRegular() {
			return fmt.Errorf("%s is not a regular file", p)
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		defer f.Close()
		h := sha256.New()
		if _, err := io.Copy(h, f); err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		e := entry{rel: filepath.ToSlash(rel), exec: info.Mode()&0o111 != 0}
		h.Sum(e.sum[:0])
		entries = append(entries, e)
		return nil
	})
	if err != nil {
		return "", err
	}
	if len(entries) == 0 {
		return "", errors.New("corpus: no files under " + dir)
	}
	slices.SortFunc(entries, func(a, b entry) int { return strings.Compare(a.rel, b.rel) })
	h := sha256.New()
	for _, e := range entries {
		fmt.Fprintf(h, "%s\x00%t\x00%x\n", e.rel, e.exec, e.sum)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
