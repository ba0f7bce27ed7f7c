package gen

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/skillgen/skillgen/internal/casetest"
)

// TestGenerateGolden runs every testdata/generate case.
//
// A case's files form a temporary directory: the workspace under ws/ (the
// working directory of the run), a home directory under home/ (what "~"
// expands to), and anything else beside them (manifest layers, skill roots
// outside the workspace). The archive's "args:" line gives the flags of
// `skillgen generate` that are mapped onto Config:
//
//	-C dir              the working directory, relative to the temp dir (default ws)
//	-manifest file      a manifest layer, relative to the working directory (repeatable)
//	-workspace dir      the workspace, relative to the working directory
//	-pkg name           the package name (default: the case's name, the base of the output dir)
//	-strict, -hidden, -max-file-size n, -max-total-size n, -catalog-budget n
//
// Besides the directives of casetest, a comment line
//
//	rename: PATH "NEW"
//
// renames a file to NEW (Go-quoted, relative to the temp dir), for names no
// txtar header can hold (invalid UTF-8, line breaks).
//
// Recorded:
//
//	want/diagnostics    every diagnostic as the CLI prints it, paths relative
//	                    to the temp dir ($TMP stands for it inside messages)
//	want/skills_gen.go  the rendered Go file, or a line saying nothing is produced
//	want/files          the output files with their sizes
//	want/run            what a program built from the output prints (probe_test.go):
//	                    every successful case is compiled and run for real
func TestGenerateGolden(t *testing.T) {
	cases := casetest.Load(t, "../testdata/generate/*.txtar")
	mod := newProbeModule(t)
	var built []*casetest.Case
	generated := map[string]bool{} // cases that ran (-run may filter some out) → whether they succeeded
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			ok := generateCase(t, c, mod.casesDir)
			generated[c.Name] = ok
			if ok {
				built = append(built, c)
			}
		})
	}

	outputs, buildErr := mod.run(t, built)
	t.Run("run", func(t *testing.T) {
		if buildErr != nil {
			t.Fatal(buildErr)
		}
		for _, c := range cases {
			t.Run(c.Name, func(t *testing.T) {
				ok, ran := generated[c.Name]
				if !ran {
					t.Skip("the case was not generated (filtered out by -run)")
				}
				if !ok {
					if _, ok := c.Want("run"); ok {
						if *casetest.Update {
							dropSection(t, c, "run")
						} else {
							t.Errorf("%s: the run failed, so it must have no want/run section", c.File)
						}
					}
					return
				}
				out, ok := outputs[c.Name]
				if !ok {
					t.Fatalf("the probe printed nothing for %s", c.Name)
				}
				for _, line := range strings.Split(out, "\n") {
					if strings.Contains(line, "MISMATCH") {
						t.Errorf("probe: %s", line)
					}
				}
				c.Check(t, "run", out)
			})
		}
	})
	for _, c := range cases {
		c.Save(t)
	}
}

type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ",") }
func (m *multiFlag) Set(v string) error { *m = append(*m, v); return nil }

// generateCase runs one case and checks its diagnostics, Go file and file
// list. A successful output is written to casesDir/<name>, and true
// returned.
func generateCase(t *testing.T, c *casetest.Case, casesDir string) bool {
	tmp, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	c.Materialize(t, tmp)
	applyRenames(t, c, tmp)

	flags := flag.NewFlagSet(c.Name, flag.ContinueOnError)
	var (
		cfg       Config
		manifests multiFlag
		wd        = "ws"
	)
	flags.StringVar(&wd, "C", wd, "")
	flags.Var(&manifests, "manifest", "")
	flags.StringVar(&cfg.Workspace, "workspace", "", "")
	flags.StringVar(&cfg.Package, "pkg", "", "")
	flags.BoolVar(&cfg.Strict, "strict", false, "")
	flags.BoolVar(&cfg.Hidden, "hidden", false, "")
	flags.Int64Var(&cfg.MaxFileSize, "max-file-size", 0, "")
	flags.Int64Var(&cfg.MaxTotalSize, "max-total-size", 0, "")
	flags.IntVar(&cfg.CatalogBudget, "catalog-budget", 0, "")
	if err := flags.Parse(c.Args); err != nil || flags.NArg() > 0 {
		t.Fatalf("%s: bad args %q: %v", c.File, c.Args, err)
	}
	cfg.Dir = filepath.Join(tmp, filepath.FromSlash(wd))
	cfg.Manifests = manifests
	cfg.Home = filepath.Join(tmp, "home")
	cfg.Out = filepath.Join(casesDir, c.Name)

	res, err := Generate(cfg)
	if err != nil {
		t.Fatalf("Generate: %v", err)
	}
	c.Check(t, "diagnostics", formatDiagnostics(res.Diagnostics, tmp))

	if !res.OK() {
		if res.Files() != nil || res.GoSource() != nil {
			t.Errorf("a failed run rendered files: %v", res.Files())
		}
		if _, err := res.Write(); err == nil {
			t.Errorf("Write of a failed run succeeded")
		}
		if _, err := os.Lstat(cfg.Out); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("a failed run created %s (%v)", cfg.Out, err)
		}
		c.Check(t, "skills_gen.go", fmt.Sprintf("nothing is produced: the run has %s\n", countErrors(res.Diagnostics)))
		c.Check(t, "files", "")
		return false
	}

	for _, abs := range []string{tmp, casesDir} {
		if strings.Contains(string(res.GoSource()), abs) {
			t.Errorf("the generated file holds the absolute path %s", abs)
		}
	}
	checkGofmt(t, res.GoSource())
	c.Check(t, "skills_gen.go", string(res.GoSource()))
	var files strings.Builder
	for _, f := range res.Files() {
		fmt.Fprintf(&files, "%s %d\n", f.Path, f.Size)
	}
	c.Check(t, "files", files.String())

	if _, err := res.Write(); err != nil {
		t.Fatalf("Write: %v", err)
	}
	checkWritten(t, res, cfg.Out)
	// The package's own files may use any name but Registry: the probe
	// build fails if the generated file declares one of these.
	userGo := "package " + res.Package + "\n\n// Names a package's own files could well use.\n" +
		"var table, workflows, entries, grants, notifications, resident, files, blobs, files_a, blob0 int\n"
	if err := os.WriteFile(filepath.Join(cfg.Out, "user.go"), []byte(userGo), 0o644); err != nil {
		t.Fatal(err)
	}
	return true
}

// checkWritten checks that the output directory holds exactly res.Files,
// each blob named by the SHA-256 of its bytes.
func checkWritten(t *testing.T, res *Result, out string) {
	t.Helper()
	var got []File
	err := filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(out, p)
		rel = filepath.ToSlash(rel)
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		got = append(got, File{Path: rel, Size: int64(len(data))})
		if name, ok := strings.CutPrefix(rel, DataDir+"/"); ok {
			if sum := sha256.Sum256(data); hex.EncodeToString(sum[:]) != name {
				t.Errorf("blob %s holds bytes that hash to %x", rel, sum)
			}
		} else if rel == GoFileName && string(data) != string(res.GoSource()) {
			t.Errorf("%s on disk differs from the rendered source", GoFileName)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := slices.Clone(res.Files())
	cmpFile := func(a, b File) int { return strings.Compare(a.Path, b.Path) }
	slices.SortFunc(want, cmpFile)
	slices.SortFunc(got, cmpFile)
	if !slices.Equal(got, want) {
		t.Errorf("written files %v, want %v", got, want)
	}
}

// dropSection removes a stale want/ section and rewrites the archive
// (with -update).
func dropSection(t *testing.T, c *casetest.Case, name string) {
	t.Helper()
	c.Archive.Files = slices.DeleteFunc(c.Archive.Files, func(f txtar.File) bool { return f.Name == casetest.WantPrefix+name })
	if err := os.WriteFile(c.File, txtar.Format(c.Archive), 0o644); err != nil {
		t.Fatal(err)
	}
}

// applyRenames runs the "rename: PATH "NEW"" lines of a case's comment.
func applyRenames(t *testing.T, c *casetest.Case, dir string) {
	t.Helper()
	for _, line := range strings.Split(string(c.Archive.Comment), "\n") {
		rest, ok := strings.CutPrefix(line, "rename: ")
		if !ok {
			continue
		}
		from, quoted, _ := strings.Cut(rest, " ")
		to, err := strconv.Unquote(quoted)
		if err != nil {
			t.Fatalf("%s: rename: NEW must be Go-quoted: %v", c.File, err)
		}
		if err := os.Rename(filepath.Join(dir, filepath.FromSlash(from)), filepath.Join(dir, filepath.FromSlash(to))); err != nil {
			t.Fatalf("%s: %v", c.File, err)
		}
	}
}

// formatDiagnostics prints diagnostics as the CLI does, with paths relative
// to dir; inside messages, dir is written $TMP.
func formatDiagnostics(ds []Diagnostic, dir string) string {
	var b strings.Builder
	for _, d := range ds {
		file := "skillgen"
		if d.File != "" {
			file = d.File
			if r, err := filepath.Rel(dir, d.File); err == nil && !strings.HasPrefix(r, "..") {
				file = filepath.ToSlash(r)
			}
		}
		msg := strings.ReplaceAll(d.Message, dir, "$TMP")
		fmt.Fprintf(&b, "%s:%d:%d: %s: %s [%s]\n", file, d.Line, d.Col, d.Severity, msg, d.Code)
	}
	return b.String()
}

func countErrors(ds []Diagnostic) string {
	n := 0
	for _, d := range ds {
		if d.Severity == Error {
			n++
		}
	}
	if n == 1 {
		return "1 error"
	}
	return fmt.Sprintf("%d errors", n)
}
