// Package doccheck holds only tests: they read the module's source and
// check that each exported identifier's doc comment begins with that
// identifier, so a comment cannot go on naming something renamed away, and
// that every import of a chapter names the package as it declares itself.
package doccheck

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// TestDocCommentsNameTheirIdentifier parses every non-test .go file of the
// module (build tags play no part: a file behind a tag is read too) and
// reports, as file:line, each doc comment on an exported func, method,
// type, or single-name const or var that does not begin with that name.
// Nested modules (a directory with a go.mod of its own, such as bench/)
// and testdata directories are skipped.
func TestDocCommentsNameTheirIdentifier(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("module root not at %s: %v", root, err)
	}
	bad, err := misnamedDocs(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(bad) > 0 {
		t.Errorf("%d doc comments do not begin with the name they document:\n%s",
			len(bad), strings.Join(bad, "\n"))
	}
}

// TestDocStartsWith pins the first-word rule the repository check uses.
func TestDocStartsWith(t *testing.T) {
	cases := []struct {
		text, name string
		want       bool
	}{
		{"TrackRows lays out the rows.", "TrackRows", true},
		{"TrackRows's rows are ...", "TrackRows", true},
		{"trackRows lays out the rows.", "TrackRows", false},
		{"TrackRowsX lays out.", "TrackRows", false},
		{"The TrackRows function", "TrackRows", false},
		{"TrackRows", "TrackRows", true},
	}
	for _, c := range cases {
		if got := docStartsWith(c.text, c.name); got != c.want {
			t.Errorf("docStartsWith(%q, %q) = %v, want %v", c.text, c.name, got, c.want)
		}
	}
}

// misnamedDocs walks the module under root and returns one
// "path:line: name: first words" entry per doc comment that breaks the
// rule, paths relative to root.
func misnamedDocs(root string) ([]string, error) {
	var bad []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path == root {
				return nil
			}
			name := d.Name()
			if name == "testdata" || name == "vendor" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		found, err := fileMisnamedDocs(path)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		for _, f := range found {
			bad = append(bad, filepath.ToSlash(rel)+":"+f)
		}
		return nil
	})
	return bad, err
}

// fileMisnamedDocs parses one file and returns "line: name: first words"
// for each doc comment in it that does not begin with its identifier.
func fileMisnamedDocs(path string) ([]string, error) {
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, path, nil, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	var bad []string
	check := func(doc *ast.CommentGroup, name string) {
		if doc == nil || !ast.IsExported(name) {
			return
		}
		text := doc.Text()
		if text == "" || docStartsWith(text, name) {
			return
		}
		first, _, _ := strings.Cut(strings.TrimSpace(text), "\n")
		if len(first) > 60 {
			first = first[:60] + "..."
		}
		bad = append(bad, fmt.Sprintf("%d: %s: %q", fset.Position(doc.Pos()).Line, name, first))
	}
	for _, decl := range file.Decls {
		switch decl := decl.(type) {
		case *ast.FuncDecl:
			check(decl.Doc, decl.Name.Name)
		case *ast.GenDecl:
			// A declaration without parentheses carries its doc on the
			// GenDecl; inside a group, only a spec's own doc is checked,
			// as the group's doc speaks for the whole block.
			single := !decl.Lparen.IsValid()
			for _, spec := range decl.Specs {
				switch spec := spec.(type) {
				case *ast.TypeSpec:
					doc := spec.Doc
					if single && doc == nil {
						doc = decl.Doc
					}
					check(doc, spec.Name.Name)
				case *ast.ValueSpec:
					if len(spec.Names) != 1 {
						continue
					}
					doc := spec.Doc
					if single && doc == nil {
						doc = decl.Doc
					}
					check(doc, spec.Names[0].Name)
				}
			}
		}
	}
	return bad, nil
}

// docStartsWith reports whether text begins with name as a whole word:
// the name, then the end of the text or a rune that cannot continue an
// identifier.
func docStartsWith(text, name string) bool {
	rest, ok := strings.CutPrefix(text, name)
	if !ok {
		return false
	}
	if rest == "" {
		return true
	}
	r, _ := utf8.DecodeRuneInString(rest)
	return !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_')
}
