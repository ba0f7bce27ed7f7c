//go:build unix

package gen_test

// Hostile inputs, end to end: skills the user did not write, run
// through the whole pipeline (compile, lower, render, write) and checked on
// what reaches the generated output (the parsers' own hostile cases are in
// internal/compile). Each test says which behaviour it shows;
// each assertion would fail without that behaviour.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/skillgen/skillgen/internal/testmod"

	"github.com/skillgen/skillgen/internal/casetest"

	"github.com/skillgen/skillgen/gen"
)

// hostileWS is a workspace: <dir>/.insomnia/manifest.toml lists "skills".
type hostileWS struct {
	t   *testing.T
	dir string
}

func newHostileWS(t *testing.T) *hostileWS {
	t.Helper()
	// Resolved, so that paths in diagnostics and symlink targets compare
	// as written (the temp dir may itself sit behind a symlink).
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	w := &hostileWS{t: t, dir: dir}
	w.write(".insomnia/manifest.toml", "[skills]\ndirectories = [\"skills\"]\n")
	w.mkdir("skills")
	return w
}

func (w *hostileWS) path(rel string) string { return filepath.Join(w.dir, filepath.FromSlash(rel)) }

func (w *hostileWS) mkdir(rel string) {
	w.t.Helper()
	if err := os.MkdirAll(w.path(rel), 0o755); err != nil {
		w.t.Fatal(err)
	}
}

func (w *hostileWS) write(rel, data string) {
	w.t.Helper()
	casetest.WriteFile(w.t, w.dir, rel, data)
}

// skillMD is a valid SKILL.md for a skill directory named name.
func skillMD(name string) string {
	return "---\nname: " + name + "\ndescription: The " + name + " skill.\n---\n# " + name + "\n"
}

// skill writes a valid SKILL.md for skills/<name>.
func (w *hostileWS) skill(name string) {
	w.t.Helper()
	w.write("skills/"+name+"/SKILL.md", skillMD(name))
}

func (w *hostileWS) symlink(rel, target string) {
	w.t.Helper()
	p := w.path(rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		w.t.Fatal(err)
	}
	if err := os.Symlink(target, p); err != nil {
		w.t.Fatal(err)
	}
}

func (w *hostileWS) fifo(rel string) {
	w.t.Helper()
	p := w.path(rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		w.t.Fatal(err)
	}
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		w.t.Fatal(err)
	}
}

// generate runs the whole pipeline in memory, failing the test if it does
// not finish in time: a special file opened for reading, or a symlink loop
// followed, would block or spin.
func (w *hostileWS) generate(cfg gen.Config) *gen.Result {
	w.t.Helper()
	cfg.Dir = w.dir
	if cfg.Out == "" {
		cfg.Out = "out"
	}
	cfg.Package = "skills"
	var (
		res *gen.Result
		err error
	)
	casetest.Finishes(w.t, 20*time.Second, "Generate", func() { res, err = gen.Generate(cfg) })
	if err != nil {
		w.t.Fatal(err)
	}
	return res
}

// writeOK generates and writes the package, which must have no errors.
func (w *hostileWS) writeOK(cfg gen.Config) *gen.Result {
	w.t.Helper()
	res := w.generate(cfg)
	if !res.OK() {
		w.t.Fatalf("the run has errors:\n%s", formatDiags(res.Diagnostics))
	}
	if _, err := res.Write(); err != nil {
		w.t.Fatal(err)
	}
	return res
}

// outputFiles returns every file under dir, by slash path.
func outputFiles(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		files[filepath.ToSlash(rel)] = data
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// servedFiles lists what the result serves for one skill: relative path →
// size, from the preview registry (sizes only; contents are in the blobs).
func servedFiles(res *gen.Result, slug string) map[string]int64 {
	files := map[string]int64{}
	if w, ok := res.Registry().Lookup(slug); ok {
		for _, f := range w.Files {
			files[f.Path] = f.Size
		}
	}
	return files
}

// wantDiag fails unless a diagnostic with this severity and code is about
// file and its message contains each of parts.
func wantDiag(t *testing.T, ds []gen.Diagnostic, sev gen.Severity, code, file string, parts ...string) {
	t.Helper()
next:
	for _, d := range ds {
		if d.Code != code || d.File != file || d.Severity != sev {
			continue
		}
		for _, p := range parts {
			if !strings.Contains(d.Message, p) {
				continue next
			}
		}
		return
	}
	t.Errorf("no %v %s about %s whose message holds %q; got:\n%s", sev, code, file, parts, diagList(ds))
}

func diagList(ds []gen.Diagnostic) string {
	var b strings.Builder
	for _, d := range ds {
		fmt.Fprintf(&b, "  %s\n", d)
	}
	return b.String()
}

// TestHostileSpecialFiles shows that named pipes, sockets and devices in a
// skill are skipped with a warning and never opened: a pipe with no writer
// blocks whoever opens it, so the run would hang; and a watcher blocked in
// opening each pipe's write end would be released by any reader.
func TestHostileSpecialFiles(t *testing.T) {
	w := newHostileWS(t)
	w.skill("odd")
	w.write("skills/odd/notes.txt", "regular\n")
	w.fifo("skills/odd/pipe")
	w.fifo("skills/odd/sub/deeper-pipe")
	w.fifo("skills/odd/quiet-pipe") // no watcher: opening it would block the run
	w.symlink("skills/odd/pipe-link", "pipe")
	// A skill whose SKILL.md is a pipe, and a skills root that is one.
	w.fifo("skills/piped/SKILL.md")
	w.fifo("pipe-root")
	w.write(".insomnia/manifest.toml", "[skills]\ndirectories = [\"skills\", \"pipe-root\"]\n")
	// A unix socket, bound by a listener that stays open.
	sock := w.path("skills/odd/sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatalf("listening on %s: %v", sock, err)
	}
	defer ln.Close()
	// A character device (the same as /dev/null), where mknod is allowed.
	dev := w.path("skills/odd/dev")
	devErr := syscall.Mknod(dev, syscall.S_IFCHR|0o666, 1<<8|3) // untyped: dev is an int on Linux and macOS, a uint64 on FreeBSD

	var watched []func() bool
	for _, p := range []string{"skills/odd/pipe", "skills/odd/sub/deeper-pipe", "skills/piped/SKILL.md", "pipe-root"} {
		watched = append(watched, casetest.FifoWatch(t, w.path(p)))
	}
	res := w.generate(gen.Config{})
	for i, p := range []string{"skills/odd/pipe", "skills/odd/sub/deeper-pipe", "skills/piped/SKILL.md", "pipe-root"} {
		if watched[i]() {
			t.Errorf("%s was opened for reading", p)
		}
	}
	if !res.OK() {
		t.Fatalf("the run has errors:\n%s", diagList(res.Diagnostics))
	}
	ds := res.Diagnostics
	wantDiag(t, ds, gen.Warning, gen.CodeFileSkipped, w.path("skills/odd/pipe"), `named pipe "pipe"`, "never opened")
	wantDiag(t, ds, gen.Warning, gen.CodeFileSkipped, w.path("skills/odd/sub/deeper-pipe"), `named pipe "sub/deeper-pipe"`, "never opened")
	wantDiag(t, ds, gen.Warning, gen.CodeFileSkipped, w.path("skills/odd/quiet-pipe"), `named pipe "quiet-pipe"`, "never opened")
	wantDiag(t, ds, gen.Warning, gen.CodeFileSkipped, w.path("skills/odd/pipe-link"), `symlink "pipe-link" points to a named pipe`)
	wantDiag(t, ds, gen.Warning, gen.CodeFileSkipped, sock, `socket "sock"`, "never opened")
	wantDiag(t, ds, gen.Warning, gen.CodeReadFailed, w.path("skills/piped/SKILL.md"), "named pipe", "never opened")
	wantDiag(t, ds, gen.Warning, gen.CodeSkillsDirMissing, w.path(".insomnia/manifest.toml"), `"pipe-root"`, "not a directory")
	if devErr == nil {
		wantDiag(t, ds, gen.Warning, gen.CodeFileSkipped, dev, `device "dev"`, "never opened")
	} else {
		t.Logf("device sub-case not run: mknod is not permitted here (%v)", devErr)
	}
	want := map[string]int64{"SKILL.md": int64(len(skillMD("odd"))), "notes.txt": 8}
	if got := servedFiles(res, "odd"); !mapsEqual(got, want) {
		t.Errorf("skill odd serves %v, want %v", got, want)
	}
	if _, ok := res.Registry().Lookup("piped"); ok {
		t.Errorf("the skill whose SKILL.md is a pipe was ingested")
	}

	// validate walks the same files: no hang there either.
	casetest.Finishes(t, 20*time.Second, "Validate", func() { gen.Validate([]string{w.path("skills")}, true) })
}

func mapsEqual[K comparable, V comparable](a, b map[K]V) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if bv, ok := b[k]; !ok || bv != v {
			return false
		}
	}
	return true
}

// TestHostileSymlinkLoops shows that symlink loops and links to parent
// directories terminate, and that a skill directory that is a symlink is
// followed once — even one that points back up to its own root.
func TestHostileSymlinkLoops(t *testing.T) {
	w := newHostileWS(t)
	w.skill("loopy")
	w.write("skills/loopy/deep/er/file.txt", "deep\n")
	w.symlink("skills/loopy/self", "self")                  // a self link
	w.symlink("skills/loopy/a", "b")                        // a -> b -> a
	w.symlink("skills/loopy/b", "a")                        //
	w.symlink("skills/loopy/up", "..")                      // the root
	w.symlink("skills/loopy/dot", ".")                      // the skill itself
	w.symlink("skills/loopy/deep/er/back", "../..")         // the skill, from below
	w.symlink("skills/loopy/deep/er/root", "/")             // the file system root
	w.symlink("skills/loopy/deep/er/file-link", "file.txt") // a control: followed

	// A skill directory that is a symlink to a skill kept elsewhere: it is
	// followed, once. Inside, a link back to itself is not.
	w.write("shared/linked/SKILL.md", skillMD("linked"))
	w.write("shared/linked/data.txt", "shared data\n")
	w.symlink("shared/linked/again", "../linked")
	w.symlink("skills/linked", "../shared/linked")

	// Root entries that point back up: to the root itself and to the
	// workspace. Neither holds a SKILL.md, so neither is a skill.
	w.symlink("skills/back-to-root", ".")
	w.symlink("skills/to-workspace", "..")
	w.symlink("skills/root-loop", "root-loop")

	// A second root, itself a skill named "again" (its own SKILL.md), and
	// a skill directory inside it that points back up to it.
	w.write("r2/SKILL.md", skillMD("again"))
	w.write("r2/inner/x.txt", "x\n")
	w.symlink("r2/again", ".")
	w.write(".insomnia/manifest.toml", "[skills]\ndirectories = [\"skills\", \"r2\"]\n")

	res := w.writeOK(gen.Config{})
	ds := res.Diagnostics
	for _, name := range []string{"self", "a", "b"} {
		wantDiag(t, ds, gen.Warning, gen.CodeFileSkipped, w.path("skills/loopy/"+name), "cannot be resolved (dangling or a loop)")
	}
	for _, name := range []string{"dot", "deep/er/back"} {
		wantDiag(t, ds, gen.Warning, gen.CodeFileSkipped, w.path("skills/loopy/"+name), "points to a directory")
	}
	for _, name := range []string{"up", "deep/er/root"} {
		wantDiag(t, ds, gen.Warning, gen.CodeSymlinkEscape, w.path("skills/loopy/"+name), "outside the skill directory")
	}
	wantDiag(t, ds, gen.Warning, gen.CodeFileSkipped, w.path("skills/linked/again"), "points to a directory")

	if got, want := servedFiles(res, "loopy"), map[string]int64{
		"SKILL.md": int64(len(skillMD("loopy"))), "deep/er/file.txt": 5, "deep/er/file-link": 5,
	}; !mapsEqual(got, want) {
		t.Errorf("loopy serves %v, want %v", got, want)
	}
	if got, want := servedFiles(res, "linked"), map[string]int64{"SKILL.md": int64(len(skillMD("linked"))), "data.txt": 12}; !mapsEqual(got, want) {
		t.Errorf("linked serves %v, want %v", got, want)
	}
	// "again" is r2 itself, reached once through r2/again: its files, with
	// the link back up skipped.
	if got, want := servedFiles(res, "again"), map[string]int64{"SKILL.md": int64(len(skillMD("again"))), "inner/x.txt": 2}; !mapsEqual(got, want) {
		t.Errorf("again serves %v, want %v", got, want)
	}
	wantDiag(t, ds, gen.Warning, gen.CodeFileSkipped, w.path("r2/again/again"), "points to a directory")
	var slugs []string
	for _, wf := range res.Registry().Workflows() {
		slugs = append(slugs, wf.Slug)
	}
	if want := []string{"again", "linked", "loopy"}; !slices.Equal(slugs, want) {
		t.Errorf("workflows %q, want %q", slugs, want)
	}
}

// TestHostileNothingFromOutside shows that no byte from outside a skill's
// directory reaches the output: symlinks that resolve outside (absolute,
// relative, chained, through a linked directory, through ".." after a
// linked directory, from inside a skill directory that is itself a link)
// are never followed, and the check is made on the resolved path, not the
// written one. Links that stay inside are followed (the controls), so the
// test would notice if every link were simply dropped.
func TestHostileNothingFromOutside(t *testing.T) {
	w := newHostileWS(t)
	secret := "SECRET-" + strconv.FormatInt(time.Now().UnixNano(), 36)
	out := filepath.Join(filepath.Dir(w.dir), filepath.Base(w.dir)+"-outside")
	if err := os.MkdirAll(filepath.Join(out, "deep", "er"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(out) })
	for name, data := range map[string]string{
		"secret":       secret + "-1\n",
		"deep/secret2": secret + "-2\n",
		"SKILL.md":     "---\nname: stolen\ndescription: " + secret + "-3\n---\n" + secret + "-4\n",
	} {
		if err := os.WriteFile(filepath.Join(out, filepath.FromSlash(name)), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}

	w.skill("leaky")
	w.write("skills/leaky/inner/file.txt", "inside\n")
	w.write("skills/leaky/secret2", "innocent\n") // what a lexical check would take a/../secret2 for
	rel, err := filepath.Rel(w.path("skills/leaky"), filepath.Join(out, "secret"))
	if err != nil {
		t.Fatal(err)
	}
	escapes := map[string]string{
		"abs":         filepath.Join(out, "secret"),                          // absolute
		"rel":         rel,                                                   // relative
		"chain1":      "chain2",                                              // chained, the last hop leaves
		"chain2":      filepath.Join(out, "secret"),                          //
		"sub":         out,                                                   // a linked directory ...
		"x":           "sub/secret",                                          // ... and a file through it
		"a":           filepath.Join(out, "deep", "er"),                      // a linked directory, then
		"t":           "a/../secret2",                                        // ".." from where it really is
		"dotdot":      "../leaky/../../../" + filepath.Base(out) + "/secret", // in, up and out
		"inner/up":    "../../../../" + filepath.Base(out) + "/secret",
		"inner/proc":  "/proc/self/environ",
		"inner/root":  "/",
		"inner/twice": "../x", // a link to a link that leaves
	}
	for name, target := range escapes {
		w.symlink("skills/leaky/"+name, target)
	}
	// Controls: links that resolve inside are followed.
	w.symlink("skills/leaky/ok", "inner/file.txt")
	w.symlink("skills/leaky/reenter", "../leaky/inner/file.txt")

	// A skill directory that is a symlink: links inside it are judged from
	// where it really is. "up" lexically means skills/secret3 (which holds
	// nothing secret) but really means the outside secret3.
	if err := os.MkdirAll(filepath.Join(out, "linkdir"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string]string{
		"linkdir/SKILL.md": skillMD("linkdir"),
		"linkdir/f.txt":    "linked file\n",
		"secret3":          secret + "-5\n",
	} {
		if err := os.WriteFile(filepath.Join(out, filepath.FromSlash(name)), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	w.write("skills/secret3", "not a secret\n")
	w.symlink("skills/linkdir", filepath.Join(out, "linkdir"))
	if err := os.Symlink("../secret3", filepath.Join(out, "linkdir", "up")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../linkdir/f.txt", filepath.Join(out, "linkdir", "in")); err != nil {
		t.Fatal(err)
	}

	// A skill whose SKILL.md itself links out.
	w.symlink("skills/stolen/SKILL.md", filepath.Join(out, "SKILL.md"))

	res := w.writeOK(gen.Config{})
	ds := res.Diagnostics
	for name := range escapes {
		wantDiag(t, ds, gen.Warning, gen.CodeSymlinkEscape, w.path("skills/leaky/"+name), "never followed")
	}
	wantDiag(t, ds, gen.Warning, gen.CodeSymlinkEscape, w.path("skills/linkdir/up"), "never followed")
	wantDiag(t, ds, gen.Warning, gen.CodeSymlinkEscape, w.path("skills/stolen/SKILL.md"), "never followed")

	if got, want := servedFiles(res, "leaky"), map[string]int64{
		"SKILL.md": int64(len(skillMD("leaky"))), "inner/file.txt": 7, "secret2": 9, "ok": 7, "reenter": 7,
	}; !mapsEqual(got, want) {
		t.Errorf("leaky serves %v, want %v", got, want)
	}
	if got, want := servedFiles(res, "linkdir"), map[string]int64{"SKILL.md": int64(len(skillMD("linkdir"))), "f.txt": 12, "in": 12}; !mapsEqual(got, want) {
		t.Errorf("linkdir serves %v, want %v", got, want)
	}
	if _, ok := res.Registry().Lookup("stolen"); ok {
		t.Errorf("the skill whose SKILL.md links outside was ingested")
	}

	files := outputFiles(t, w.path("out"))
	if len(files) < 2 {
		t.Fatalf("nothing generated: %v", files)
	}
	for name, data := range files {
		if bytes.Contains(data, []byte(secret)) {
			t.Errorf("generated file %s holds bytes from outside the skills", name)
		}
	}
	// The controls are in the output.
	var joined []byte
	for _, data := range files {
		joined = append(joined, data...)
	}
	for _, s := range []string{"inside\n", "innocent\n", "linked file\n"} {
		if !bytes.Contains(joined, []byte(s)) {
			t.Errorf("the output does not hold %q, which is inside a skill", s)
		}
	}
	// Nor in the notifications, list or preview registry.
	for _, n := range res.Registry().Notifications() {
		if strings.Contains(n.Message, secret) {
			t.Errorf("notification holds outside bytes: %s", n.Message)
		}
	}
}

// readBytes is the number of bytes this process has read through read(2)
// and friends so far (Linux's /proc/self/io "rchar", all threads), or -1
// where it cannot be known.
func readBytes(t *testing.T) int64 {
	t.Helper()
	f, err := os.Open("/proc/self/io")
	if err != nil {
		return -1
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "rchar: "); ok {
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
	}
	return -1
}

// sparse creates a file of size bytes that occupies (almost) no disk.
func sparse(t *testing.T, p string, size int64) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(size); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// noRead runs f and fails if the process read more than limit bytes
// meanwhile. Where reads cannot be counted, it says so and only runs f.
func noRead(t *testing.T, limit int64, f func()) {
	t.Helper()
	before := readBytes(t)
	f()
	after := readBytes(t)
	if before < 0 || after < 0 {
		t.Logf("/proc/self/io is not available: the bytes read cannot be counted here")
		return
	}
	if n := after - before; n > limit {
		t.Errorf("the run read %d bytes; files over the cap must be refused from their size, before any read", n)
	}
}

// TestHostileSizeCaps shows that files over the per-file cap (a 5 GiB
// sparse file among them) and skills over the total cap are refused from
// their sizes before any byte is read, with an error that names the file,
// the size and the flag that raises the cap, and that nothing is written.
// "No read" is measured: the process's read(2) byte count stays far below
// what reading the file would take; and where the test does not run as
// root, the huge file is also made unreadable, so a read would fail with a
// different error.
func TestHostileSizeCaps(t *testing.T) {
	const huge = 5 << 30
	t.Run("file", func(t *testing.T) {
		w := newHostileWS(t)
		w.skill("big")
		w.write("skills/big/small.txt", "small\n")
		hugeFile := w.path("skills/big/assets/huge.bin")
		sparse(t, hugeFile, huge)
		if os.Geteuid() != 0 {
			if err := os.Chmod(hugeFile, 0); err != nil {
				t.Fatal(err)
			}
		}
		var res *gen.Result
		noRead(t, 16<<20, func() { res = w.generate(gen.Config{}) })
		wantDiag(t, res.Diagnostics, gen.Error, gen.CodeSizeLimit, hugeFile,
			"5368709120 bytes", strconv.Itoa(gen.DefaultMaxFileSize), "-max-file-size")
		nothingWritten(t, w, res)
	})
	t.Run("skill-md", func(t *testing.T) {
		w := newHostileWS(t)
		w.skill("fine")
		sparse(t, w.path("skills/big/SKILL.md"), huge)
		var res *gen.Result
		noRead(t, 16<<20, func() { res = w.generate(gen.Config{Strict: true}) })
		wantDiag(t, res.Diagnostics, gen.Error, gen.CodeFileTooLarge, w.path("skills/big/SKILL.md"), "5368709120 bytes")
		nothingWritten(t, w, res)
	})
	t.Run("workflow", func(t *testing.T) {
		w := newHostileWS(t)
		sparse(t, w.path(".insomnia/memory/workflow/big.md"), huge)
		var res *gen.Result
		noRead(t, 16<<20, func() { res = w.generate(gen.Config{}) })
		wantDiag(t, res.Diagnostics, gen.Error, gen.CodeFileTooLarge, w.path(".insomnia/memory/workflow/big.md"), "5368709120 bytes")
		nothingWritten(t, w, res)
	})
	t.Run("total", func(t *testing.T) {
		// 20 files of 30 MiB: each under the 32 MiB file cap, 600 MiB in
		// all, over the 512 MiB total cap. In path order, the SKILL.md and
		// f00…f16 stay under the cap; f17 passes it.
		w := newHostileWS(t)
		w.skill("many")
		mdLen := int64(len(skillMD("many")))
		for i := range 20 {
			sparse(t, w.path(fmt.Sprintf("skills/many/f%02d.bin", i)), 30<<20)
		}
		var res *gen.Result
		noRead(t, 16<<20, func() { res = w.generate(gen.Config{}) })
		total := strconv.FormatInt(20*(30<<20)+mdLen, 10)
		wantDiag(t, res.Diagnostics, gen.Error, gen.CodeSizeLimit, w.path("skills/many/f17.bin"),
			total+" bytes", strconv.Itoa(gen.DefaultMaxTotalSize), "-max-total-size")
		for _, d := range res.Diagnostics {
			if d.Code == gen.CodeSizeLimit && d.File != w.path("skills/many/f17.bin") {
				t.Errorf("unexpected: %s", d)
			}
		}
		nothingWritten(t, w, res)
	})
	t.Run("raised", func(t *testing.T) {
		// The flags raise the caps: the same files fail under small caps
		// and are embedded under caps raised to fit them exactly.
		w := newHostileWS(t)
		w.skill("mid")
		w.write("skills/mid/a.txt", strings.Repeat("a", 2000))
		w.write("skills/mid/b.txt", strings.Repeat("b", 1000))
		mdLen := int64(len(skillMD("mid")))
		res := w.generate(gen.Config{MaxFileSize: 1999})
		wantDiag(t, res.Diagnostics, gen.Error, gen.CodeSizeLimit, w.path("skills/mid/a.txt"), "2000 bytes", "1999 bytes", "-max-file-size")
		res = w.generate(gen.Config{MaxTotalSize: 3000 + mdLen - 1})
		wantDiag(t, res.Diagnostics, gen.Error, gen.CodeSizeLimit, w.path("skills/mid/b.txt"), strconv.FormatInt(3000+mdLen, 10)+" bytes", "-max-total-size")
		res = w.writeOK(gen.Config{MaxFileSize: 2000, MaxTotalSize: 3000 + mdLen})
		if got := servedFiles(res, "mid"); got["a.txt"] != 2000 || got["b.txt"] != 1000 {
			t.Errorf("under raised caps mid serves %v", got)
		}
	})
}

// nothingWritten checks that a failed run produces nothing and writes
// nothing: no files in the result, Write refuses, no output directory.
func nothingWritten(t *testing.T, w *hostileWS, res *gen.Result) {
	t.Helper()
	if res.OK() || res.Files() != nil {
		t.Errorf("the run is OK=%v with %d files; it must fail with nothing produced", res.OK(), len(res.Files()))
	}
	if _, err := res.Write(); err == nil {
		t.Errorf("Write of a failed run succeeded")
	}
	if _, err := os.Lstat(w.path("out")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the output directory exists after a failed run (%v)", err)
	}
}

// hostileNames are file names POSIX allows that Windows, go:embed or the
// module zip rules do not, each with its own content.
var hostileNames = []string{
	"con.md", "CON", "nul.txt", "aux", "com1.md", "lpt1",
	"a.md", "A.md", "readme.MD", "README.md",
	"with space.md", " leading space", "trailing space ", "trailing dot.",
	"hash#.md", "star*.md", "question?.md", "colon:.md", `back\slash.md`, `"quoted"`, "<angle>|pipe",
	"ünïcødé.md", "日本語.txt", "e\u0301.md", "é.md", "emoji-😀.md",
	"_leading.md", "-dash.md", "~tilde", "$dollar", "%25percent", "'single'",
	"go.mod", "x.go", "x_test.go", "vendor/v.txt", "testdata/t.txt", "_under/u.txt", "sub dir/aux.txt",
	"...", "..x", "a..b", "tab\there", "\u00a0nbsp", "bell\x07", "del\x7f",
	strings.Repeat("long", 60) + ".md", // 243 bytes, near NAME_MAX
}

// TestHostileNames shows that every file name a POSIX file system allows
// inside a skill is served byte-exact under its own name by FS() and
// Materialize, through a real generated package built into a host program,
// and that names that are not valid UTF-8 or hold a line break are skipped
// with a warning that names them. The generated code compiles.
func TestHostileNames(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a Go program")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	w := newHostileWS(t)
	w.skill("names")
	want := map[string]string{"SKILL.md": skillMD("names")}
	for i, name := range hostileNames {
		data := fmt.Sprintf("%d: %q\n", i, name)
		w.write("skills/names/"+name, data)
		want[name] = data
	}
	if err := os.Chmod(w.path("skills/names/$dollar"), 0o755); err != nil {
		t.Fatal(err)
	}
	bad := []string{"bad\xff.md", "new\nline.md", "cr\rname.md", "sub\xc3/x.txt"}
	for _, name := range bad {
		w.write("skills/names/"+name, "bad\n")
	}

	hostmod := testmod.New(t, "example.com/host")
	if err := hostmod.WriteFile("main.go", namesHost); err != nil {
		t.Fatal(err)
	}
	mod := hostmod.Dir
	res := w.writeOK(gen.Config{Out: filepath.Join(mod, "skills"), Hidden: true}) // "..." and "..x" start with a dot

	// Each is named in the message; the diagnostic is about the directory
	// that holds it (the name itself would break the path:line:col line).
	for _, name := range bad {
		if strings.HasPrefix(name, "sub\xc3") {
			name = "sub\xc3" // the directory is skipped, and nothing below it
		}
		wantDiag(t, res.Diagnostics, gen.Warning, gen.CodeFileSkipped, w.path("skills/names"), strconv.Quote(name), "skipped")
	}

	bin := filepath.Join(mod, "host.bin")
	if err := hostmod.Build(".", bin); err != nil {
		t.Fatalf("the generated package does not build: %v", err)
	}
	mat := w.path("materialized")
	run := exec.Command(bin, mat)
	var stderr bytes.Buffer
	run.Stderr = &stderr
	stdout, err := run.Output()
	if err != nil {
		t.Fatalf("the host failed: %v\n%s", err, stderr.String())
	}
	var out struct {
		Files  map[string]string
		FSTest []string
	}
	if err := json.Unmarshal(stdout, &out); err != nil {
		t.Fatalf("host output: %v\n%s", err, stdout)
	}
	served := out.Files
	// testing/fstest refuses any name with a backslash on principle (it
	// would be a separator on Windows); every other check must pass.
	for _, l := range out.FSTest {
		if !strings.Contains(l, `back\slash.md`) {
			t.Errorf("fstest.TestFS: %s", l)
		}
	}
	// FS(): exactly the good names, byte-exact, under "names/".
	got := map[string]string{}
	for p, data := range served {
		rel, ok := strings.CutPrefix(p, "names/")
		if !ok {
			t.Errorf("FS serves %q, outside names/", p)
		}
		got[rel] = data
	}
	for name, data := range want {
		if g, ok := got[name]; !ok {
			t.Errorf("FS does not serve %q", name)
		} else if g != data {
			t.Errorf("FS serves %q as %q, want %q", name, g, data)
		}
	}
	for name := range got {
		if _, ok := want[name]; !ok {
			t.Errorf("FS serves %q, which is not a good name of the skill", name)
		}
	}
	// Materialize: the same names and bytes on disk, the exec bit restored.
	onDisk := outputFiles(t, filepath.Join(mat, "names"))
	for name, data := range want {
		if g, ok := onDisk[name]; !ok {
			t.Errorf("Materialize did not write %q", name)
		} else if string(g) != data {
			t.Errorf("Materialize wrote %q as %q, want %q", name, g, data)
		}
	}
	if len(onDisk) != len(want) {
		t.Errorf("Materialize wrote %d files, want %d", len(onDisk), len(want))
	}
	for name, mode := range map[string]fs.FileMode{"$dollar": 0o755, "con.md": 0o644} {
		info, err := os.Stat(filepath.Join(mat, "names", name))
		if err != nil {
			t.Fatal(err)
		}
		if info.Mode().Perm()&0o111 != mode&0o111 {
			t.Errorf("materialized %q has mode %v, want the exec bits of %v", name, info.Mode(), mode)
		}
	}
}

// namesHost serves the generated package: every file of FS() as JSON
// (path → content) with what fstest.TestFS finds, after
// Materialize(os.Args[1]).
const namesHost = `package main

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"testing/fstest"

	"example.com/host/skills"
)

func main() {
	fsys := skills.Registry.FS()
	var paths []string
	files := map[string]string{}
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(fsys, p)
		files[p] = string(data)
		paths = append(paths, p)
		return err
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	var problems []string
	if err := fstest.TestFS(fsys, paths...); err != nil {
		for _, l := range strings.Split(err.Error(), "\n")[1:] { // after "TestFS found errors:"
			problems = append(problems, l)
		}
	}
	if _, err := skills.Registry.Materialize(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	json.NewEncoder(os.Stdout).Encode(map[string]any{"Files": files, "FSTest": problems})
}
`

// TestHostileLinksToHidden: without -hidden, a symlink to a dot-file or
// into a dot-directory is left out like its target, so no hidden content
// reaches the output under another name; with -hidden both are embedded.
func TestHostileLinksToHidden(t *testing.T) {
	w := newHostileWS(t)
	w.skill("leaky")
	w.write("skills/leaky/.env", "SECRET=1\n")
	w.write("skills/leaky/.git/config", "[remote] token = SECRET2\n")
	w.symlink("skills/leaky/notes.txt", ".env")
	w.symlink("skills/leaky/cfg", ".git/config")
	w.write("skills/leaky/plain.txt", "plain\n")
	w.symlink("skills/leaky/alias.txt", "plain.txt")

	res := w.writeOK(gen.Config{Out: "out"})
	for name, data := range outputFiles(t, w.path("out")) {
		if strings.Contains(string(data), "SECRET") {
			t.Errorf("hidden content reached %s", name)
		}
	}
	wantDiag(t, res.Diagnostics, gen.Info, gen.CodeFileSkipped, w.path("skills/leaky/notes.txt"), `hidden ".env"`)
	wantDiag(t, res.Diagnostics, gen.Info, gen.CodeFileSkipped, w.path("skills/leaky/cfg"), `hidden ".git/config"`)
	if got, want := servedFiles(res, "leaky"), map[string]int64{"SKILL.md": int64(len(skillMD("leaky"))), "alias.txt": 6, "plain.txt": 6}; !mapsEqual(got, want) {
		t.Errorf("served %v, want %v", got, want)
	}

	res = w.writeOK(gen.Config{Out: "out-hidden", Hidden: true})
	got := servedFiles(res, "leaky")
	for _, name := range []string{".env", ".git/config", "notes.txt", "cfg"} {
		if _, ok := got[name]; !ok {
			t.Errorf("with -hidden, %s is not served (served %v)", name, got)
		}
	}
}
