package strictyaml

import (
	"strings"
	"testing"
	"testing/fstest"
)

func TestDecodeFileRefusesUnknownKeys(t *testing.T) {
	type row struct {
		Name string `yaml:"name"`
	}
	fsys := fstest.MapFS{
		"good.yaml": {Data: []byte("name: a\n")},
		"bad.yaml":  {Data: []byte("nmae: a\n")},
	}
	var r row
	if err := DecodeFile(fsys, "good.yaml", &r); err != nil || r.Name != "a" {
		t.Fatalf("good.yaml: %+v, %v; want name a and no error", r, err)
	}
	err := DecodeFile(fsys, "bad.yaml", &row{})
	if err == nil || !strings.Contains(err.Error(), "bad.yaml") || !strings.Contains(err.Error(), "nmae") {
		t.Fatalf("bad.yaml: %v; want an error naming the file and the key", err)
	}
	if err := DecodeFile(fsys, "missing.yaml", &row{}); err == nil {
		t.Fatal("missing.yaml decoded without error")
	}
}
