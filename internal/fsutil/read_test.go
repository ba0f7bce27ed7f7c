package fsutil

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"
)

func TestReadRegularFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name, data string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, data := range []string{"", "x", "hello\nworld\n", strings.Repeat("y", 100<<10)} {
		got, err := ReadRegularFile(write("f", data), 1<<20)
		if err != nil || string(got) != data {
			t.Errorf("a %d-byte file: %d bytes, %v", len(data), len(got), err)
		}
	}
	var tooLarge *TooLargeError
	if _, err := ReadRegularFile(write("big", "0123456789"), 9); !errors.As(err, &tooLarge) || tooLarge.Size != 10 || tooLarge.Max != 9 {
		t.Errorf("a file over the limit: %v", err)
	}
	if _, err := ReadRegularFile(dir, 10); !errors.Is(err, ErrNotRegular) {
		t.Errorf("a directory: %v, want ErrNotRegular", err)
	}
	if _, err := ReadRegularFile(filepath.Join(dir, "missing"), 10); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a missing file: %v", err)
	}
}

// TestReadSized covers what a racing writer can do between the stat and
// the read: short reads, a file that shrank, one that grew (within and
// over the limit).
func TestReadSized(t *testing.T) {
	tests := []struct {
		name       string
		r          io.Reader
		size, max  int64
		want       string
		wantTooBig bool
	}{
		{"as stated", strings.NewReader("abcdef"), 6, 100, "abcdef", false},
		{"one byte a read", iotest.OneByteReader(strings.NewReader("abcdef")), 6, 100, "abcdef", false},
		{"shrank", strings.NewReader("abc"), 6, 100, "abc", false},
		{"grew", strings.NewReader("abcdefghij"), 6, 100, "abcdefghij", false},
		{"grew, one byte a read", iotest.OneByteReader(strings.NewReader("abcdefghij")), 6, 100, "abcdefghij", false},
		{"grew over the limit", strings.NewReader(strings.Repeat("z", 200)), 6, 100, "", true},
		{"stated over the limit", strings.NewReader("abc"), 101, 100, "", true},
		{"empty", strings.NewReader(""), 0, 100, "", false},
		{"empty, grew", bytes.NewReader([]byte("late")), 0, 100, "late", false},
	}
	for _, tt := range tests {
		got, err := readSized(tt.r, tt.size, tt.max)
		var tooBig *TooLargeError
		if errors.As(err, &tooBig) != tt.wantTooBig || (!tt.wantTooBig && (err != nil || string(got) != tt.want)) {
			t.Errorf("%s: %q, %v", tt.name, got, err)
		}
	}
}
