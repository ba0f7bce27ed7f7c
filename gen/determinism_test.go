//go:build unix

package gen_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/skillgen/skillgen/gen"
)

// The determinism test runs each generation in a child process (this test
// binary, re-executed to run TestDeterminismChild) so that everything that
// is per process really differs between the two: working directory, umask,
// TZ, locale and $HOME.
const (
	childRootEnv  = "SKILLGEN_TEST_DET_ROOT"  // the workspace to create and generate
	childSeedEnv  = "SKILLGEN_TEST_DET_SEED"  // the creation order
	childUmaskEnv = "SKILLGEN_TEST_DET_UMASK" // octal
	childDirEnv   = "SKILLGEN_TEST_DET_DIR"   // Config.Dir; "" means the process's working directory
	childMtimeEnv = "SKILLGEN_TEST_DET_MTIME" // if set, a Unix time given to every input file
)

// TestDeterminismChild is not a test on its own: it does one generation
// when TestDeterminism runs it in a child process, and nothing otherwise.
func TestDeterminismChild(t *testing.T) {
	root := os.Getenv(childRootEnv)
	if root == "" {
		return
	}
	mask, err := strconv.ParseUint(os.Getenv(childUmaskEnv), 8, 32)
	if err != nil {
		t.Fatal(err)
	}
	syscall.Umask(int(mask))
	seed, err := strconv.ParseInt(os.Getenv(childSeedEnv), 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	buildWorkspace(t, root, seed)
	if s := os.Getenv(childMtimeEnv); s != "" {
		sec, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		when := time.Unix(sec, 0)
		err = filepath.Walk(root, func(p string, _ os.FileInfo, err error) error {
			if err != nil {
				return err
			}
			return os.Chtimes(p, when, when)
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	// Home is left to $HOME, which differs between the children.
	r := generateOK(t, gen.Config{Dir: os.Getenv(childDirEnv), Out: wsOut})
	if _, err := r.Write(); err != nil {
		t.Fatal(err)
	}
}

func TestDeterminism(t *testing.T) {
	if os.Getenv(childRootEnv) != "" {
		return
	}
	// Workspace B lives on another filesystem when one is at hand (tmpfs
	// lists a directory in reverse creation order, ext4 in hash order), so
	// that directory-listing order differs, not only inode numbers.
	tmpA := t.TempDir()
	tmpB := t.TempDir()
	otherFS := false
	if d, err := os.MkdirTemp("/dev/shm", "skillgen-det-"); err == nil {
		tmpB, otherFS = d, true
		t.Cleanup(func() { os.RemoveAll(d) })
	}
	rootA := filepath.Join(tmpA, "checkout-one", "agent")
	rootB := filepath.Join(tmpB, "elsewhere", "a different checkout")
	homeA, homeB := filepath.Join(tmpA, "home-a"), filepath.Join(tmpB, "home-b")
	cwdB := filepath.Join(tmpB, "unrelated-cwd")
	for _, d := range []string{rootA, rootB, homeA, homeB, cwdB} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}

	runChild(t, rootA, []string{
		childRootEnv + "=" + rootA, childSeedEnv + "=1", childUmaskEnv + "=022", childDirEnv + "=",
		"HOME=" + homeA, "TZ=UTC", "LANG=C", "LC_ALL=C",
	})
	runChild(t, cwdB, []string{
		childRootEnv + "=" + rootB, childSeedEnv + "=2", childUmaskEnv + "=077", childDirEnv + "=" + rootB,
		childMtimeEnv + "=" + strconv.FormatInt(time.Date(1999, 12, 31, 23, 59, 59, 0, time.UTC).Unix(), 10),
		"HOME=" + homeB, "TZ=Asia/Tokyo", "LANG=ja_JP.UTF-8", "LC_ALL=tr_TR.UTF-8",
	})

	// The inputs really were laid out differently.
	switch differs := listingOrderDiffers(t, rootA, rootB); {
	case !differs && otherFS:
		t.Errorf("every directory lists in the same order in both workspaces; the test shows less than it claims")
	case !differs:
		t.Logf("note: every directory lists in the same order in both workspaces (same filesystem)")
	}

	outA, outB := snapshotTree(t, filepath.Join(rootA, wsOut)), snapshotTree(t, filepath.Join(rootB, wsOut))
	files := func(st treeState) []string {
		var names []string
		for p, s := range st {
			if s.mode.IsRegular() {
				names = append(names, p)
			}
		}
		slices.Sort(names)
		return names
	}
	namesA, namesB := files(outA), files(outB)
	if !slices.Equal(namesA, namesB) {
		t.Fatalf("the outputs hold different files:\n  A: %q\n  B: %q", namesA, namesB)
	}
	if want := len(wsBlobs()) + 2; len(namesA) != want {
		t.Errorf("output has %d files, want %d (the Go file, the table and one per blob)", len(namesA), want)
	}
	for _, p := range namesA {
		a, b := outA[p], outB[p]
		if a.data != b.data {
			t.Errorf("%s differs between the two runs:\n%s", p, firstDiff(a.data, b.data))
		}
		if a.mode != b.mode {
			t.Errorf("%s: mode %v in one run, %v in the other (umask leaked)", p, a.mode, b.mode)
		}
	}

	src := outA[gen.GoFileName].data
	if src == "" {
		t.Fatalf("no %s", gen.GoFileName)
	}
	wd, _ := os.Getwd()
	for _, s := range []string{tmpA, tmpB, rootA, rootB, homeA, homeB, cwdB, wd, os.TempDir() + "/", "/dev/shm", "checkout-one", "a different checkout", "home-a", "home-b"} {
		if strings.Contains(src, s) {
			t.Errorf("%s contains %q, a path of the build machine", gen.GoFileName, s)
		}
	}
	if h, err := os.UserHomeDir(); err == nil && len(h) > 1 && strings.Contains(src, h+"/") {
		t.Errorf("%s contains the home directory %q", gen.GoFileName, h)
	}
	for _, re := range []*regexp.Regexp{
		regexp.MustCompile(`\b(19|20)\d\d-[01]\d-[0-3]\d`), // dates
		regexp.MustCompile(`\b[0-2]?\d:[0-5]\d:[0-5]\d\b`), // times of day
		regexp.MustCompile(`\b(9\d{8}|1[0-9]\d{8})\b`),     // Unix times 1999..2286
	} {
		if m := re.FindString(src); m != "" {
			t.Errorf("%s contains what looks like a timestamp: %q", gen.GoFileName, m)
		}
	}
}

// runChild runs TestDeterminismChild in dir with env added.
func runChild(t *testing.T, dir string, env []string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestDeterminismChild$", "-test.count=1")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("child generation in %s: %v\n%s", dir, err, out)
	}
}

// listingOrderDiffers reports whether some directory of the two workspaces
// lists its entries in a different order.
func listingOrderDiffers(t *testing.T, rootA, rootB string) bool {
	t.Helper()
	seen := map[string]bool{}
	for _, f := range wsFiles {
		for d := filepath.Dir(f.path); d != "."; d = filepath.Dir(d) {
			seen[d] = true
		}
	}
	for d := range seen {
		a, b := rawListing(t, filepath.Join(rootA, d)), rawListing(t, filepath.Join(rootB, d))
		if !slices.Equal(a, b) {
			return true
		}
	}
	return false
}

// rawListing is a directory's entries in the order the filesystem gives.
func rawListing(t *testing.T, dir string) []string {
	t.Helper()
	f, err := os.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	names, err := f.Readdirnames(-1)
	if err != nil {
		t.Fatal(err)
	}
	return names
}

// firstDiff shows where two texts start to differ.
func firstDiff(a, b string) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	lo := max(0, i-80)
	return fmt.Sprintf("  at byte %d:\n  A: %q\n  B: %q", i, a[lo:min(len(a), i+80)], b[lo:min(len(b), i+80)])
}
