package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/projectsesame/sesame/internal/txtar"
)

// TestExplainGolden runs the cases of testdata/explain: each names its
// arguments (one a line, paths from this directory), and holds the exit
// code, stdout and stderr expected; -update rewrites them.
func TestExplainGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/explain/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no cases: %v", err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			a := txtar.Parse(data)
			argText, ok := a.Get("args")
			if !ok {
				t.Fatal("no args section")
			}
			args := strings.Split(strings.TrimSuffix(string(argText), "\n"), "\n")
			code, stdout, stderr := call("", append([]string{"explain"}, args...)...)
			got := map[string]string{"exit": strconv.Itoa(code) + "\n", "stdout": stdout, "stderr": stderr}
			if *update {
				for _, name := range []string{"exit", "stdout", "stderr"} {
					a.Set(name, []byte(got[name]))
				}
				if err := os.WriteFile(file, txtar.Format(a), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			for _, name := range []string{"exit", "stdout", "stderr"} {
				want, _ := a.Get(name)
				if diff := cmp.Diff(string(want), got[name]); diff != "" {
					t.Errorf("%s differs (-want +got); rerun with -update if it is right:\n%s", name, diff)
				}
			}
		})
	}
}

// TestReadmeExplainExample: every console block of README's "Explain a
// request" section is the command it shows and its output, run here (its
// -f paths are from the repository's root); -update rewrites the output.
func TestReadmeExplainExample(t *testing.T) {
	const readme = "../../README.md"
	data, err := os.ReadFile(readme)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	start := strings.Index(text, "\n## Explain a request\n")
	if start < 0 {
		t.Fatal("README has no \"## Explain a request\" section")
	}
	end := strings.Index(text[start+1:], "\n## ")
	if end < 0 {
		end = len(text) - start - 1
	}
	section := text[start : start+1+end]
	blocks := 0
	var rewritten strings.Builder
	rest := section
	for {
		i := strings.Index(rest, "```console\n")
		if i < 0 {
			rewritten.WriteString(rest)
			break
		}
		body := rest[i+len("```console\n"):]
		j := strings.Index(body, "```\n")
		if j < 0 {
			t.Fatal("a console block does not end")
		}
		command, want, _ := strings.Cut(body[:j], "\n")
		args, err := shellWords(strings.TrimPrefix(command, "$ sesame "))
		if err != nil || !strings.HasPrefix(command, "$ sesame explain ") {
			t.Fatalf("block %d: %q is not a sesame explain command: %v", blocks, command, err)
		}
		for k := range args {
			if k > 0 && args[k-1] == "-f" {
				args[k] = filepath.Join("../..", args[k])
			}
		}
		code, got, stderr := call("", args...)
		if code != 0 {
			t.Errorf("%s: exit %d: %s", command, code, stderr)
		}
		if got != want && !*update {
			t.Errorf("%s: README shows (-want +got); rerun with -update if it is right:\n%s", command, cmp.Diff(want, got))
		}
		rewritten.WriteString(rest[:i] + "```console\n" + command + "\n" + got + "```\n")
		rest = body[j+len("```\n"):]
		blocks++
	}
	if blocks == 0 {
		t.Fatal("the section has no console block")
	}
	if *update {
		if err := os.WriteFile(readme, []byte(text[:start]+rewritten.String()+text[start+len(section):]), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// shellWords splits a command line as a shell does for words with single
// quotes and no other quoting.
func shellWords(line string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord, quoted := false, false
	for _, r := range line {
		switch {
		case r == '\'':
			quoted, inWord = !quoted, true
		case r == ' ' && !quoted:
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	if quoted {
		return nil, strconv.ErrSyntax
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}
