//go:build unix

package gen_test

// Behavioural tests of gen's write path (ARCHITECTURE.md, "Invariants"): write-if-changed,
// removal of stale owned files only, all-or-nothing on errors, Check as a
// sink that writes nothing, and the refusal to overwrite a foreign file.
// Every test looks at the disk (bytes, modes, mtimes, listings), not at
// what the implementation says it did.

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"math/rand"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/skillgen/skillgen/gen"
)

// wsFile is one file of the test workspace, its path relative to the root.
type wsFile struct {
	path string
	data string
	mode fs.FileMode
}

const wsManifest = `# The host's manifest; only [skills] is skillgen's.
[scope]
allow = [{ target = "docs", permission = "read" }]

[skills]
directories = ["team-skills", ".claude/skills"]
`

// wsFiles is the test workspace: a manifest with two skill roots, two
// in-house Workflows (one shadows a skill), skills with nested directories,
// executables, a binary file, a file starting with "_", two files with the
// same bytes, a skill shadowed by the first root and an invalid skill.
//
// Resolution, worked out by hand from the rules in README.md: in-house deploy, triage;
// then team-skills: alpha (ingested), deploy (shadowed by the workflow);
// then .claude/skills: alpha (shadowed by team-skills/alpha), beta
// (ingested), broken (skipped: its name is invalid).
var wsFiles = []wsFile{
	{".insomnia/manifest.toml", wsManifest, 0o644},
	{".insomnia/memory/workflow/deploy.md", "---\ndescription: Deploy the service to production.\nmodel_invokation: true\nrequires: [runbook]\n---\nRun `make deploy` and watch the dashboards.\n", 0o644},
	{".insomnia/memory/workflow/triage.md", "---\ndescription: Triage new issues.\nuser_invocable: false\n---\nLabel every new issue.\n", 0o644},

	{"team-skills/alpha/SKILL.md", "---\nname: alpha\ndescription: Alpha does\n  the first thing.\nlicense: MIT\nmetadata:\n  owner: team\n---\n# Alpha\n\nRun `scripts/run.sh` — \"quoted\" \\ back\\slash\ttab é {{field}}.\n", 0o644},
	{"team-skills/alpha/scripts/run.sh", "#!/bin/sh\necho alpha\n", 0o755},
	{"team-skills/alpha/references/deep/nested/guide.md", "# Guide\nalpha guide v1\n", 0o644},
	{"team-skills/alpha/references/copy.md", "shared text\n", 0o644},
	{"team-skills/alpha/assets/logo.bin", "\x00\x01\x02\xff\r\n\x00binary\x00", 0o644},
	{"team-skills/alpha/_private.txt", "a file whose name starts with an underscore\n", 0o644},
	{"team-skills/deploy/SKILL.md", "---\nname: deploy\ndescription: A deploy skill that the in-house workflow shadows.\n---\nskill deploy body\n", 0o644},

	{".claude/skills/alpha/SKILL.md", "---\nname: alpha\ndescription: Another alpha, shadowed by team-skills.\n---\nshadowed alpha\n", 0o644},
	{".claude/skills/beta/SKILL.md", "---\nname: beta\ndescription: Beta builds things.\n---\nBeta body.\n", 0o644},
	{".claude/skills/beta/scripts/build.sh", "#!/bin/sh\necho beta\n", 0o755},
	{".claude/skills/beta/scripts/tools/helper.py", "print('helper')\n", 0o755},
	{".claude/skills/beta/references/shared.md", "shared text\n", 0o644},
	{".claude/skills/broken/SKILL.md", "---\nname: Broken_Name\ndescription: An invalid skill.\n---\nbroken body\n", 0o644},
}

// wsIngested maps each ingested skill's slug to its directory in wsFiles.
var wsIngested = map[string]string{
	"alpha": "team-skills/alpha",
	"beta":  ".claude/skills/beta",
}

// wsOut is the output directory, relative to the workspace root.
const wsOut = "out/skills"

// wsServed returns the files the generated package must serve, as
// "<slug>/<path>" → file, from wsFiles and wsIngested.
func wsServed() map[string]wsFile {
	m := map[string]wsFile{}
	for slug, dir := range wsIngested {
		for _, f := range wsFiles {
			if rel, ok := strings.CutPrefix(f.path, dir+"/"); ok {
				m[slug+"/"+rel] = f
			}
		}
	}
	return m
}

// blobName is the content-addressed name of data (ARCHITECTURE.md).
func blobName(data string) string {
	h := sha256.Sum256([]byte(data))
	return hex.EncodeToString(h[:])
}

// wsBlobs returns the blob names the data directory must hold: one per
// distinct content of a served file.
// tableBlob returns the name of the data file that holds the encoded
// table: the one the Go file embeds into skillgenData.
func tableBlob(t testing.TB, src string) string {
	t.Helper()
	m := regexp.MustCompile(`//go:embed skills_data/([0-9a-f]{64})\nvar skillgenData string\n`).FindStringSubmatch(src)
	if m == nil {
		t.Fatalf("the Go file embeds no table:\n%s", src)
	}
	return m[1]
}

// wsBlobs returns the names of the blobs of the workspace's skill files.
func wsBlobs() []string {
	seen := map[string]bool{}
	for _, f := range wsServed() {
		seen[blobName(f.data)] = true
	}
	names := make([]string, 0, len(seen))
	for n := range seen {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// buildWorkspace creates wsFiles under root, in an order shuffled by seed
// (a negative seed keeps the listed order), creating each file's parent
// directories on demand so that directories are created in that order too.
func buildWorkspace(t testing.TB, root string, seed int64) {
	t.Helper()
	files := slices.Clone(wsFiles)
	if seed >= 0 {
		rand.New(rand.NewSource(seed)).Shuffle(len(files), func(i, j int) { files[i], files[j] = files[j], files[i] })
	}
	for _, f := range files {
		writeWSFile(t, root, f)
	}
}

func writeWSFile(t testing.TB, root string, f wsFile) {
	t.Helper()
	name := filepath.Join(root, filepath.FromSlash(f.path))
	if err := os.MkdirAll(filepath.Dir(name), 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(f.data), 0o666); err != nil {
		t.Fatal(err)
	}
	// The exec bit is asked for explicitly; the other bits follow the umask.
	if f.mode&0o111 != 0 {
		info, err := os.Stat(name)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(name, info.Mode().Perm()|0o100); err != nil {
			t.Fatal(err)
		}
	}
}

// setWSFile replaces the content of one workspace file.
func setWSFile(t testing.TB, root, path, data string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(root, filepath.FromSlash(path)), []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func wsFileData(t testing.TB, path string) string {
	t.Helper()
	for _, f := range wsFiles {
		if f.path == path {
			return f.data
		}
	}
	t.Fatalf("no workspace file %s", path)
	return ""
}

// wsConfig is the configuration of a run over the workspace at root.
func wsConfig(root string) gen.Config {
	return gen.Config{Dir: root, Out: wsOut, Home: filepath.Join(root, "no-home")}
}

// generateOK runs Generate and insists that it succeeded.
func generateOK(t testing.TB, cfg gen.Config) *gen.Result {
	t.Helper()
	r, err := gen.Generate(cfg)
	if err != nil {
		t.Fatalf("Generate: %v", err)
	}
	if !r.OK() {
		t.Fatalf("Generate: unexpected errors:\n%s", formatDiags(r.Diagnostics))
	}
	return r
}

func formatDiags(ds []gen.Diagnostic) string {
	var b strings.Builder
	for _, d := range ds {
		fmt.Fprintf(&b, "  %s:%d:%d: %s: %s [%s]\n", d.File, d.Line, d.Col, d.Severity, d.Message, d.Code)
	}
	return b.String()
}

// writeOK generates and writes the package of the workspace at root.
func writeOK(t testing.TB, root string) gen.WriteReport {
	t.Helper()
	rep, err := generateOK(t, wsConfig(root)).Write()
	if err != nil {
		t.Fatalf("Write: %v", err)
	}
	return rep
}

// fileState is what a test sees of one path on disk.
type fileState struct {
	mode  fs.FileMode
	data  string // a regular file's bytes
	mtime time.Time
}

// treeState maps slash paths relative to a root ("." for the root itself)
// to their state.
type treeState map[string]fileState

func snapshotTree(t testing.TB, root string) treeState {
	t.Helper()
	st := treeState{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := os.Lstat(p)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		s := fileState{mode: info.Mode(), mtime: info.ModTime()}
		if info.Mode().IsRegular() {
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			s.data = string(data)
		}
		st[filepath.ToSlash(rel)] = s
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// diffTrees lists, sorted, every path whose presence, mode, bytes or (with
// withTime) mtime differs between a and b.
func diffTrees(a, b treeState, withTime bool) []string {
	var out []string
	for p, sa := range a {
		sb, ok := b[p]
		switch {
		case !ok:
			out = append(out, p+": gone")
		case sa.mode != sb.mode:
			out = append(out, fmt.Sprintf("%s: mode %v → %v", p, sa.mode, sb.mode))
		case sa.data != sb.data:
			out = append(out, p+": bytes differ")
		case withTime && !sa.mtime.Equal(sb.mtime):
			out = append(out, fmt.Sprintf("%s: mtime %v → %v", p, sa.mtime, sb.mtime))
		}
	}
	for p := range b {
		if _, ok := a[p]; !ok {
			out = append(out, p+": new")
		}
	}
	slices.Sort(out)
	return out
}

// changedPaths lists the paths of diffTrees without the reasons.
func changedPaths(a, b treeState) []string {
	var out []string
	for _, d := range diffTrees(a, b, true) {
		out = append(out, d[:strings.LastIndex(d, ": ")])
	}
	slices.Sort(out)
	return out
}

// oldTime is the mtime tests give files before a run, so that any rewrite,
// even within the same second, shows.
var oldTime = time.Date(2001, 2, 3, 4, 5, 6, 0, time.UTC)

// ageTree sets the mtime of every path under root (root included) to oldTime.
func ageTree(t testing.TB, root string) {
	t.Helper()
	var paths []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		paths = append(paths, p)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range paths {
		if err := os.Chtimes(p, oldTime, oldTime); err != nil {
			t.Fatal(err)
		}
	}
}

// foreignFiles are files in -out that skillgen does not own, some with
// names that look like skillgen's own.
var foreignFiles = map[string]string{
	"doc.go":                               "// Package skills is generated by skillgen.\npackage skills\n\n//go:generate go tool skillgen\n",
	"notes.txt":                            "hand-written notes\n",
	"other_gen.go":                         "// Code generated by othertool. DO NOT EDIT.\n\npackage skills\n",
	"skills_gen.go~":                       "an editor backup\n",
	".tmp-notmine":                         "a temp-looking file outside the data directory\n",
	"sub/inner.txt":                        "a file in a subdirectory\n",
	"sub/" + blobName("looks like a blob"): "looks like a blob",
}

func addForeignFiles(t testing.TB, out string) {
	t.Helper()
	for p, data := range foreignFiles {
		name := filepath.Join(out, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// requireForeignIntact checks that every foreign file and its directory
// kept its bytes, mode and mtime from before.
func requireForeignIntact(t testing.TB, before, after treeState) {
	t.Helper()
	check := map[string]bool{}
	for p := range foreignFiles {
		for q := p; q != "."; q = filepath.ToSlash(filepath.Dir(q)) {
			check[q] = true // the file and its directories below -out
		}
	}
	for q := range check {
		b, a := before[q], after[q]
		if _, ok := after[q]; !ok {
			t.Errorf("%s (not skillgen's) was removed", q)
			continue
		}
		if a.mode != b.mode || a.data != b.data || !a.mtime.Equal(b.mtime) {
			t.Errorf("%s (not skillgen's) was touched: %v %v %q → %v %v %q", q, b.mode, b.mtime, b.data, a.mode, a.mtime, a.data)
		}
	}
}

// setupWritten builds the workspace in a temp dir, writes its package,
// adds foreign files to -out and ages every file of -out. It returns the
// workspace root and the output directory.
func setupWritten(t testing.TB) (root, out string) {
	t.Helper()
	root = t.TempDir()
	buildWorkspace(t, root, -1)
	out = filepath.Join(root, filepath.FromSlash(wsOut))
	writeOK(t, root)
	addForeignFiles(t, out)
	ageTree(t, out)
	return root, out
}

func TestWriteFirstRun(t *testing.T) {
	root := t.TempDir()
	buildWorkspace(t, root, -1)
	out := filepath.Join(root, filepath.FromSlash(wsOut))
	r := generateOK(t, wsConfig(root))
	rep, err := r.Write()
	if err != nil {
		t.Fatal(err)
	}

	blobs := wsBlobs()
	// Ten served files, two of them with the same bytes: nine blobs.
	if len(wsServed()) != 10 || len(blobs) != 9 {
		t.Fatalf("fixture: %d served files, %d blobs; want 10, 9", len(wsServed()), len(blobs))
	}
	// And the encoded table.
	table := tableBlob(t, string(r.GoSource()))
	blobs = append(blobs, table)
	slices.Sort(blobs)
	var want []string
	for _, b := range blobs {
		want = append(want, gen.DataDir+"/"+b)
	}
	want = append(want, gen.GoFileName)
	slices.Sort(want)
	if !slices.Equal(rep.Written, want) || len(rep.Removed) != 0 {
		t.Errorf("report: written %q removed %q; want written %q, nothing removed", rep.Written, rep.Removed, want)
	}

	// Result.Files: the Go file, then the blobs in name order, with sizes.
	var files []string
	for _, f := range r.Files() {
		files = append(files, fmt.Sprintf("%s %d", f.Path, f.Size))
	}
	wantFiles := []string{fmt.Sprintf("%s %d", gen.GoFileName, len(r.GoSource()))}
	tableData, err := os.ReadFile(filepath.Join(out, gen.DataDir, table))
	if err != nil {
		t.Fatal(err)
	}
	if blobName(string(tableData)) != table {
		t.Errorf("the table's data file is not named by its SHA-256")
	}
	for _, b := range blobs {
		if b == table {
			wantFiles = append(wantFiles, fmt.Sprintf("%s/%s %d", gen.DataDir, b, len(tableData)))
		}
		for _, f := range wsServed() {
			if blobName(f.data) == b {
				wantFiles = append(wantFiles, fmt.Sprintf("%s/%s %d", gen.DataDir, b, len(f.data)))
				break
			}
		}
	}
	if !slices.Equal(files, wantFiles) {
		t.Errorf("Result.Files:\n  %s\nwant\n  %s", strings.Join(files, "\n  "), strings.Join(wantFiles, "\n  "))
	}

	st := snapshotTree(t, out)
	var got []string
	for p, s := range st {
		if s.mode.IsRegular() {
			got = append(got, p)
			if s.mode.Perm() != 0o644 {
				t.Errorf("%s: mode %v, want 0644 (independent of the umask)", p, s.mode)
			}
		}
	}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("files in -out:\n  %q\nwant\n  %q", got, want)
	}
	for _, f := range wsServed() {
		if b := st[gen.DataDir+"/"+blobName(f.data)]; b.data != f.data {
			t.Errorf("blob of %s holds %q, want %q", f.path, b.data, f.data)
		}
	}
	src := st[gen.GoFileName].data
	if src != string(r.GoSource()) {
		t.Errorf("%s on disk is not the rendered source", gen.GoFileName)
	}
	if !strings.HasPrefix(src, "// Code generated by skillgen. DO NOT EDIT.\n") {
		t.Errorf("%s does not start with the generated-code header:\n%.200s", gen.GoFileName, src)
	}
	for _, b := range blobs {
		if !strings.Contains(src, "//go:embed "+gen.DataDir+"/"+b+"\n") {
			t.Errorf("%s has no //go:embed of blob %s", gen.GoFileName, b)
		}
	}
	if n := strings.Count(src, "//go:embed "); n != len(blobs) {
		t.Errorf("%s has %d //go:embed lines, want one per blob and the table (%d)", gen.GoFileName, n, len(blobs))
	}
}

func TestWriteNoOp(t *testing.T) {
	root, out := setupWritten(t)
	before := snapshotTree(t, out)

	// A new run over unchanged inputs, and the same Result written twice.
	r := generateOK(t, wsConfig(root))
	for i := range 2 {
		rep, err := r.Write()
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Written) != 0 || len(rep.Removed) != 0 {
			t.Errorf("write %d of unchanged inputs reported written %q removed %q; want nothing", i+1, rep.Written, rep.Removed)
		}
		// Every file and directory of -out (the data directory's listing
		// and mtime included: no temp file came and went) is as it was.
		if d := diffTrees(before, snapshotTree(t, out), true); len(d) > 0 {
			t.Errorf("write %d of unchanged inputs changed -out:\n  %s", i+1, strings.Join(d, "\n  "))
		}
	}
	if rep, err := r.Check(); err != nil || rep.Stale() || len(rep.Leftovers) > 0 {
		t.Errorf("Check after a no-op write: %+v, %v; want up to date", rep, err)
	}
}

func TestWriteChangedInput(t *testing.T) {
	root, out := setupWritten(t)
	before := snapshotTree(t, out)

	const guide = "team-skills/alpha/references/deep/nested/guide.md"
	oldData := wsFileData(t, guide)
	newData := "# Guide\nalpha guide v2, longer than before\n"
	setWSFile(t, root, guide, newData)
	oldBlob, newBlob := gen.DataDir+"/"+blobName(oldData), gen.DataDir+"/"+blobName(newData)

	oldTable := gen.DataDir + "/" + tableBlob(t, before[gen.GoFileName].data)
	r := generateOK(t, wsConfig(root))
	newTable := gen.DataDir + "/" + tableBlob(t, string(r.GoSource()))
	rep, err := r.Write()
	if err != nil {
		t.Fatal(err)
	}
	// The file's size is in the table: the table changes too.
	want := []string{newBlob, newTable, gen.GoFileName}
	slices.Sort(want)
	if !slices.Equal(rep.Written, want) {
		t.Errorf("written %q, want %q", rep.Written, want)
	}
	want = []string{oldBlob, oldTable}
	slices.Sort(want)
	if !slices.Equal(rep.Removed, want) {
		t.Errorf("removed %q, want %q", rep.Removed, want)
	}

	after := snapshotTree(t, out)
	// Exactly these paths changed: the Go file, the two blobs and the two
	// tables, and the two directories whose entries changed. Everything
	// else kept its mtime.
	want = []string{".", gen.DataDir, newBlob, oldBlob, newTable, oldTable, gen.GoFileName}
	slices.Sort(want)
	if got := changedPaths(before, after); !slices.Equal(got, want) {
		t.Errorf("changed paths:\n  %s\nwant exactly %q", strings.Join(diffTrees(before, after, true), "\n  "), want)
	}
	if _, ok := after[oldBlob]; ok {
		t.Errorf("stale blob %s still there", oldBlob)
	}
	if got := after[newBlob]; got.data != newData || got.mode.Perm() != 0o644 {
		t.Errorf("new blob: %v %q, want 0644 %q", got.mode, got.data, newData)
	}
	src := after[gen.GoFileName].data
	if src != string(r.GoSource()) {
		t.Errorf("%s on disk is not the rendered source", gen.GoFileName)
	}
	if !strings.Contains(src, blobName(newData)) || strings.Contains(src, blobName(oldData)) {
		t.Errorf("%s does not reference exactly the new blob", gen.GoFileName)
	}
	requireForeignIntact(t, before, after)
}

// TestWriteRemovesOnlyOwned shows that when skills go away, their blobs go,
// leaving the table alone in the data directory, while foreign files stay.
func TestWriteRemovesOnlyOwned(t *testing.T) {
	root, out := setupWritten(t)
	before := snapshotTree(t, out)

	// No [skills] table: only the in-house workflows remain, no files.
	setWSFile(t, root, ".insomnia/manifest.toml", "[scope]\n")
	r := generateOK(t, wsConfig(root))
	table := gen.DataDir + "/" + tableBlob(t, string(r.GoSource()))
	rep, err := r.Write()
	if err != nil {
		t.Fatal(err)
	}
	removed := []string{gen.DataDir + "/" + tableBlob(t, before[gen.GoFileName].data)}
	for _, b := range wsBlobs() {
		removed = append(removed, gen.DataDir+"/"+b)
	}
	slices.Sort(removed)
	written := []string{table, gen.GoFileName}
	if !slices.Equal(rep.Removed, removed) || !slices.Equal(rep.Written, written) {
		t.Errorf("report: written %q removed %q; want written %q removed every blob and the old table", rep.Written, rep.Removed, written)
	}
	after := snapshotTree(t, out)
	var data []string
	for p := range after {
		if strings.HasPrefix(p, gen.DataDir+"/") {
			data = append(data, p)
		}
	}
	if !slices.Equal(data, []string{table}) {
		t.Errorf("the data directory holds %q; want the table only", data)
	}
	if n := strings.Count(after[gen.GoFileName].data, "go:embed"); n != 1 {
		t.Errorf("%s embeds %d files; want the table only", gen.GoFileName, n)
	}
	requireForeignIntact(t, before, after)
}

func TestFailingRunWritesNothing(t *testing.T) {
	cases := []struct {
		name  string
		edit  func(t *testing.T, root string, cfg *gen.Config)
		code  string // an error diagnostic that must be reported
		where string // in this file
	}{{
		name: "broken in-house workflow",
		edit: func(t *testing.T, root string, cfg *gen.Config) {
			writeWSFile(t, root, wsFile{".insomnia/memory/workflow/oncall.md", "---\nmodel_invokation: true\n---\nno description\n", 0o644})
		},
		code: "description-missing", where: ".insomnia/memory/workflow/oncall.md",
	}, {
		name: "in-house workflow with broken YAML",
		edit: func(t *testing.T, root string, cfg *gen.Config) {
			writeWSFile(t, root, wsFile{".insomnia/memory/workflow/oncall.md", "---\ndescription: [unclosed\n---\nbody\n", 0o644})
		},
		code: "yaml-invalid", where: ".insomnia/memory/workflow/oncall.md",
	}, {
		name: "strict with an invalid skill",
		edit: func(t *testing.T, root string, cfg *gen.Config) { cfg.Strict = true },
		code: "name-invalid", where: ".claude/skills/broken/SKILL.md",
	}, {
		name: "file over the per-file cap",
		edit: func(t *testing.T, root string, cfg *gen.Config) {
			writeWSFile(t, root, wsFile{".claude/skills/beta/assets/big.bin", strings.Repeat("x", 4097), 0o644})
			cfg.MaxFileSize = 4096
		},
		code: "size-limit", where: ".claude/skills/beta/assets/big.bin",
	}, {
		name: "files over the total cap",
		edit: func(t *testing.T, root string, cfg *gen.Config) { cfg.MaxTotalSize = 100 },
		code: "size-limit",
	}, {
		name: "manifest with a wrong type",
		edit: func(t *testing.T, root string, cfg *gen.Config) {
			setWSFile(t, root, ".insomnia/manifest.toml", "[skills]\ndirectories = \"team-skills\"\n")
		},
		code: "manifest-invalid", where: ".insomnia/manifest.toml",
	}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			root, out := setupWritten(t)
			before := snapshotTree(t, out)
			// A change that a successful run would write, so that "nothing
			// written" cannot come from write-if-changed.
			setWSFile(t, root, "team-skills/alpha/references/deep/nested/guide.md", "changed\n")
			cfg := wsConfig(root)
			tc.edit(t, root, &cfg)

			r, err := gen.Generate(cfg)
			if err != nil {
				t.Fatalf("Generate: %v", err)
			}
			if r.OK() {
				t.Fatalf("Generate succeeded; want errors. Diagnostics:\n%s", formatDiags(r.Diagnostics))
			}
			found := false
			for _, d := range r.Diagnostics {
				if d.Severity == gen.Error && d.Code == tc.code && strings.HasSuffix(filepath.ToSlash(d.File), tc.where) {
					found = true
				}
			}
			if !found {
				t.Errorf("no error [%s] in %q among:\n%s", tc.code, tc.where, formatDiags(r.Diagnostics))
			}
			if len(r.Files()) != 0 || len(r.GoSource()) != 0 {
				t.Errorf("a failed run rendered files: %v", r.Files())
			}
			if rep, err := r.Write(); err == nil {
				t.Errorf("Write of a failed run: no error (report %+v)", rep)
			}
			if _, err := r.Check(); err == nil {
				t.Errorf("Check of a failed run: no error")
			}
			if d := diffTrees(before, snapshotTree(t, out), true); len(d) > 0 {
				t.Errorf("a failed run changed -out:\n  %s", strings.Join(d, "\n  "))
			}
		})
	}
}

func TestCheck(t *testing.T) {
	const extraFile = gen.DataDir + "/readme.txt"
	unref := "an old skill file"
	cases := []struct {
		name      string
		edit      func(t *testing.T, out string)
		changes   []gen.Change
		leftovers []string
	}{{
		name: "up to date",
	}, {
		name:    "edited Go file",
		edit:    func(t *testing.T, out string) { appendFile(t, filepath.Join(out, gen.GoFileName), "// edited\n") },
		changes: []gen.Change{{Path: gen.GoFileName, Kind: "differs"}},
	}, {
		name:    "missing Go file",
		edit:    func(t *testing.T, out string) { removeFile(t, filepath.Join(out, gen.GoFileName)) },
		changes: []gen.Change{{Path: gen.GoFileName, Kind: "missing"}},
	}, {
		name:    "missing blob",
		edit:    func(t *testing.T, out string) { removeFile(t, filepath.Join(out, gen.DataDir, wsBlobs()[0])) },
		changes: []gen.Change{{Path: gen.DataDir + "/" + wsBlobs()[0], Kind: "missing"}},
	}, {
		name: "edited blob, same name and size",
		edit: func(t *testing.T, out string) {
			name := filepath.Join(out, gen.DataDir, wsBlobs()[1])
			data, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			data[0] ^= 1
			if err := os.WriteFile(name, data, 0o644); err != nil {
				t.Fatal(err)
			}
		},
		changes: []gen.Change{{Path: gen.DataDir + "/" + wsBlobs()[1], Kind: "differs"}},
	}, {
		name: "extra owned file",
		edit: func(t *testing.T, out string) {
			createFile(t, filepath.Join(out, filepath.FromSlash(extraFile)), "not a blob\n")
		},
		changes: []gen.Change{{Path: extraFile, Kind: "extra"}},
	}, {
		name: "extra owned directory",
		edit: func(t *testing.T, out string) {
			createFile(t, filepath.Join(out, gen.DataDir, "junk", "x"), "x\n")
		},
		changes: []gen.Change{{Path: gen.DataDir + "/junk", Kind: "extra"}},
	}, {
		name: "leftovers only",
		edit: func(t *testing.T, out string) {
			createFile(t, filepath.Join(out, gen.DataDir, ".tmp-12345"), "half a blob")
			createFile(t, filepath.Join(out, gen.DataDir, blobName(unref)), unref)
			createFile(t, filepath.Join(out, ".skills_gen.go.tmp-678"), "// half a file")
		},
		leftovers: []string{gen.DataDir + "/.tmp-12345", gen.DataDir + "/" + blobName(unref), ".skills_gen.go.tmp-678"},
	}, {
		name: "everything at once",
		edit: func(t *testing.T, out string) {
			appendFile(t, filepath.Join(out, gen.GoFileName), "// edited\n")
			removeFile(t, filepath.Join(out, gen.DataDir, wsBlobs()[0]))
			createFile(t, filepath.Join(out, gen.DataDir, wsBlobs()[1]), "other bytes")
			createFile(t, filepath.Join(out, filepath.FromSlash(extraFile)), "not a blob\n")
			createFile(t, filepath.Join(out, gen.DataDir, ".tmp-12345"), "half a blob")
			createFile(t, filepath.Join(out, gen.DataDir, blobName(unref)), unref)
			createFile(t, filepath.Join(out, ".skills_gen.go.tmp-678"), "// half a file")
		},
		changes: []gen.Change{
			{Path: gen.DataDir + "/" + wsBlobs()[0], Kind: "missing"},
			{Path: gen.DataDir + "/" + wsBlobs()[1], Kind: "differs"},
			{Path: extraFile, Kind: "extra"},
			{Path: gen.GoFileName, Kind: "differs"},
		},
		leftovers: []string{gen.DataDir + "/.tmp-12345", gen.DataDir + "/" + blobName(unref), ".skills_gen.go.tmp-678"},
	}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			root, out := setupWritten(t)
			clean := snapshotTree(t, out)
			if tc.edit != nil {
				tc.edit(t, out)
				ageTree(t, out)
			}
			before := snapshotTree(t, out)

			r := generateOK(t, wsConfig(root))
			rep, err := r.Check()
			if err != nil {
				t.Fatal(err)
			}
			changes := slices.Clone(rep.Changes)
			slices.SortFunc(changes, func(a, b gen.Change) int { return strings.Compare(a.Path, b.Path) })
			wantChanges := slices.Clone(tc.changes)
			slices.SortFunc(wantChanges, func(a, b gen.Change) int { return strings.Compare(a.Path, b.Path) })
			if !slices.Equal(changes, wantChanges) {
				t.Errorf("changes %v, want %v", rep.Changes, wantChanges)
			}
			if rep.Stale() != (len(tc.changes) > 0) {
				t.Errorf("Stale() = %v with changes %v", rep.Stale(), rep.Changes)
			}
			leftovers := slices.Sorted(slices.Values(rep.Leftovers))
			if want := slices.Sorted(slices.Values(tc.leftovers)); !slices.Equal(leftovers, want) {
				t.Errorf("leftovers %q, want %q", leftovers, want)
			}
			// Check wrote nothing: bytes, listing and every mtime as before.
			if d := diffTrees(before, snapshotTree(t, out), true); len(d) > 0 {
				t.Errorf("Check changed -out:\n  %s", strings.Join(d, "\n  "))
			}

			// The next Write repairs everything and removes the leftovers,
			// touching no foreign file.
			wrep, err := r.Write()
			if err != nil {
				t.Fatal(err)
			}
			for _, l := range tc.leftovers {
				if !slices.Contains(wrep.Removed, l) {
					t.Errorf("Write did not report removing leftover %s (removed %q)", l, wrep.Removed)
				}
			}
			after := snapshotTree(t, out)
			if d := diffTrees(clean, after, false); len(d) > 0 {
				t.Errorf("after Write, -out differs from a clean write:\n  %s", strings.Join(d, "\n  "))
			}
			requireForeignIntact(t, before, after)
			if rep, err := r.Check(); err != nil || rep.Stale() || len(rep.Leftovers) > 0 {
				t.Errorf("Check after the repairing Write: %+v, %v; want up to date", rep, err)
			}
		})
	}
}

func TestWriteRefusesForeignGoFile(t *testing.T) {
	for name, src := range map[string]string{
		"hand-written":          "package skills\n\nvar Registry = 1\n",
		"another generator":     "// Code generated by othertool. DO NOT EDIT.\n\npackage skills\n",
		"header not on top":     "package skills\n\n// Code generated by skillgen. DO NOT EDIT.\n",
		"header with more text": "// Code generated by skillgen. DO NOT EDIT. (not really)\npackage skills\n",
	} {
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			buildWorkspace(t, root, -1)
			out := filepath.Join(root, filepath.FromSlash(wsOut))
			createFile(t, filepath.Join(out, gen.GoFileName), src)
			createFile(t, filepath.Join(out, "doc.go"), foreignFiles["doc.go"])
			ageTree(t, out)
			before := snapshotTree(t, out)

			rep, err := generateOK(t, wsConfig(root)).Write()
			if err == nil {
				t.Fatalf("Write over a %s %s: no error (report %+v)", name, gen.GoFileName, rep)
			}
			if !strings.Contains(err.Error(), gen.GoFileName) {
				t.Errorf("the error does not name the file: %v", err)
			}
			if d := diffTrees(before, snapshotTree(t, out), true); len(d) > 0 {
				t.Errorf("a refused Write changed -out:\n  %s", strings.Join(d, "\n  "))
			}
		})
	}
}

func appendFile(t testing.TB, name, data string) {
	t.Helper()
	f, err := os.OpenFile(name, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(data); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

func createFile(t testing.TB, name, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func removeFile(t testing.TB, name string) {
	t.Helper()
	if err := os.Remove(name); err != nil {
		t.Fatal(err)
	}
}

// TestWriteOutIsSymlink: an output directory reached through a symlink is
// written through it, and a second run through the link is a no-op.
func TestWriteOutIsSymlink(t *testing.T) {
	root := t.TempDir()
	buildWorkspace(t, root, -1)
	real := filepath.Join(root, "real-out")
	if err := os.MkdirAll(real, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(real, filepath.Join(root, "link-out")); err != nil {
		t.Fatal(err)
	}
	cfg := wsConfig(root)
	cfg.Out, cfg.Package = "link-out", "skills"
	if _, err := generateOK(t, cfg).Write(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(real, gen.GoFileName)); err != nil {
		t.Errorf("nothing written through the link: %v", err)
	}
	if rep, err := generateOK(t, cfg).Write(); err != nil || len(rep.Written)+len(rep.Removed) > 0 {
		t.Errorf("second run through the link: %+v, %v", rep, err)
	}
	if info, err := os.Lstat(filepath.Join(root, "link-out")); err != nil || info.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("the link itself was replaced: %v, %v", info, err)
	}
}
