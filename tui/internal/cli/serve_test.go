package cli

import (
	"strings"
	"testing"
)

// TestServeHelpThroughTheCommandLine: `tui serve --help` reaches chapter
// 10's flags through the command table: every flag with its default on
// stdout, exit 0; `tui serve --bogus` exits 2 with the error and the usage.
func TestServeHelpThroughTheCommandLine(t *testing.T) {
	var out, errOut strings.Builder
	if code := run([]string{"serve", "--help"}, &out, &errOut); code != 0 || errOut.Len() != 0 {
		t.Fatalf("serve --help: exit %d, stderr %q; want 0 and nothing", code, errOut.String())
	}
	for _, want := range []string{"usage: tui serve [flags]", "  -grpc string", `(default "127.0.0.1:8081")`,
		"  -max-keys int", "(default 1000000)", "  -store-timeout duration", "(default 50ms)"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("serve --help lacks %q:\n%s", want, out.String())
		}
	}
	var out2, errOut2 strings.Builder
	if code := run([]string{"serve", "--bogus"}, &out2, &errOut2); code != 2 || out2.Len() != 0 ||
		errOut2.String() != "serve: flag provided but not defined: -bogus\n"+out.String() {
		t.Errorf("serve --bogus: exit %d, stdout %q, stderr %q; want 2 and the error, then the usage", code, out2.String(), errOut2.String())
	}
}
