package runtime

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Materialize writes every skill file under dir (created if needed) as
// dir/<slug>/<path>, with its executable bit, and returns one read grant per
// ingested skill whose Target is the skill's absolute directory under dir.
// Each file is written to a temporary name and renamed into place, so a
// reader never sees a partial file and an existing symlink is replaced, not
// followed. It is the only method that touches the filesystem.
func (r *Registry) Materialize(dir string) ([]Grant, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("materialize: %w", err)
	}
	if err := os.MkdirAll(abs, 0o755); err != nil {
		return nil, fmt.Errorf("materialize: %w", err)
	}
	for i := range r.entries() {
		e := r.entry(i)
		if !fs.ValidPath(e.path) {
			return nil, fmt.Errorf("materialize: invalid path %q in table", e.path)
		}
		data, ok := r.blobData(e.blob)
		if !ok {
			return nil, fmt.Errorf("materialize: %s: the table does not carry its contents", e.path)
		}
		if err := writeFileAtomic(filepath.Join(abs, filepath.FromSlash(e.path)), data, e.mode.Perm()); err != nil {
			return nil, fmt.Errorf("materialize: %w", err)
		}
	}
	grants := r.Grants()
	for i := range grants {
		grants[i].Target = filepath.Join(abs, filepath.FromSlash(grants[i].Target))
	}
	return grants, nil
}

func writeFileAtomic(name, data string, perm fs.FileMode) (err error) {
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(name), ".materialize-*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			os.Remove(f.Name())
		}
	}()
	if _, err := f.WriteString(data); err != nil {
		f.Close()
		return err
	}
	// Chmod, not the create mode: the umask must not strip the exec bit.
	if err := f.Chmod(perm); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), name)
}
