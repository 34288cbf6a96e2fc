// Package strictyaml decodes the course's content files strictly: a key
// the Go type does not have (a misspelt field) is an error, not a silently
// empty value.
package strictyaml

import (
	"bytes"
	"fmt"
	"io/fs"

	"go.yaml.in/yaml/v3"
)

// Decode decodes b into v, refusing a key v's type does not have.
func Decode(b []byte, v any) error {
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	return dec.Decode(v)
}

// DecodeFile decodes the file name of fsys into v as Decode does; an error
// names the file.
func DecodeFile(fsys fs.FS, name string, v any) error {
	b, err := fs.ReadFile(fsys, name)
	if err != nil {
		return err
	}
	if err := Decode(b, v); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}
