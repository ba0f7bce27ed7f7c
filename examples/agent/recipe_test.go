package main

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/skillgen/skillgen/internal/testmod"
)

// TestAirGappedRecipe follows the README's air-gapped recipe in a fresh
// consumer module: require skillgen as a tool, `go mod vendor`, then
// generate and build with no proxy and an empty module cache, and run the
// host. It proves the vendor tree holds everything go tool skillgen and
// the generated package need.
func TestAirGappedRecipe(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a module from scratch")
	}
	mod := t.TempDir()
	// The example's workspace, its package (the //go:generate line only)
	// and its host, moved to a module of its own.
	for _, dir := range []string{".insomnia", ".claude", "shared-skills"} {
		copyTree(t, dir, filepath.Join(mod, dir))
	}
	write(t, filepath.Join(mod, "skills", "doc.go"), "package skills\n\n//go:generate go tool skillgen\n")
	host, err := os.ReadFile("main.go")
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(mod, "main.go"), strings.ReplaceAll(string(host),
		`"github.com/skillgen/skillgen/examples/agent/skills"`, `"example.com/agent/skills"`))
	repo, err := testmod.Repo(".")
	if err != nil {
		t.Fatal(err)
	}
	m, err := testmod.Write(mod, "example.com/agent", repo)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.AddGoMod("tool github.com/skillgen/skillgen/cmd/skillgen\n"); err != nil {
		t.Fatal(err)
	}

	goCmd := func(env []string, args ...string) string {
		t.Helper()
		cmd := exec.Command("go", args...)
		cmd.Dir = mod
		cmd.Env = append(os.Environ(), append([]string{"GOWORK=off", "GOTOOLCHAIN=local", "GOFLAGS=",
			"SKILLGEN_CACHE=" + filepath.Join(mod, ".cache")}, env...)...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	// With the module cache, as on a connected machine: vendor.
	goCmd([]string{"GOPROXY=off", "GOFLAGS=-mod=mod"}, "mod", "tidy")
	goCmd([]string{"GOPROXY=off"}, "mod", "vendor")
	if _, err := os.Stat(filepath.Join(mod, "vendor", "gopkg.in", "yaml.v3")); err != nil {
		t.Fatalf("the vendor tree lacks skillgen's dependencies: %v", err)
	}

	// Air-gapped: no proxy, no module cache; the README's two commands.
	offline := []string{"GOPROXY=off", "GOMODCACHE=" + t.TempDir()}
	goCmd(append(offline, "GOFLAGS=-mod=vendor"), "generate", "./...")
	goCmd(offline, "build", "-o", "agent", ".")
	if _, err := os.Stat(filepath.Join(mod, "skills", "skills_gen.go")); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(filepath.Join(mod, "agent"), "/pdf-tools", "report.pdf").Output()
	if err != nil {
		t.Fatalf("agent: %v", err)
	}
	if !strings.Contains(string(out), "# arguments: report.pdf") || !strings.Contains(string(out), "# PDF tools") {
		t.Errorf("agent /pdf-tools printed:\n%s", out)
	}

	// The README's host program, as printed there, builds and runs against
	// this module's generated package.
	readme, err := os.ReadFile(filepath.Join(repo, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, block, ok := strings.Cut(string(readme), "```go\npackage main\n")
	block, _, ok2 := strings.Cut(block, "```")
	if !ok || !ok2 {
		t.Fatal("README.md has no ```go block starting with package main")
	}
	materialized := filepath.Join(t.TempDir(), "agent-skills")
	program := strings.Replace("package main\n"+block, `"/tmp/agent-skills"`, strconv.Quote(materialized), 1)
	write(t, filepath.Join(mod, "cmd", "readme", "main.go"), program)
	goCmd(offline, "build", "-o", "readme", "./cmd/readme")
	out, err = exec.Command(filepath.Join(mod, "readme")).CombinedOutput()
	if err != nil {
		t.Fatalf("the README's program: %v\n%s", err, out)
	}
	for _, want := range []string{"- pdf-tools: ", "pdf-tools report.pdf ", "104 bytes of script", "skill /release from skill"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("the README's program did not print %q:\n%s", want, out)
		}
	}
	if info, err := os.Stat(filepath.Join(materialized, "pdf-tools", "scripts", "extract_text.sh")); err != nil || info.Mode()&0o111 == 0 {
		t.Errorf("the README's program did not materialize the script with its exec bit: %v %v", info, err)
	}
}

func copyTree(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		dst := filepath.Join(to, rel)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, data, info.Mode().Perm())
	})
	if err != nil {
		t.Fatal(err)
	}
}

func write(t *testing.T, name, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}
