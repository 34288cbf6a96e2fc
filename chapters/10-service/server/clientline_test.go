package server

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

func TestClientLine(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain words, kept", "plain words, kept"},
		{"a\x02b", `a\x02b`},
		{"two\nlines\r", `two\x0alines\x0d`},
		{"bad utf-8 \xff\xfe", `bad utf-8 \xff\xfe`},
		{"bidi \u202eevil", `bidi \u202eevil`},
		{"escape \x1b[31mred", `escape \x1b[31mred`},
		{"proto:\u00a0kept: a no-break space is a space", "proto:\u00a0kept: a no-break space is a space"},
		{"ünïcödé stays", "ünïcödé stays"},
	} {
		if got := clientLine(tc.in); got != tc.want {
			t.Errorf("clientLine(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	long := clientLine(strings.Repeat("\x01", 1000))
	if len(long) > MaxErrorLine+len("…") || !strings.HasSuffix(long, "…") || strings.Count(long, `\x01`) != MaxErrorLine/4 {
		t.Errorf("1,000 control bytes: %d bytes, want at most %d and clipped", len(long), MaxErrorLine)
	}
}

// rawByte reports the first byte of s that is a control character other
// than the line's final newline (-1 if none).
func rawByte(s string) int {
	for i := 0; i < len(strings.TrimSuffix(s, "\n")); i++ {
		if s[i] < 0x20 || s[i] == 0x7f {
			return i
		}
	}
	return -1
}

// TestErrorLinesEscaped: what a client sent comes back escaped and clipped
// in a 400 and in INVALID_ARGUMENT, never as raw bytes (a 0x02 came back).
func TestErrorLinesEscaped(t *testing.T) {
	srv := serverOf(t, &fakeService{})
	for _, tc := range []struct{ body, want string }{
		{"{\"domain\":\x02}", `invalid value \x02`},
		{"\x1b[2J", `invalid value \x1b`},
		{`{"domain": ` + strings.Repeat("a", 100_000) + `}`, "invalid value aaaa"}, // protojson clips it itself
	} {
		code, msg := post(srv, tc.body)
		if code != http.StatusBadRequest || rawByte(msg) >= 0 || !strings.Contains(msg, tc.want) || len(msg) > MaxErrorLine+8 {
			t.Errorf("%.40q: %d %.80q (%d bytes, raw byte at %d), want 400, escaped, with %q, under %d bytes", tc.body, code, msg, len(msg), rawByte(msg), tc.want, MaxErrorLine)
		}
	}
	// gRPC: a validation message that quotes the client's bytes.
	err := srv.grpcError(&BadRequest{Msg: "descriptors[0].entries[0].key \"k\x02\": …"})
	if st, _ := status.FromError(err); st.Code() != codes.InvalidArgument || st.Message() != `descriptors[0].entries[0].key "k\x02": …` {
		t.Errorf("gRPC: %v, want InvalidArgument with the byte escaped", err)
	}
	if err := srv.grpcError(context.Canceled); status.Code(err) != codes.Canceled {
		t.Errorf("canceled: %v", err)
	}
}
