package runtime_test

import (
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"maps"
	"path"
	"slices"
	"strings"
	"testing"

	"github.com/skillgen/skillgen/runtime"
	"github.com/skillgen/skillgen/runtime/skillgenimpl"
)

// The fixture is served the way skillgen's generated code is: its
// workflows and files are lowered to a skillgenimpl.Spec (registryOf),
// encoded into a table and decoded by the runtime.
//
// It mixes in-house workflows (no files; one not user invocable, one not
// model invocable) and skills (nested files, an executable script, empty
// files, binary bytes, odd but legal names), and slugs whose byte order
// differs between the workflow list ("a" < "a-b" < "a0") and the file list
// ("a-b/…" < "a/…" < "a0/…", since '-' < '/' < '0').

var (
	dataASkill = "---\nname: a\ndescription: The shortest slug.\n---\n# A\n\nBody of a.\n"

	dataABSkill = "---\nname: a-b\ndescription: Slug with a hyphen; sorts after \"a\" and before \"a0\".\n---\nBody of a-b.\n"
	dataABTodo  = "- one\n- two\n"
	dataEmpty   = ""

	dataA0Skill = "---\nname: a0\ndescription: Found as lower-case skill.md.\n---\nBody of a0.\n"

	dataNamesSkill = "---\nname: names\ndescription: Files with odd but legal names.\n---\nBody of names.\n"
	dataUpperA     = "upper A\n"
	dataLowerA     = "lower a\n"
	dataCon        = "reserved on Windows\n"
	dataHash       = "# hash\n"
	dataSpace      = "with a space\n"
	dataUnder      = "leading underscore\n"
	dataUnicode    = "ünïcödé\n"
	dataJapanese   = "日本語のメモ\n"
	dataStar       = "star question colon backslash\n"
	dataOddOne     = "sorts before the odd/ directory's children but after it by name\n"

	dataPDFSkill = "---\r\nname: pdf-tools\r\ndescription: |-\r\n  Extract text & tables from <PDF> files, \"quoted\" and 'single'.\r\n  Use for PDFs.\r\n---\r\n# PDF tools\r\n\r\nRun scripts/extract.sh.\r\n"
	dataPDFBin   = "\x00\x01\xff\xfe\x89PNG\r\n\x1a\n\x00"
	dataPDFForm  = "Name: ____\n"
	dataPDFRef   = "# Reference\n\npdftotext -layout in.pdf out.txt\n"
	dataPDFNotes = "scripts.md sorts before scripts/ as a path, after it as a name\n"
	dataPDFShell = "#!/bin/sh\nset -eu\npdftotext -layout \"$1\" -\n"
)

// body returns the Markdown after the frontmatter, as generated code slices
// it out of the embedded SKILL.md.
func body(skillMD string) string {
	_, b, ok := strings.Cut(skillMD, "\n---\n")
	if !ok {
		_, b, ok = strings.Cut(skillMD, "\n---\r\n")
	}
	if !ok {
		panic("fixture: no frontmatter in " + skillMD)
	}
	return b
}

// Hashes and sizes of Workflow.Files are literals, as in generated code;
// TestFixtureConsistent checks them against the entries.
var fixtureWorkflows = []runtime.Workflow{
	{
		Slug:            "a",
		Description:     "The shortest slug.",
		ModelInvocation: true,
		UserInvocable:   true,
		Requires:        []string{},
		Body:            body(dataASkill),
		Source:          runtime.Source{Kind: runtime.KindSkill, Path: ".claude/skills/a/SKILL.md"},
		Files: []runtime.File{
			{Path: "SKILL.md", Mode: 0o644, Size: 64, SHA256: "040b699fd01e539a5538282886f93710dcbd95bccfd1104e6ad64b36ed464397"},
		},
	},
	{
		Slug:            "a-b",
		Description:     "Slug with a hyphen; sorts after \"a\" and before \"a0\".",
		ModelInvocation: true,
		UserInvocable:   true,
		Requires:        []string{},
		Body:            body(dataABSkill),
		Source:          runtime.Source{Kind: runtime.KindSkill, Path: ".claude/skills/a-b/SKILL.md"},
		License:         "MIT",
		Files: []runtime.File{
			{Path: "SKILL.md", Mode: 0o644, Size: 97, SHA256: "05693f88bba5e706c5162950b59f9a4f356c921cbe65e3b4ea5537956695c72c"},
			{Path: "notes/empty.txt", Mode: 0o644, Size: 0, SHA256: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
			{Path: "notes/todo.md", Mode: 0o644, Size: 12, SHA256: "db85c80086685af004a35de9b8b138d77b68b7d8e881693aa16b87c5422de04d"},
		},
	},
	{
		Slug:            "a0",
		Description:     "Found as lower-case skill.md.",
		ModelInvocation: true,
		UserInvocable:   true,
		Requires:        []string{},
		Body:            body(dataA0Skill),
		Source:          runtime.Source{Kind: runtime.KindSkill, Path: "/opt/shared skills/a0/skill.md"},
		Files: []runtime.File{
			{Path: "skill.md", Mode: 0o644, Size: 72, SHA256: "e8d6fc275c4b89ad8457dc03067cb94d24c61c9682633287a8ebd596e5e05315"},
		},
	},
	{
		Slug:            "deploy",
		Description:     "Deploy the service (model only).",
		ModelInvocation: true,
		UserInvocable:   false,
		Requires:        []string{"release-policy", "oncall"},
		Body:            "Deploy with care.\n",
		Source:          runtime.Source{Kind: runtime.KindWorkflow, Path: ".insomnia/memory/workflow/deploy.md"},
	},
	{
		Slug:            "names",
		Description:     "Files with odd but legal names.",
		ModelInvocation: true,
		UserInvocable:   true,
		Requires:        []string{},
		Body:            body(dataNamesSkill),
		Source:          runtime.Source{Kind: runtime.KindSkill, Path: ".claude/skills/names/SKILL.md"},
		Metadata:        []runtime.Meta{{Key: "author", Value: "me"}, {Key: "version", Value: "1.0"}},
		Files: []runtime.File{
			{Path: "#hash.md", Mode: 0o644, Size: 7, SHA256: "9f8746d5ce27f3f8ec8ee3931ec9384f3c6bbba9a21d1d274c35c347ace16899"},
			{Path: "A.md", Mode: 0o644, Size: 8, SHA256: "aed63b46acf487ad6da4cabdf700ee9f214c0ac0ce5d66761e8d677cb411e65b"},
			{Path: "SKILL.md", Mode: 0o644, Size: 80, SHA256: "ff4e51510839b24eafc962c9d6fc60f8f6f85f786930e4719256a3199de5dd22"},
			{Path: "_underscore.md", Mode: 0o644, Size: 19, SHA256: "066a78eb85efcdf9ee5f6382a6e1b5942391bab0aaab1b5c25736339b8268907"},
			{Path: "a.md", Mode: 0o644, Size: 8, SHA256: "b8406bfeafdca2ece3de71edea1419a0ec2d5da7a7881961aa596557e93ff0d3"},
			{Path: "con.md", Mode: 0o644, Size: 20, SHA256: "7a65af0721cebcc83402412f64e1eee9f8b59be13a1630599e487df95f43fdd0"},
			{Path: "empty", Mode: 0o644, Size: 0, SHA256: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
			{Path: "has space.md", Mode: 0o644, Size: 13, SHA256: "b362cbb61037361fbed5e2eeeccec29c6df927b07657f1f433f1ae7cdecb3956"},
			{Path: "odd-one.md", Mode: 0o644, Size: 64, SHA256: "0516dcede501237f814f0d256fce40e768740b7ffb56366c943448b2fa654ad6"},
			{Path: "odd/*?:\\.txt", Mode: 0o644, Size: 30, SHA256: "9936be12e337833916311b1aebf324bfd105db2220fb33d436c5fd6179c2f8ab"},
			{Path: "ünïcödé.md", Mode: 0o644, Size: 12, SHA256: "f48985dcfa95af8501d60c4bd8466942fe426edea1a13bf101eaf28129478899"},
			{Path: "日本語/メモ.txt", Mode: 0o644, Size: 19, SHA256: "2832f0355ae5723daad96fddacd90e90838e97133143dd2b3cb8eb208d9a04ba"},
		},
	},
	{
		Slug:            "pdf-tools",
		Description:     "Extract text & tables from <PDF> files, \"quoted\" and 'single'.\nUse for PDFs.",
		ModelInvocation: true,
		UserInvocable:   true,
		Requires:        []string{},
		Body:            body(dataPDFSkill),
		Source:          runtime.Source{Kind: runtime.KindSkill, Path: ".claude/skills/pdf-tools/SKILL.md"},
		License:         "Apache-2.0",
		Compatibility:   "Requires poppler-utils",
		AllowedTools:    "Bash(pdftotext:*) Read",
		Files: []runtime.File{
			{Path: "SKILL.md", Mode: 0o644, Size: 167, SHA256: "6035aa715b4c92d7095a909fcbca1ef0a64af8d0e5fda94fa645163062416bdf"},
			{Path: "assets/deep/nested/form.txt", Mode: 0o644, Size: 11, SHA256: "3297046908c998e65abdb3a2d6139dbd85f3ebf66278e2553c6e62f7593c6dbf"},
			{Path: "assets/logo.bin", Mode: 0o644, Size: 13, SHA256: "468e6f4c15e1f0199d3455dbfe9b03c2fbbdbef1d345d7ed54384f7658145ed3"},
			{Path: "references/REFERENCE.md", Mode: 0o644, Size: 46, SHA256: "d99adde21ed937acc50f522327ed75c30d38adf04ebe26b1093df33b2e263e5e"},
			{Path: "scripts.md", Mode: 0o644, Size: 63, SHA256: "eeaaec97ecbd8f3ef601e79426fde31152c74060e705f86f9b465e9e645732b1"},
			{Path: "scripts/extract.sh", Mode: 0o755, Size: 43, SHA256: "14e2a35636240ffd12d02bd735af01b17269f874dee3f38d718c470183673f2b"},
		},
	},
	{
		Slug:          "standup",
		Description:   "Summarize yesterday (user only).",
		UserInvocable: true,
		Requires:      []string{},
		Body:          "List yesterday's commits.\n",
		Source:        runtime.Source{Kind: runtime.KindWorkflow, Path: ".insomnia/memory/workflow/standup.md"},
	},
	{
		Slug:            "tricky",
		Description:     "Line one\r\nline two\nline three\rend",
		ModelInvocation: true,
		UserInvocable:   true,
		Requires:        []string{},
		Body:            "",
		Source:          runtime.Source{Kind: runtime.KindWorkflow, Path: ".insomnia/memory/workflow/tricky.md"},
	},
}

var fixtureNotifications = []runtime.Notification{
	{Code: "shadowed", Message: "skill /deploy from skill (.claude/skills/deploy/SKILL.md) was shadowed by existing workspace workflow (.insomnia/memory/workflow/deploy.md)"},
	{Code: "skipped", Message: "skill /bad from skill (.claude/skills/bad/SKILL.md) was skipped: description is missing"},
	{Code: "shadowed", Message: "skill /a from skill (/opt/shared skills/a/SKILL.md) was shadowed by existing skill (.claude/skills/a/SKILL.md)"},
}

// Registry is what a generated package exports.
var Registry = registryOf(fixtureWorkflows, fixtureContents(), fixtureNotifications)

// fixtureContents returns the bytes of every fixture file by path.
func fixtureContents() map[string]string {
	m := map[string]string{}
	for p, f := range fixtureFiles {
		m[p] = f.data
	}
	return m
}

// registryOf serves ws as generated code would, through a
// skillgenimpl.Spec: each file's bytes are contents["<slug>/<path>"] ("" if
// absent), and its Size and SHA256 are computed from them. A skill whose
// skill file (named by Source.Path) has no contents gets one made of a
// frontmatter and its Body; one that does not list it gets it listed. The
// catalog lists every workflow's Description.
func registryOf(ws []runtime.Workflow, contents map[string]string, notes []runtime.Notification) *runtime.Registry {
	spec := &skillgenimpl.Spec{Notifications: notes}
	blobs := map[string]*string{}
	blob := func(data string) (name string, size int64) {
		sum := sha256.Sum256([]byte(data))
		name = hex.EncodeToString(sum[:])
		if blobs[name] == nil {
			blobs[name] = &data
		}
		return name, int64(len(data))
	}
	for _, w := range ws {
		sw := skillgenimpl.Workflow{Workflow: w, Catalog: w.Description, CatalogXML: w.Description}
		sw.Files = slices.Clone(w.Files)
		if w.Source.Kind == runtime.KindSkill {
			name := path.Base(w.Source.Path)
			md, ok := contents[w.Slug+"/"+name]
			if !ok {
				md = "---\nname: " + w.Slug + "\n---\n" + w.Body
				contents = maps.Clone(contents)
				if contents == nil {
					contents = map[string]string{}
				}
				contents[w.Slug+"/"+name] = md
			}
			if !strings.HasSuffix(md, w.Body) {
				panic("fixture: the body of " + w.Slug + " is not the tail of its skill file")
			}
			sw.BodyStart = len(md) - len(w.Body)
			if !slices.ContainsFunc(sw.Files, func(f runtime.File) bool { return f.Path == name }) {
				sw.Files = append(sw.Files, runtime.File{Path: name, Mode: 0o644})
			}
		}
		slices.SortFunc(sw.Files, func(a, b runtime.File) int { return strings.Compare(a.Path, b.Path) })
		for i := range sw.Files {
			sw.Files[i].SHA256, sw.Files[i].Size = blob(contents[w.Slug+"/"+sw.Files[i].Path])
		}
		spec.Workflows = append(spec.Workflows, sw)
	}
	for _, name := range slices.Sorted(maps.Keys(blobs)) {
		spec.Blobs = append(spec.Blobs, skillgenimpl.Blob{Name: name, Size: int64(len(*blobs[name])), Data: blobs[name]})
	}
	r, err := skillgenimpl.Build(spec)
	if err != nil {
		panic(err)
	}
	return r
}

// fixtureFiles is every file FS must serve, with its bytes and mode, written
// out independently of the table.
var fixtureFiles = map[string]struct {
	data string
	mode fs.FileMode
}{
	"a/SKILL.md":                            {dataASkill, 0o644},
	"a-b/SKILL.md":                          {dataABSkill, 0o644},
	"a-b/notes/empty.txt":                   {dataEmpty, 0o644},
	"a-b/notes/todo.md":                     {dataABTodo, 0o644},
	"a0/skill.md":                           {dataA0Skill, 0o644},
	"names/#hash.md":                        {dataHash, 0o644},
	"names/A.md":                            {dataUpperA, 0o644},
	"names/SKILL.md":                        {dataNamesSkill, 0o644},
	"names/_underscore.md":                  {dataUnder, 0o644},
	"names/a.md":                            {dataLowerA, 0o644},
	"names/con.md":                          {dataCon, 0o644},
	"names/empty":                           {dataEmpty, 0o644},
	"names/has space.md":                    {dataSpace, 0o644},
	"names/odd-one.md":                      {dataOddOne, 0o644},
	"names/odd/*?:\\.txt":                   {dataStar, 0o644},
	"names/ünïcödé.md":                      {dataUnicode, 0o644},
	"names/日本語/メモ.txt":                      {dataJapanese, 0o644},
	"pdf-tools/SKILL.md":                    {dataPDFSkill, 0o644},
	"pdf-tools/assets/deep/nested/form.txt": {dataPDFForm, 0o644},
	"pdf-tools/assets/logo.bin":             {dataPDFBin, 0o644},
	"pdf-tools/references/REFERENCE.md":     {dataPDFRef, 0o644},
	"pdf-tools/scripts.md":                  {dataPDFNotes, 0o644},
	"pdf-tools/scripts/extract.sh":          {dataPDFShell, 0o755},
}

// TestFixtureConsistent checks the fixture itself, so that the other tests
// rest on a table that generated code could have produced.
func TestFixtureConsistent(t *testing.T) {
	for i := 1; i < len(fixtureWorkflows); i++ {
		if fixtureWorkflows[i-1].Slug >= fixtureWorkflows[i].Slug {
			t.Errorf("workflows not sorted: %q >= %q", fixtureWorkflows[i-1].Slug, fixtureWorkflows[i].Slug)
		}
	}
	n := 0
	for _, w := range fixtureWorkflows {
		if w.Source.Kind == runtime.KindWorkflow {
			if len(w.Files) != 0 {
				t.Errorf("%s: in-house workflow with files", w.Slug)
			}
			continue
		}
		for i, f := range w.Files {
			n++
			if i > 0 && w.Files[i-1].Path >= f.Path {
				t.Errorf("%s: files not sorted: %q >= %q", w.Slug, w.Files[i-1].Path, f.Path)
			}
			e, ok := fixtureFiles[w.Slug+"/"+f.Path]
			if !ok {
				t.Errorf("%s: file %q is not in fixtureFiles", w.Slug, f.Path)
				continue
			}
			sum := sha256.Sum256([]byte(e.data))
			if f.Mode != e.mode || f.Size != int64(len(e.data)) || f.SHA256 != hex.EncodeToString(sum[:]) {
				t.Errorf("%s: %s: {Path: %q, Mode: %#o, Size: %d, SHA256: %q}", w.Slug, f.Path, f.Path, e.mode, len(e.data), hex.EncodeToString(sum[:]))
			}
		}
		md, ok := fixtureFiles[w.Slug+"/"+path.Base(w.Source.Path)]
		if !ok || w.Body == "" || !strings.HasSuffix(md.data, w.Body) {
			t.Errorf("%s: body is not the tail of its SKILL.md", w.Slug)
		}
	}
	if n != len(fixtureFiles) {
		t.Errorf("workflows list %d files, fixtureFiles has %d", n, len(fixtureFiles))
	}
}
