package watch

import (
	"encoding/binary"
	"hash/maphash"
	"io/fs"
	"os"
	"slices"
	"sync"
	"time"
)

// Polling intervals. A walk of the inputs costs CPU in proportion to their
// number of files and directories (about 10 µs each on the machine of
// README.md's figures); waiting 100 times as long as the last walk took
// between walks keeps polling under 1% of a core, within the bounds below.
// After a change, the poller looks again after settle, until a walk finds
// nothing new, so that the end of a burst of writes is seen promptly.
const (
	minInterval = 250 * time.Millisecond
	maxInterval = 10 * time.Second
	settle      = 100 * time.Millisecond
	walkShare   = 100 // the interval is this many times the last walk
)

// poller finds changes by comparing fingerprints of the set.
type poller struct {
	notify func()
	seed   maphash.Seed

	mu       sync.Mutex
	set      Set
	watching bool          // set was given
	last     uint64        // fingerprint of set at the last look
	interval time.Duration // until the next look, when nothing changed

	stop chan struct{}
	once sync.Once
}

func newPoller(notify func()) *poller {
	p := &poller{notify: notify, seed: maphash.MakeSeed(), interval: minInterval, stop: make(chan struct{})}
	go p.loop()
	return p
}

func (p *poller) mode() string { return "polling" }

func (p *poller) close() { p.once.Do(func() { close(p.stop) }) }

func (p *poller) watch(s Set) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if slices.Equal(s.Files, p.set.Files) && slices.Equal(s.Trees, p.set.Trees) && p.watching {
		// Changes since the last look are found by the next one, as ever.
		return nil
	}
	p.set, p.watching = s, true
	p.last, p.interval = p.measure()
	return nil
}

func (p *poller) loop() {
	wait := time.NewTimer(minInterval)
	defer wait.Stop()
	for {
		select {
		case <-p.stop:
			return
		case <-wait.C:
		}
		p.mu.Lock()
		fp, interval := p.measure()
		changed := fp != p.last
		p.last, p.interval = fp, interval
		p.mu.Unlock()
		if changed {
			p.notify()
			interval = settle
		}
		wait.Reset(interval)
	}
}

// measure fingerprints the set and returns the interval its cost allows.
func (p *poller) measure() (uint64, time.Duration) {
	start := time.Now()
	fp := p.fingerprint()
	return fp, min(max(walkShare*time.Since(start), minInterval), maxInterval)
}

// fingerprint hashes, for every file of the set and every entry of its
// trees, the path, what kind of file it is and its stamp (size,
// modification and change times, inode), and every directory listing, so
// that any write, chmod, creation, removal or rename changes it.
func (p *poller) fingerprint() uint64 {
	var h maphash.Hash
	h.SetSeed(p.seed)
	var buf []byte
	add := func(path string, info fs.FileInfo, names []string) {
		buf = append(buf[:0], path...)
		buf = append(buf, 0)
		if info == nil {
			buf = append(buf, '-') // missing
		} else {
			buf = binary.LittleEndian.AppendUint32(buf, uint32(info.Mode()))
			st := stampOf(info)
			for _, v := range st {
				buf = binary.LittleEndian.AppendUint64(buf, v)
			}
		}
		for _, n := range names {
			buf = append(buf, n...)
			buf = append(buf, 0)
		}
		h.Write(buf)
	}
	for _, f := range p.set.Files {
		info, err := os.Stat(f)
		if err != nil {
			info = nil
		}
		add(f, info, nil)
	}
	for _, t := range p.set.Trees {
		info, err := os.Lstat(t)
		if err != nil {
			info = nil
		}
		add(t, info, nil) // the root itself, or a link to it
		walkTree(t, add)
	}
	return h.Sum64()
}
