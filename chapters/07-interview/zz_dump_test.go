package interview

import (
	"os"
	"testing"

	"go.yaml.in/yaml/v3"
)

func literalStyle(n *yaml.Node) {
	if n.Kind == yaml.ScalarNode && n.Tag == "!!str" && len(n.Value) > 10 {
		out, _ := yaml.Marshal(n.Value)
		if out[0] == '\'' || out[0] == '"' {
			n.Style = yaml.LiteralStyle
		}
	}
	for _, c := range n.Content {
		literalStyle(c)
	}
}

func dumpYAML(t *testing.T, path, head string, v any) {
	var n yaml.Node
	if err := n.Encode(v); err != nil {
		t.Fatal(err)
	}
	literalStyle(&n)
	out, err := yaml.Marshal(&n)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, append([]byte(head), out...), 0o644); err != nil {
		t.Fatal(err)
	}
}

type rubricRowFile struct {
	Senior string `yaml:"senior"`
	Staff  string `yaml:"staff"`
}
type rubricFile struct {
	Prompt string          `yaml:"prompt"`
	Rows   []rubricRowFile `yaml:"rows"`
}

func TestZZDump(t *testing.T) {
	if os.Getenv("DUMP") == "" {
		t.Skip()
	}
	dumpYAML(t, "data/cards.yaml", "", Drill)
	dumpYAML(t, "data/mock.yaml", "", Mock)
	dumpYAML(t, "data/pushback.yaml", "", Pushback)
	dumpYAML(t, "data/dives.yaml", "", Dives)
	var rs []rubricFile
	for _, p := range Mock {
		r := rubric[p.Name]
		f := rubricFile{Prompt: p.Name}
		for _, row := range r {
			f.Rows = append(f.Rows, rubricRowFile{row[0], row[1]})
		}
		rs = append(rs, f)
	}
	if len(rs) != len(rubric) {
		t.Fatal("rubric prompts differ from Mock")
	}
	dumpYAML(t, "data/rubric.yaml", "", rs)
}
