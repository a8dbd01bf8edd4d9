package sesame_test

import (
	"bytes"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// module is this module's import path.
const module = "github.com/projectsesame/sesame"

// TestArchitecture holds the package layout to its rules (README's package
// table): the pipeline's arrows go one way, and packages and files stay
// small enough to read.
//
//   - The graph model (dag/graph) imports no builder and no generator.
//   - The contract between sources and the merge (dag/layer) imports no
//     source package.
//   - A source package (dag/gatewayapi, dag/httpproxy, dag/ingress, with
//     their internal packages) imports no other source package.
//   - The engines (hostmatch, listenermerge, protocol, dispatch,
//     flowcontrol, dispatch/envoy) import nothing of dag nor xdsgen's
//     translation (xdsgen/resources, the output types, is allowed).
//   - Only commands (cmd/...) import the CLI libraries (spf13/cobra and
//     pflag): an importer of Sesame never builds them.
//   - No package has more than 3,500 lines of non-test code, no non-test
//     file more than 450 (generated deepcopy excepted), and every package
//     has a doc.go.
func TestArchitecture(t *testing.T) {
	pkgs := loadPackages(t)
	deps := func(p string) []string { return transitive(pkgs, p) }
	sources := []string{"dag/gatewayapi", "dag/httpproxy", "dag/ingress"}
	within := func(p, root string) bool { return p == root || strings.HasPrefix(p, root+"/") }
	sourceOf := func(p string) string {
		for _, s := range sources {
			if within(p, s) {
				return s
			}
		}
		return ""
	}
	for _, d := range deps("dag/graph") {
		if within(d, "dag") || within(d, "xdsgen") {
			t.Errorf("dag/graph imports %s: the graph model imports no builder and no generator", d)
		}
	}
	for _, d := range deps("dag/layer") {
		if sourceOf(d) != "" {
			t.Errorf("dag/layer imports %s: the contract imports no source package", d)
		}
	}
	for p := range pkgs {
		src := sourceOf(p)
		if src == "" {
			continue
		}
		for _, d := range deps(p) {
			if other := sourceOf(d); other != "" && other != src {
				t.Errorf("%s imports %s: a source package imports no other", p, d)
			}
		}
	}
	for _, engine := range []string{"hostmatch", "listenermerge", "protocol", "dispatch", "flowcontrol", "dispatch/envoy"} {
		for _, d := range deps(engine) {
			if within(d, "dag") || d == "xdsgen" {
				t.Errorf("%s imports %s: engines import nothing of dag", engine, d)
			}
		}
	}
	for p, pkg := range pkgs {
		if pkg.lines > 3500 {
			t.Errorf("%s has %d lines of non-test code; the limit is 3,500", p, pkg.lines)
		}
		for f, n := range pkg.fileLines {
			if n > 450 && !strings.HasPrefix(f, "zz_generated") {
				t.Errorf("%s/%s has %d lines; the limit is 450", p, f, n)
			}
		}
		if !pkg.hasDoc {
			t.Errorf("%s has no doc.go", p)
		}
		if pkg.cli != "" && !within(p, "cmd") {
			t.Errorf("%s imports %s: only commands import the CLI libraries", p, pkg.cli)
		}
	}
}

// pkg is what TestArchitecture reads of one package: the module packages
// its non-test files import, the CLI library, and their sizes.
type pkg struct {
	imports   []string
	lines     int
	fileLines map[string]int
	hasDoc    bool
	cli       string // a CLI library it imports, if any
}

// loadPackages reads every package of the module, by directory relative to
// the module root ("" for the root), from the imports of its non-test
// files. testdata and hidden directories hold no packages.
func loadPackages(t *testing.T) map[string]*pkg {
	t.Helper()
	pkgs := map[string]*pkg{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(".", func(file string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if e.IsDir() {
			if file != "." && (e.Name() == "testdata" || strings.HasPrefix(e.Name(), ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(file, ".go") || strings.HasSuffix(file, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(file)
		if err != nil {
			return err
		}
		f, err := parser.ParseFile(fset, file, src, parser.ImportsOnly)
		if err != nil {
			return err
		}
		dir := filepath.ToSlash(filepath.Dir(file))
		if dir == "." {
			dir = ""
		}
		p := pkgs[dir]
		if p == nil {
			p = &pkg{fileLines: map[string]int{}}
			pkgs[dir] = p
		}
		n := bytes.Count(src, []byte("\n"))
		p.lines += n
		p.fileLines[path.Base(file)] = n
		p.hasDoc = p.hasDoc || path.Base(file) == "doc.go"
		for _, imp := range f.Imports {
			ip := strings.Trim(imp.Path.Value, `"`)
			if ip == "github.com/spf13/cobra" || ip == "github.com/spf13/pflag" {
				p.cli = ip
			}
			if ip == module {
				ip = module + "/"
			}
			if rel, ok := strings.CutPrefix(ip, module+"/"); ok && !slices.Contains(p.imports, rel) {
				p.imports = append(p.imports, rel)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if pkgs["dag/graph"] == nil || pkgs["dag/gatewayapi"] == nil {
		t.Fatalf("packages not found: %v", len(pkgs))
	}
	return pkgs
}

// transitive returns every module package p imports, directly or not.
func transitive(pkgs map[string]*pkg, p string) []string {
	seen := map[string]bool{}
	var visit func(string)
	visit = func(q string) {
		if pkgs[q] == nil {
			return
		}
		for _, d := range pkgs[q].imports {
			if !seen[d] {
				seen[d] = true
				visit(d)
			}
		}
	}
	visit(p)
	out := make([]string, 0, len(seen))
	for d := range seen {
		out = append(out, d)
	}
	slices.Sort(out)
	return out
}

// TestPackageTable: README's package table is the map of the module, so it
// names every package (in backquotes, as the table writes them), and
// nothing that does not exist.
func TestPackageTable(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, table, _ := strings.Cut(string(readme), "\n## Packages\n")
	table, _, _ = strings.Cut(table, "\n## ")
	pkgs := loadPackages(t)
	for p := range pkgs {
		if p == "" {
			continue // the root, "sesame (root)"
		}
		if !strings.Contains(table, "`"+p+"`") {
			t.Errorf("README's package table does not name %s", p)
		}
	}
	// The first cell of each row names packages, or testdata folders.
	for line := range strings.SplitSeq(table, "\n") {
		cells := strings.Split(line, "|")
		if len(cells) < 3 || !strings.HasPrefix(strings.TrimSpace(cells[1]), "`") {
			continue
		}
		for _, name := range strings.Split(cells[1], "`") {
			name = strings.TrimSpace(name)
			switch {
			case name == "" || name == "," || strings.HasPrefix(name, "("), name == "sesame":
			case strings.HasPrefix(name, "testdata"):
				if _, err := os.Stat(name); err != nil {
					t.Errorf("README's package table names %s, which does not exist", name)
				}
			case pkgs[name] == nil:
				t.Errorf("README's package table names %s, which is not a package", name)
			}
		}
	}
}
