package project

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// MaxSourceSize is the largest config or .env file fwmigrate reads. Real
// configs are a few kilobytes; the limit only keeps a huge file that happens
// to be named fw.config.js (a bundle) from taking the run's memory.
const MaxSourceSize = 32 << 20

// ReadSource reads a config or .env file. It opens without blocking and
// checks the file type on the open descriptor before reading, so that a
// FIFO, a device, a socket or a directory given as a config is an error at
// once instead of a hang or an endless read, and refuses files larger than
// MaxSourceSize.
func ReadSource(path string) ([]byte, error) { return readLimited(path, MaxSourceSize) }

// readLimited is ReadSource with another size limit (a lockfile's is
// larger).
func readLimited(path string, limit int64) ([]byte, error) {
	// O_NONBLOCK makes opening a FIFO return at once; reads of regular files
	// ignore it.
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, &fs.PathError{Op: "read", Path: path, Err: fmt.Errorf("not a regular file but %s", fileKind(info.Mode()))}
	}
	if info.Size() > limit {
		return nil, &fs.PathError{Op: "read", Path: path, Err: &SizeError{Size: info.Size(), Limit: limit}}
	}
	// Read one byte past the size seen, so that a file growing while it is
	// read is still bounded. The buffer is the size seen (and the byte
	// past it), not io.ReadAll's doublings: a long-lived front end keeps
	// the texts of thousands of files.
	r := io.LimitReader(f, limit+1)
	src := make([]byte, 0, info.Size()+1)
	for {
		if len(src) == cap(src) {
			src = append(src, 0)[:len(src)] // it grew: more room
		}
		n, err := r.Read(src[len(src):cap(src)])
		src = src[:len(src)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, &fs.PathError{Op: "read", Path: path, Err: err}
		}
	}
	if int64(len(src)) > limit {
		return nil, &fs.PathError{Op: "read", Path: path, Err: fmt.Errorf("file grew past the %d MB fwmigrate reads", limit>>20)}
	}
	return src, nil
}

// SizeError is a file larger than fwmigrate reads.
type SizeError struct {
	Size, Limit int64
	// Flag, when set, is the flag that raises the limit.
	Flag string
}

func (e *SizeError) Error() string {
	s := fmt.Sprintf("file is %s, larger than the %s fwmigrate reads", sizeText(e.Size), sizeText(e.Limit))
	if e.Flag != "" {
		s += " (" + e.Flag + " raises it)"
	}
	return s
}

// sizeText says n bytes in MB when it is a megabyte or more (with a
// decimal when it is not whole), else in bytes.
func sizeText(n int64) string {
	switch {
	case n < 1<<20:
		return fmt.Sprintf("%d bytes", n)
	case n%(1<<20) == 0:
		return fmt.Sprintf("%d MB", n>>20)
	}
	return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
}

// readFile reads a source or text file of the project: the overlay's text
// when it has one, else ReadSource's. A binary file is an error.
func (p *Project) readFile(path string) ([]byte, error) {
	return readOver(p.overlay, path)
}

func readOver(overlay func(string) ([]byte, bool), path string) ([]byte, error) {
	src, ok := []byte(nil), false
	if overlay != nil {
		src, ok = overlay(path)
	}
	var err error
	if !ok {
		src, err = ReadSource(path)
	}
	if err == nil {
		err = binaryErr(src)
	}
	return src, err
}

func fileKind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "an irregular file"
}

// binaryErr reports a NUL byte in the first 8000 bytes, git's test for a
// binary file: such a file is not a config, and esbuild's messages about it
// would be noise.
func binaryErr(src []byte) error {
	head := src
	if len(head) > 8000 {
		head = head[:8000]
	}
	if i := bytes.IndexByte(head, 0); i >= 0 {
		return fmt.Errorf("binary file, not a config: NUL byte at offset %d", i)
	}
	return nil
}

// maxExcerpt is how much of a line of a file a message quotes.
const maxExcerpt = 40

// Excerpt returns s as a message may quote it: its first line, cut to
// maxExcerpt characters, in double quotes with control bytes and invalid
// UTF-8 escaped, so that a binary or very long file is never echoed raw.
func Excerpt(s string) string {
	cut := false
	if i := strings.IndexAny(s, "\r\n"); i >= 0 {
		s, cut = s[:i], true
	}
	n := 0
	for i := range s {
		if n == maxExcerpt {
			s, cut = s[:i], true
			break
		}
		n++
	}
	q := strconv.Quote(s)
	if cut {
		q += "..."
	}
	return q
}
