// Package text is the course's text helpers, shared by the command line and
// the app: numbers joined into a list, prose wrapped by display columns.
package text

import (
	"errors"
	"strconv"
	"strings"
)

// JoinInts writes numbers with sep between them: JoinInts([]int{820, 880}, ",")
// is "820,880".
func JoinInts[T int | int64](xs []T, sep string) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = strconv.FormatInt(int64(x), 10)
	}
	return strings.Join(parts, sep)
}

// ShortAddrs keeps the port of loopback addresses: "127.0.0.1:36107" is
// ":36107".
func ShortAddrs(addrs []string) []string {
	out := make([]string, len(addrs))
	for i, a := range addrs {
		out[i] = strings.TrimPrefix(a, "127.0.0.1")
	}
	return out
}

// ParseInts reads a comma-separated list of integers, "820,880,940" (the
// inverse of JoinInts with ","). An empty list or item is an error.
func ParseInts(s string) ([]int64, error) {
	if s == "" {
		return nil, errors.New("empty list")
	}
	parts := strings.Split(s, ",")
	out := make([]int64, len(parts))
	for i, p := range parts {
		v, err := strconv.ParseInt(strings.TrimSpace(p), 10, 64)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}
