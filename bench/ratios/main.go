// Command ratios reads `go test -bench Peers` output on stdin, passes it
// through, and prints the median of each BenchmarkPeers case over -count
// runs as a Markdown table: Keyed's ns per decision, each peer's, and
// Keyed's time over the peer's (below 1.00 Keyed is faster).
package main

import (
	"bufio"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
)

var columns = []string{"ns/keyed", "ns/go-limiter", "ns/x-rate", "vs-go-limiter", "vs-x-rate"}

func main() {
	values := map[string]map[string][]float64{}
	var order []string
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		line := in.Text()
		fmt.Println(line)
		fields := strings.Fields(line)
		if len(fields) < 2 || !strings.HasPrefix(fields[0], "BenchmarkPeers/") {
			continue
		}
		name := strings.TrimPrefix(fields[0], "BenchmarkPeers/")
		if i := strings.LastIndex(name, "-"); i > 0 {
			name = name[:i] // the -GOMAXPROCS suffix
		}
		if values[name] == nil {
			values[name] = map[string][]float64{}
			order = append(order, name)
		}
		for i := 2; i+1 < len(fields); i += 2 {
			if v, err := strconv.ParseFloat(fields[i], 64); err == nil {
				values[name][fields[i+1]] = append(values[name][fields[i+1]], v)
			}
		}
	}
	if len(order) == 0 {
		return
	}
	fmt.Println()
	fmt.Println("| budget/keys/goroutines/algorithm | keyed ns | go-limiter ns | x/time/rate ns | keyed/go-limiter | keyed/x-rate |")
	fmt.Println("|---|---|---|---|---|---|")
	for _, name := range order {
		row := []string{name}
		for i, c := range columns {
			v := values[name][c]
			if len(v) == 0 {
				row = append(row, "-")
				continue
			}
			slices.Sort(v)
			m := v[len(v)/2]
			if i < 3 {
				row = append(row, fmt.Sprintf("%.0f", m))
			} else {
				row = append(row, fmt.Sprintf("%.2f", m))
			}
		}
		fmt.Println("| " + strings.Join(row, " | ") + " |")
	}
}
