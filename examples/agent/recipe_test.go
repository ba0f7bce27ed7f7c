package main

import (
	"fmt"
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

	// The README's programs, as printed there, build and run against this
	// module's generated package: the host, and the agent loop.
	readme, err := os.ReadFile(filepath.Join(repo, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	programs := readmePrograms(string(readme))
	if len(programs) != 2 {
		t.Fatalf("README.md has %d ```go blocks starting with package main that import the example's package; want 2 (the host, the agent loop)", len(programs))
	}
	materialized := filepath.Join(t.TempDir(), "agent-skills")
	hostProgram := strings.Replace(programs[0], `"/tmp/agent-skills"`, strconv.Quote(materialized), 1)
	for i, program := range []string{hostProgram, programs[1]} {
		name := fmt.Sprintf("readme%d", i)
		write(t, filepath.Join(mod, "cmd", name, "main.go"), program)
		goCmd(offline, "build", "-o", name, "./cmd/"+name)
	}
	out, err = exec.Command(filepath.Join(mod, "readme0")).CombinedOutput()
	if err != nil {
		t.Fatalf("the README's host program: %v\n%s", err, out)
	}
	for _, want := range []string{"- pdf-tools: ", "pdf-tools report.pdf ", "104 bytes of script", "skill /release from skill"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("the README's host program did not print %q:\n%s", want, out)
		}
	}
	if info, err := os.Stat(filepath.Join(materialized, "pdf-tools", "scripts", "extract_text.sh")); err != nil || info.Mode()&0o111 == 0 {
		t.Errorf("the README's host program did not materialize the script with its exec bit: %v %v", info, err)
	}
	out, err = exec.Command(filepath.Join(mod, "readme1")).CombinedOutput()
	if err != nil {
		t.Fatalf("the README's agent loop: %v\n%s", err, out)
	}
	for _, want := range []string{
		"bytes of request", `<skill_content name="pdf-tools">`, "Skill directory: /opt/agent/skills/pdf-tools",
		"  <file>scripts/extract_text.sh</file>", "</skill_content>", "ARGUMENTS: report.pdf",
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("the README's agent loop did not print %q:\n%s", want, out)
		}
	}
}

// readmePrograms returns the ```go blocks of the README that are programs
// over the example's generated package, in order.
func readmePrograms(readme string) []string {
	var programs []string
	for rest := readme; ; {
		_, block, ok := strings.Cut(rest, "```go\npackage main\n")
		if !ok {
			return programs
		}
		block, rest, _ = strings.Cut(block, "```")
		if strings.Contains(block, `"example.com/agent/skills"`) {
			programs = append(programs, "package main\n"+block)
		}
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
