package server

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// BadRequest is a request the service cannot decide at all: gRPC
// INVALID_ARGUMENT, HTTP 400, with Msg escaped (clientLine). Nothing of it
// has been counted.
type BadRequest struct{ Msg string }

func (e *BadRequest) Error() string { return e.Msg }

// MaxErrorLine caps the bytes of an error line sent to a client.
const MaxErrorLine = 512

// clientLine is an error line made safe to send back: the bytes a client
// sent may be quoted in it (protojson's "invalid value \x02" carries the
// raw byte; a validation message may quote a key), and a 400 carried a raw
// 0x02 back. Every byte that is not a printable character of valid UTF-8 is
// written as \xNN, or \uNNNN for a control or format character such as a
// newline or a bidirectional override, so the line stays one line of text
// in a log or a terminal; it is cut at MaxErrorLine bytes.
func clientLine(msg string) string {
	var b strings.Builder
	for i := 0; i < len(msg); {
		r, size := utf8.DecodeRuneInString(msg[i:])
		var piece string
		switch {
		case r == utf8.RuneError && size == 1:
			piece = fmt.Sprintf(`\x%02x`, msg[i])
		case r < utf8.RuneSelf && !unicode.IsGraphic(r):
			piece = fmt.Sprintf(`\x%02x`, r)
		case !unicode.IsGraphic(r):
			piece = fmt.Sprintf(`\u%04x`, r)
		default:
			piece = msg[i : i+size]
		}
		if b.Len()+len(piece) > MaxErrorLine {
			b.WriteString("…")
			break
		}
		b.WriteString(piece)
		i += size
	}
	return b.String()
}
