package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/runtime"

	"github.com/projectsesame/sesame/hugeheap"
	"github.com/projectsesame/sesame/internal/manifest"
	"github.com/projectsesame/sesame/internal/quote"
)

// readingGCPercent is the GOGC that load reads with: the heap may grow to
// five times what was live at the last collection, not twice.
const readingGCPercent = 400

// translatingGCPercent is the GOGC that translate translates and writes
// its document with (see translateOptions.run): at 10,000 routes, one
// collection fewer than at Go's default of 100, 232-265 ms of the
// collector's CPU against 338-403, for about 5 MB more at the peak.
const translatingGCPercent = 200

// minAdvisedInput is the least input, in bytes, for which load asks for
// huge pages: below it the faults saved cost less than the collection
// hugeheap.Advise runs.
const minAdvisedInput = 1 << 20

// input is what load read.
type input struct {
	objects  []runtime.Object // of the documents that could be decoded
	warnings []string         // documents skipped for their kind, directories not read
	skipped  manifest.Errors  // documents that could not be decoded, with why
}

// load reads the objects of every path, in order, with decoder: "-" is
// stdin, a directory is its manifest files in lexical order (with
// recursive, those of its subdirectories too, as kubectl -R reads them),
// anything else a file. It returns an error only when a path cannot be read
// at all.
//
// Before reading, it asks for huge pages for the heap, sized by the files'
// bytes (package hugeheap), unless they are under minAdvisedInput.
func load(paths []string, recursive bool, stdin io.Reader, decoder *manifest.Decoder) (*input, error) {
	type expanded struct {
		files   []string
		subdirs int
	}
	all := make([]expanded, len(paths))
	var size int64
	for i, path := range paths {
		files, subdirs, err := expand(path, recursive)
		if err != nil {
			return nil, err
		}
		all[i] = expanded{files, subdirs}
		size += inputSize(files, stdin)
	}
	if size >= minAdvisedInput {
		hugeheap.Advise(size * hugeheap.BytesPerManifestByte)
	}
	if os.Getenv("GOGC") == "" {
		// Reading keeps nearly all it allocates, every object, until the
		// translation: a collection while the heap grows finds little to
		// free, and marks all that is live again. At Go's default, a heap
		// that grows to 100 MB is collected seven times on the way; at
		// readingGCPercent, three. A GOGC of the user's is kept.
		defer debug.SetGCPercent(debug.SetGCPercent(readingGCPercent))
	}
	in := new(input)
	for i, path := range paths {
		files, subdirs := all[i].files, all[i].subdirs
		if subdirs > 0 {
			in.warnings = append(in.warnings, fmt.Sprintf("%s: %d %s not read (-R reads them)",
				path, subdirs, quote.Plural(subdirs, "subdirectory", "subdirectories")))
		}
		for _, file := range files {
			objs, warns, err := loadFile(decoder, file, stdin)
			var errs manifest.Errors
			if err != nil && !errors.As(err, &errs) {
				return nil, err
			}
			in.objects = append(in.objects, objs...)
			for _, w := range warns {
				in.warnings = append(in.warnings, w.String())
			}
			in.skipped = append(in.skipped, errs...)
		}
	}
	objects, dups := decoder.Dedupe(in.objects)
	in.objects = objects
	for _, w := range dups {
		in.warnings = append(in.warnings, w.String())
	}
	return in, nil
}

// expand turns a path into the files to read. Without recursive, a
// directory's subdirectories are not read; it returns how many there are,
// to say so.
func expand(path string, recursive bool) (files []string, subdirs int, err error) {
	if path == "-" {
		return []string{"-"}, 0, nil
	}
	info, err := os.Stat(path)
	if err != nil {
		return nil, 0, err
	}
	if !info.IsDir() {
		return []string{path}, 0, nil
	}
	if !recursive {
		entries, err := os.ReadDir(path) // in name order
		if err != nil {
			return nil, 0, err
		}
		for _, e := range entries {
			switch {
			case e.IsDir():
				subdirs++
			case isManifest(e.Name()):
				files = append(files, filepath.Join(path, e.Name()))
			}
		}
		return files, subdirs, nil
	}
	err = filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && isManifest(p) {
			files = append(files, p)
		}
		return nil
	})
	slices.Sort(files)
	return files, 0, err
}

// inputSize is the bytes of files that are regular files, stdin's for "-"
// when it is one; pipes and files that cannot be read count nothing.
func inputSize(files []string, stdin io.Reader) int64 {
	var size int64
	for _, file := range files {
		var info fs.FileInfo
		var err error
		if file == "-" {
			f, ok := stdin.(*os.File)
			if !ok {
				continue
			}
			info, err = f.Stat()
		} else {
			info, err = os.Stat(file)
		}
		if err == nil && info.Mode().IsRegular() {
			size += info.Size()
		}
	}
	return size
}

func isManifest(path string) bool {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".yaml", ".yml", ".json":
		return true
	}
	return false
}

func loadFile(decoder *manifest.Decoder, path string, stdin io.Reader) ([]runtime.Object, []manifest.Warning, error) {
	if path == "-" {
		return decoder.Decode("-", stdin)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	return decoder.Decode(path, f)
}
