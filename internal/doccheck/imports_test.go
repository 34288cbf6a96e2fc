package doccheck

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// chapterDir matches a chapter's folder: its number, a hyphen, its words.
var chapterDir = regexp.MustCompile(`^chapters/[0-9]+-([a-z-]+)$`)

// modulePath is the module every chapter import path starts with.
const modulePath = "github.com/ratelimit-course/ratelimit"

// TestChapterImportsUseThePackageName holds the naming rule a chapter
// folder cannot hold by itself. A folder such as chapters/02-fixed-window
// cannot be a package name, so the package is its words without digits or
// hyphens (fixedwindow), and every file that imports it, in this module
// and in bench/, names that alias: a reader sees the name the package
// declares. Only where that name is already taken in the file (the file's
// own package, or another import) does the file choose another.
func TestChapterImportsUseThePackageName(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]string{} // import path -> package name
	bad, err := chapterImports(root, names)
	if err != nil {
		t.Fatal(err)
	}
	if len(names) < 10 {
		t.Fatalf("found %d chapter packages under %s, want at least 10", len(names), root)
	}
	for _, b := range bad {
		t.Error(b)
	}
}

// chapterImports reads each chapter folder's package name into names,
// checking it against the folder's words, then walks root and returns a
// "file: message" entry per import of a chapter that does not name the
// package as the rule says.
func chapterImports(root string, names map[string]string) ([]string, error) {
	var bad []string
	dirs, err := filepath.Glob(filepath.Join(root, "chapters", "*"))
	if err != nil {
		return nil, err
	}
	for _, dir := range dirs {
		rel, _ := filepath.Rel(root, dir)
		m := chapterDir.FindStringSubmatch(filepath.ToSlash(rel))
		if m == nil {
			continue
		}
		pkg, err := packageName(dir)
		if err != nil {
			return nil, err
		}
		if want := strings.ReplaceAll(m[1], "-", ""); pkg != want {
			bad = append(bad, rel+": package "+pkg+", want "+want+" (the folder's words)")
		}
		names[modulePath+"/"+filepath.ToSlash(rel)] = pkg
	}
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			n := d.Name()
			if p != root && (n == "testdata" || n == "vendor" || strings.HasPrefix(n, ".") || strings.HasPrefix(n, "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		msgs, err := fileChapterImports(p, names)
		for _, msg := range msgs {
			bad = append(bad, filepath.ToSlash(rel)+": "+msg)
		}
		return err
	})
	return bad, err
}

// packageName is the package clause of the first non-test file in dir.
func packageName(dir string) (string, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return "", err
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.PackageClauseOnly)
		if err != nil {
			return "", err
		}
		return file.Name.Name, nil
	}
	return "", os.ErrNotExist
}

// fileChapterImports checks one file's imports of the chapters in names.
func fileChapterImports(p string, names map[string]string) ([]string, error) {
	file, err := parser.ParseFile(token.NewFileSet(), p, nil, parser.ImportsOnly)
	if err != nil {
		return nil, err
	}
	taken := map[string]bool{strings.TrimSuffix(file.Name.Name, "_test"): true}
	for _, imp := range file.Imports {
		ip, _ := strconv.Unquote(imp.Path.Value)
		if _, chapter := names[ip]; chapter {
			continue
		}
		if imp.Name != nil {
			taken[imp.Name.Name] = true
		} else {
			taken[path.Base(ip)] = true
		}
	}
	var bad []string
	for _, imp := range file.Imports {
		ip, _ := strconv.Unquote(imp.Path.Value)
		pkg, chapter := names[ip]
		switch {
		case !chapter:
		case imp.Name == nil:
			bad = append(bad, "imports "+ip+" without a name: want "+pkg+` "`+ip+`"`)
		case imp.Name.Name != pkg && !taken[pkg]:
			bad = append(bad, "imports "+ip+" as "+imp.Name.Name+": want "+pkg)
		}
	}
	return bad, nil
}
