package txtar

import (
	"bytes"
	"strings"
)

// Archive is a comment and a list of files.
type Archive struct {
	Comment []byte
	Files   []File
}

// File is one file of an Archive.
type File struct {
	Name string
	Data []byte
}

// Parse reads an archive. It never fails: text before the first file marker
// is the comment.
func Parse(data []byte) *Archive {
	a := &Archive{}
	var current *File
	for len(data) > 0 {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i+1], data[i+1:]
		} else {
			data = nil
		}
		if name, ok := marker(line); ok {
			a.Files = append(a.Files, File{Name: name})
			current = &a.Files[len(a.Files)-1]
			continue
		}
		if current == nil {
			a.Comment = append(a.Comment, line...)
		} else {
			current.Data = append(current.Data, line...)
		}
	}
	return a
}

// marker reports whether line is "-- name --" and returns the name.
func marker(line []byte) (string, bool) {
	s := strings.TrimRight(string(line), "\r\n")
	if !strings.HasPrefix(s, "-- ") || !strings.HasSuffix(s, " --") || len(s) < 7 {
		return "", false
	}
	name := strings.TrimSpace(s[3 : len(s)-3])
	return name, name != ""
}

// Format writes an archive; Parse(Format(a)) gives back a when every file
// ends in a newline.
func Format(a *Archive) []byte {
	var buf bytes.Buffer
	buf.Write(fixNL(a.Comment))
	for _, f := range a.Files {
		buf.WriteString("-- " + f.Name + " --\n")
		buf.Write(fixNL(f.Data))
	}
	return buf.Bytes()
}

func fixNL(data []byte) []byte {
	if len(data) == 0 || data[len(data)-1] == '\n' {
		return data
	}
	return append(append([]byte(nil), data...), '\n')
}

// Get returns the data of the named file and whether it exists.
func (a *Archive) Get(name string) ([]byte, bool) {
	for _, f := range a.Files {
		if f.Name == name {
			return f.Data, true
		}
	}
	return nil, false
}

// Set replaces the named file's data, or adds the file at the end.
func (a *Archive) Set(name string, data []byte) {
	for i := range a.Files {
		if a.Files[i].Name == name {
			a.Files[i].Data = data
			return
		}
	}
	a.Files = append(a.Files, File{Name: name, Data: data})
}
