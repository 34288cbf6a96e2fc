package service

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"strings"
	"testing"
)

// timelessLog is the service's text log on w without the time, for tests
// that compare whole lines.
func timelessLog(w io.Writer) *slog.Logger {
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{
		ReplaceAttr: func(groups []string, a slog.Attr) slog.Attr {
			if len(groups) == 0 && a.Key == slog.TimeKey {
				return slog.Attr{}
			}
			return a
		},
	}))
}

// jsonRecords parses a JSON log, one object a line, failing on a line that
// is not one or lacks its level or message.
func jsonRecords(t *testing.T, log string) []map[string]any {
	t.Helper()
	var recs []map[string]any
	for _, line := range strings.Split(strings.TrimSuffix(log, "\n"), "\n") {
		if line == "" {
			continue
		}
		var r map[string]any
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("log line %q is not JSON: %v", line, err)
		}
		if _, ok := r["level"].(string); !ok {
			t.Fatalf("log line %q has no level", line)
		}
		if _, ok := r["msg"].(string); !ok {
			t.Fatalf("log line %q has no msg", line)
		}
		recs = append(recs, r)
	}
	return recs
}

// levelsAndMsgs is each record as "LEVEL msg".
func levelsAndMsgs(recs []map[string]any) []string {
	var out []string
	for _, r := range recs {
		out = append(out, fmt.Sprint(r["level"], " ", r["msg"]))
	}
	return out
}

// TestServeLogFormatsAndLevels runs serve to its stop with each
// --log-format and --log-level: in JSON every line of stdout is a record
// with its level and message, and a level drops what is below it.
func TestServeLogFormatsAndLevels(t *testing.T) {
	lifecycle := []string{"INFO store opened", "INFO serving", "INFO stopping: answering the calls in flight; a second signal stops at once", "INFO stopped"}
	for _, tc := range []struct {
		format, level string
		want          []string // "LEVEL msg" per record, for json
		wantText      string   // a substring of the text log
	}{
		{format: "json", level: "info", want: lifecycle},
		{format: "json", level: "debug", want: lifecycle},
		{format: "json", level: "warn", want: nil},
		{format: "json", level: "error", want: nil},
		{format: "text", level: "info", wantText: `level=INFO msg=serving grpc=127.0.0.1:`},
	} {
		ctx, cancel := context.WithCancel(context.Background())
		var out, errOut syncBuffer
		code := run(ctx, []string{"--http", "127.0.0.1:0", "--grpc", "127.0.0.1:0", "--log-format", tc.format, "--log-level", tc.level},
			&out, &errOut, func(*Service) { cancel() })
		cancel()
		if code != 0 || errOut.String() != "" {
			t.Errorf("%s/%s: exit %d, stderr %q", tc.format, tc.level, code, errOut.String())
		}
		if tc.format == "text" {
			if !strings.Contains(out.String(), tc.wantText) {
				t.Errorf("text log %q lacks %q", out.String(), tc.wantText)
			}
			continue
		}
		recs := jsonRecords(t, out.String())
		if got := levelsAndMsgs(recs); fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("%s/%s: records %q, want %q", tc.format, tc.level, got, tc.want)
		}
		if len(recs) > 1 && (recs[1]["http"] == "" || recs[1]["rules"] == nil) {
			t.Errorf("the serving record lacks its attributes: %v", recs[1])
		}
	}
	for _, tc := range []struct{ args []string }{
		{[]string{"--log-format", "xml"}},
		{[]string{"--log-level", "loud"}},
	} {
		var out, errOut syncBuffer
		args := append([]string{"--http", "", "--grpc", ""}, tc.args...)
		if code := run(context.Background(), args, &out, &errOut, nil); code != 2 || !strings.Contains(errOut.String(), tc.args[0][2:]) {
			t.Errorf("%v: exit %d, stderr %q; want 2 naming %s", tc.args, code, errOut.String(), tc.args[0])
		}
	}
}

// TestLogLevelFilters drives a reload at each level: the watcher's debug
// record of a change it waits on, the reload's info record and a refused
// file's error record each appear from their level up; and a line still
// written to Options.Log (as other code may) comes out as an info record
// in the same form.
func TestLogLevelFilters(t *testing.T) {
	for _, tc := range []struct {
		level slog.Level
		want  []string
	}{
		{slog.LevelDebug, []string{"INFO store opened", "INFO a raw line", "DEBUG rules changed on disk; loading them once they hold still", "INFO rules reloaded",
			"DEBUG rules changed on disk; loading them once they hold still", "ERROR rules refused, the old ones stay"}},
		{slog.LevelInfo, []string{"INFO store opened", "INFO a raw line", "INFO rules reloaded", "ERROR rules refused, the old ones stay"}},
		{slog.LevelWarn, []string{"ERROR rules refused, the old ones stay"}},
		{slog.LevelError, []string{"ERROR rules refused, the old ones stay"}},
	} {
		path := writeRules(t, "domain: d\n")
		var log syncBuffer
		clock := newManualClock()
		s := start(t, Options{Config: path, Log: &log, LogFormat: LogJSON, LogLevel: tc.level, ReloadEvery: -1})
		fmt.Fprintf(s.o.Log, "a raw line\n")
		for _, text := range []string{"domain: d\ndescriptors:\n  - key: k\n    rate_limit: {unit: day, requests_per_unit: 1}\n", "domain: [\n"} {
			if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
			if tried := pollTicks(t, s, clock, 10); tried == 0 {
				t.Fatalf("%v: %q not loaded in 10 polls", tc.level, text)
			}
		}
		recs := jsonRecords(t, log.String())
		if got := levelsAndMsgs(recs); fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("level %v: records\n%q\nwant\n%q", tc.level, got, tc.want)
		}
		for _, r := range recs {
			if r["msg"] == "rules refused, the old ones stay" && !strings.Contains(fmt.Sprint(r["err"]), ":1: yaml:") {
				t.Errorf("the refusal's err %q does not name the line", r["err"])
			}
		}
	}
	if _, err := Start(context.Background(), Options{LogFormat: "xml"}); err == nil || !strings.Contains(err.Error(), "log-format") {
		t.Errorf("log format xml: %v, want an error naming log-format", err)
	}
}

// TestRedisLogRouted: go-redis's own line for a pool that cannot dial goes
// through the service's logger at warn level, not raw to stderr.
func TestRedisLogRouted(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // a closed port: every dial is refused
	var log syncBuffer
	_, err = Start(context.Background(), Options{RedisAddr: addr, Log: &log, LogFormat: LogJSON})
	if err == nil {
		t.Fatal("Start on a closed port succeeded")
	}
	var found bool
	for _, r := range jsonRecords(t, log.String()) {
		msg := fmt.Sprint(r["msg"])
		if r["from"] == "go-redis" && r["level"] == "WARN" && strings.Contains(msg, "failed to dial") && strings.Contains(msg, addr) {
			found = true
		}
	}
	if !found {
		t.Errorf("no go-redis warning about the failed dial in the log:\n%s", log.String())
	}
}
