package plot

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the committed figures")

const root = "../../.." // the repository, from tui/internal/plot

// TestFiguresAreFresh regenerates every committed figure and fails naming
// the stale one; `go test ./tui/internal/plot -update` rewrites them. Each
// chapter's README embeds its figures, the caption on the line after.
func TestFiguresAreFresh(t *testing.T) {
	for _, f := range Figures {
		var out, errs bytes.Buffer
		if code := Command(f.Args, &out, &errs); code != 0 {
			t.Fatalf("%s: tui plot %s exited %d: %s", f.Path, strings.Join(f.Args, " "), code, errs.String())
		}
		path := filepath.Join(root, f.Path)
		if *update {
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, out.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(path)
		if err != nil || !bytes.Equal(got, out.Bytes()) {
			why := "stale"
			if err != nil {
				why = err.Error()
			}
			t.Errorf("%s: %s; refresh it with `go test ./tui/internal/plot -update` (it is `go run ./tui plot %s`)",
				f.Path, why, strings.Join(f.Args, " "))
		}
		readme := filepath.Join(root, filepath.Dir(filepath.Dir(f.Path)), "README.md")
		text, err := os.ReadFile(readme)
		embed := "](figures/" + filepath.Base(f.Path) + ")\n\n*" + f.Caption + "*\n"
		if err != nil || !bytes.Contains(text, []byte(embed)) {
			t.Errorf("%s does not embed %s with its caption (want %q): %v", readme, f.Path, embed, err)
		}
	}
}
