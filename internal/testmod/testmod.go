// Package testmod makes temporary Go modules that use this repository the
// way a consumer does (require github.com/skillgen/skillgen, replaced by
// the checkout), for the tests and the benchmark that build generated code.
package testmod

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// ModulePath is the module this repository is.
const ModulePath = "github.com/skillgen/skillgen"

// Module is a temporary consumer module.
type Module struct {
	Dir  string // its root
	Repo string // the repository it requires
}

// Repo returns the root of the skillgen repository at or above dir.
func Repo(dir string) (string, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for {
		data, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil && modulePathOf(data) == ModulePath {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no go.mod of %s at or above the working directory; run from the skillgen repository", ModulePath)
		}
		dir = parent
	}
}

func modulePathOf(gomod []byte) string {
	sc := bufio.NewScanner(bytes.NewReader(gomod))
	for sc.Scan() {
		if f := strings.Fields(sc.Text()); len(f) == 2 && f[0] == "module" {
			return strings.Trim(f[1], `"`)
		}
	}
	return ""
}

// Write creates, in dir, a module named path that requires skillgen (the
// checkout at repo, through a replace directive) and the given other
// requirements ("module version"), with the repository's go.sum, so that
// it builds from the module cache alone.
func Write(dir, path, repo string, require ...string) (*Module, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	sum, err := os.ReadFile(filepath.Join(repo, "go.sum"))
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "module %s\n\ngo 1.24.0\n\nrequire (\n\t%s v0.0.0\n", path, ModulePath)
	for _, r := range require {
		fmt.Fprintf(&b, "\t%s\n", r)
	}
	fmt.Fprintf(&b, ")\n\nreplace %s => %q\n", ModulePath, repo)
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(b.String()), 0o644); err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(dir, "go.sum"), sum, 0o644); err != nil {
		return nil, err
	}
	return &Module{Dir: dir, Repo: repo}, nil
}

// New is Write for a test, in a temporary directory, with the repository
// found above the test's working directory. It skips the test when there
// is no go command.
func New(t testing.TB, path string) *Module {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command:", err)
	}
	repo, err := Repo(".")
	if err != nil {
		t.Fatal(err)
	}
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	m, err := Write(dir, path, repo)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// Go returns the go command with args, run in the module hermetically: no
// workspace, no toolchain switch, go.mod completed from the module cache.
func (m *Module) Go(args ...string) *exec.Cmd {
	cmd := exec.Command("go", args...)
	cmd.Dir = m.Dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off", "GOTOOLCHAIN=local")
	return cmd
}

// Build builds the package in dir (relative to the module) into bin.
func (m *Module) Build(dir, bin string) error {
	out, err := m.Go("build", "-o", bin, "./"+filepath.ToSlash(dir)).CombinedOutput()
	if err != nil {
		return fmt.Errorf("go build ./%s: %w\n%s", dir, err, out)
	}
	return nil
}

// AddGoMod appends lines (a tool directive, say) to the module's go.mod.
func (m *Module) AddGoMod(lines string) error {
	f, err := os.OpenFile(filepath.Join(m.Dir, "go.mod"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	if _, err := f.WriteString("\n" + lines); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// WriteFile writes a file of the module, creating its directory.
func (m *Module) WriteFile(name, data string) error {
	p := filepath.Join(m.Dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return os.WriteFile(p, []byte(data), 0o644)
}
