package main

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/fsnotify/fsnotify"
)

// watcher says when the inputs of serve change: a file named by -f, or a
// manifest file in a directory named by -f (with -R, in any directory
// below it, those made later too). Files are watched through their
// directories, as editors and kubectl-style tools replace a file (write a
// new one, rename it over the old) rather than write it in place.
type watcher struct {
	w         *fsnotify.Watcher
	files     map[string]bool // the files named by -f
	dirs      map[string]bool // the directories named by -f, and with -R those below
	recursive bool
}

func newWatcher(paths []string, recursive bool) (*watcher, error) {
	fw, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, err
	}
	w := &watcher{w: fw, files: map[string]bool{}, dirs: map[string]bool{}, recursive: recursive}
	for _, p := range paths {
		p = filepath.Clean(p)
		info, err := os.Stat(p)
		if err != nil {
			fw.Close()
			return nil, err
		}
		if !info.IsDir() {
			w.files[p] = true
			err = fw.Add(filepath.Dir(p))
		} else {
			err = w.addDir(p)
		}
		if err != nil {
			fw.Close()
			return nil, err
		}
	}
	return w, nil
}

// addDir watches dir, and with -R the directories below it.
func (w *watcher) addDir(dir string) error {
	if !w.recursive {
		w.dirs[dir] = true
		return w.w.Add(dir)
	}
	return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		w.dirs[p] = true
		return w.w.Add(p)
	})
}

// relevant says an event concerns the inputs; a directory made below a
// watched one under -R is watched from now on.
func (w *watcher) relevant(ev fsnotify.Event) bool {
	name := filepath.Clean(ev.Name)
	if w.files[name] {
		return true
	}
	if !w.dirs[filepath.Dir(name)] {
		return false
	}
	if w.recursive && ev.Has(fsnotify.Create) {
		if info, err := os.Stat(name); err == nil && info.IsDir() {
			_ = w.addDir(name)
			return true
		}
	}
	return isManifest(name) || w.dirs[name] // a manifest, or a directory below gone
}

// run calls changed once the inputs have been quiet for debounce after a
// change, until ctx ends; the watcher's errors go to failed.
func (w *watcher) run(ctx context.Context, debounce time.Duration, changed func(), failed func(error)) {
	defer w.w.Close()
	timer := time.NewTimer(debounce)
	timer.Stop()
	for {
		select {
		case <-ctx.Done():
			timer.Stop()
			return
		case ev, ok := <-w.w.Events:
			if !ok {
				return
			}
			if w.relevant(ev) {
				timer.Reset(debounce)
			}
		case err, ok := <-w.w.Errors:
			if !ok {
				return
			}
			failed(err)
		case <-timer.C:
			changed()
		}
	}
}
