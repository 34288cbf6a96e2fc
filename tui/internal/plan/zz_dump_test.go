package plan

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

func TestZZDump(t *testing.T) {
	if os.Getenv("DUMP") == "" {
		t.Skip()
	}
	for name, p := range map[string]Plan{"week": Week, "evening": Evening} {
		var n yaml.Node
		if err := n.Encode(p); err != nil {
			t.Fatal(err)
		}
		literalStyle(&n)
		out, err := yaml.Marshal(&n)
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile("data/"+name+".yaml", out, 0o644)
	}
}
