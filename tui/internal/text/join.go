// Package text is the course's text helpers, shared by the command line and
// the app: numbers joined into a list, prose wrapped by display columns.
package text

import (
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
