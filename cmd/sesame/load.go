package main

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/runtime"

	"github.com/projectsesame/sesame/internal/manifest"
)

// load reads the objects of every path, in order, within the limits: "-"
// is stdin, a directory is its manifest files in lexical order, anything
// else a file. It returns the objects of the documents it could decode, the
// documents it skipped (with why), and an error only when a path cannot be
// read at all.
func load(paths []string, stdin io.Reader, limits manifest.Limits) ([]runtime.Object, []manifest.Warning, manifest.Errors, error) {
	var (
		objects  []runtime.Object
		warnings []manifest.Warning
		skipped  manifest.Errors
		decoder  = &manifest.Decoder{Limits: limits}
	)
	for _, path := range paths {
		files, err := expand(path)
		if err != nil {
			return nil, nil, nil, err
		}
		for _, file := range files {
			objs, warns, err := loadFile(decoder, file, stdin)
			var errs manifest.Errors
			if err != nil && !errors.As(err, &errs) {
				return nil, nil, nil, err
			}
			objects = append(objects, objs...)
			warnings = append(warnings, warns...)
			skipped = append(skipped, errs...)
		}
	}
	objects, dups := decoder.Dedupe(objects)
	return objects, append(warnings, dups...), skipped, nil
}

// expand turns a path into the files to read.
func expand(path string) ([]string, error) {
	if path == "-" {
		return []string{"-"}, nil
	}
	info, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !info.IsDir() {
		return []string{path}, nil
	}
	var files []string
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
	return files, err
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
