package main

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"runtime"
	"strings"
)

// machine describes where the figures were taken.
type machine struct {
	CPU     string
	Cores   int
	Go      string // the toolchain that built everything
	OS      string
	Load    string // load averages, where the OS says
	MaxProc int
}

func describeMachine(goVersion string) machine {
	m := machine{CPU: cpuModel(), Cores: runtime.NumCPU(), Go: goVersion, OS: runtime.GOOS + "/" + runtime.GOARCH,
		MaxProc: runtime.GOMAXPROCS(0)}
	if rel, err := os.ReadFile("/proc/sys/kernel/osrelease"); err == nil {
		m.OS += " (Linux " + strings.TrimSpace(string(rel)) + ")"
	} else if out, err := exec.Command("uname", "-sr").Output(); err == nil {
		m.OS += " (" + strings.TrimSpace(string(out)) + ")"
	}
	m.Load = loadAverage()
	return m
}

func cpuModel() string {
	if data, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		sc := bufio.NewScanner(bytes.NewReader(data))
		for sc.Scan() {
			if k, v, ok := strings.Cut(sc.Text(), ":"); ok {
				switch strings.TrimSpace(k) {
				case "model name", "Model", "cpu model":
					return strings.TrimSpace(v)
				}
			}
		}
	}
	if out, err := exec.Command("sysctl", "-n", "machdep.cpu.brand_string").Output(); err == nil {
		return strings.TrimSpace(string(out))
	}
	return "unknown CPU"
}

// loadAverage returns the 1, 5 and 15 minute load averages, or "".
func loadAverage() string {
	if data, err := os.ReadFile("/proc/loadavg"); err == nil {
		if f := strings.Fields(string(data)); len(f) >= 3 {
			return strings.Join(f[:3], " ")
		}
	}
	if out, err := exec.Command("sysctl", "-n", "vm.loadavg").Output(); err == nil {
		return strings.Trim(strings.TrimSpace(string(out)), "{} ")
	}
	return ""
}

// fsType names the file system that holds dir, where the OS says.
func fsType(dir string) string {
	if runtime.GOOS == "linux" {
		if out, err := exec.Command("stat", "-f", "-c", "%T", dir).Output(); err == nil {
			return strings.TrimSpace(string(out))
		}
	}
	if out, err := exec.Command("df", "-P", dir).Output(); err == nil {
		if lines := strings.Split(strings.TrimSpace(string(out)), "\n"); len(lines) == 2 {
			if f := strings.Fields(lines[1]); len(f) > 0 {
				return "on " + f[0]
			}
		}
	}
	return "file system unknown"
}
