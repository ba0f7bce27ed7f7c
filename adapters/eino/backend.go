// Package eino plugs a skillgen Registry into the skill middleware of
// cloudwego/eino (github.com/cloudwego/eino/adk/middlewares/skill).
//
// A Backend lists the registry's model-invocable workflows as the
// middleware's skill catalog and answers the middleware's skill tool with
// what Registry.Activate returns. The skill files are embedded in the
// binary; the first time the model loads a skill that has files, the
// Backend writes all of them once, with Registry.Materialize, into a
// directory the host chooses, and gives the middleware the skill's
// directory there as its base directory.
package eino

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync"

	"github.com/cloudwego/eino/adk/middlewares/skill"

	"github.com/skillgen/skillgen/runtime"
)

// Backend is a skill.Backend over a Registry. It is safe for concurrent use.
type Backend struct {
	r   *runtime.Registry
	dir string

	// materialize is r.Materialize; a field so that tests can count calls.
	materialize func(dir string) ([]runtime.Grant, error)
	// files writes the skill files on its first call and returns their
	// absolute root, or the error it met; later calls return the same.
	files func() (string, error)
}

var _ skill.Backend = (*Backend)(nil)

// NewBackend returns a Backend over r (not nil) whose skill files are
// written under dir, as dir/<slug>/<path>, when the model first loads a
// skill that has files. dir is created if needed; a relative dir is taken
// relative to the working directory at that moment. Give the Backend a
// directory of its own (os.MkdirTemp, or a cache directory): files are
// written into it, never removed. Nothing touches the filesystem before
// that first load, and it happens once per Backend: if it fails, every
// later load of a skill with files returns the same error.
func NewBackend(r *runtime.Registry, dir string) *Backend {
	b := &Backend{r: r, dir: dir, materialize: r.Materialize}
	b.files = sync.OnceValues(b.writeFiles)
	return b
}

func (b *Backend) writeFiles() (string, error) {
	if b.dir == "" {
		return "", errors.New("skillgen/eino: no directory for the skill files: NewBackend was given \"\"")
	}
	root, err := filepath.Abs(b.dir)
	if err != nil {
		return "", fmt.Errorf("skillgen/eino: skill files: %w", err)
	}
	if _, err := b.materialize(root); err != nil {
		return "", fmt.Errorf("skillgen/eino: writing the skill files to %s: %w", root, err)
	}
	return root, nil
}

// List returns the name and description of every model-invocable workflow,
// sorted by name: the skills in the catalog of the middleware's tool,
// exactly the entries of Registry.Catalog. That includes in-house workflows
// marked model-invocable, as the registry's own Resident block and
// activation tool do; a workflow only the user may run (as /<slug>) is left
// out. Descriptions are as written, line breaks included, or cut to the
// catalog budget the package was generated with (skillgen
// -catalog-budget), which may also leave workflows out of the list: Get
// still loads them by name. List touches no file.
func (b *Backend) List(ctx context.Context) ([]skill.FrontMatter, error) {
	entries, _ := b.r.Catalog()
	matters := make([]skill.FrontMatter, len(entries))
	for i, e := range entries {
		matters[i] = skill.FrontMatter{Name: e.Slug, Description: e.Description}
	}
	return matters, nil
}

// Get returns the workflow named name for the middleware's tool to show the
// model. Its Content is Registry.Activate's: the body wrapped in
// <skill_content>, {baseDir} and ${CLAUDE_SKILL_DIR} replaced by the skill's
// directory, and the skill's other files listed, not read. Its
// BaseDirectory is the skill's absolute directory under the Backend's
// directory, where every file listed can be read; the first Get of such a
// skill writes the files. A workflow without files (an in-house workflow)
// has no BaseDirectory and writes nothing.
//
// An unknown name is an error wrapping runtime.ErrNotFound; a workflow that
// is not model-invocable, one wrapping runtime.ErrNotModelInvocable.
func (b *Backend) Get(ctx context.Context, name string) (skill.Skill, error) {
	w, ok := b.r.Lookup(name)
	if !ok {
		return skill.Skill{}, fmt.Errorf("skillgen/eino: unknown skill %q: %w", name, runtime.ErrNotFound)
	}
	if !w.ModelInvocation {
		return skill.Skill{}, fmt.Errorf("skillgen/eino: skill %q: %w", name, runtime.ErrNotModelInvocable)
	}
	dir := ""
	if len(w.Files) > 0 {
		root, err := b.files()
		if err != nil {
			return skill.Skill{}, err
		}
		dir = filepath.Join(root, w.Slug)
	}
	content, err := b.r.Activate(w.Slug, dir)
	if err != nil {
		return skill.Skill{}, fmt.Errorf("skillgen/eino: skill %q: %w", name, err)
	}
	return skill.Skill{
		FrontMatter:   skill.FrontMatter{Name: w.Slug, Description: w.Description},
		Content:       content,
		BaseDirectory: dir,
	}, nil
}
