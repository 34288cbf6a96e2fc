package sliding

import (
	"fmt"
	"time"
)

// The previous window crowded at its end (CONTRACT.md E4): the counter's
// estimate assumes those three were spread out and lets two extra through.
// The last one may retry once 3*(1000-e)/1000 + 2 < 3, at e = 666.667 ms.
func ExampleCounter() {
	c, _ := NewCounter(Config{Window: time.Second, Limit: 3})
	for _, t := range []int64{970, 980, 990, 1500, 1510, 1520} {
		d := c.AllowN(time.UnixMilli(t), 1)
		fmt.Printf("%d %.2f %v %v\n", t, c.State().Estimate, d.Allowed, d.RetryAfter.Round(time.Microsecond))
	}
	// Output:
	// 970 0.00 true 0s
	// 980 1.00 true 0s
	// 990 2.00 true 0s
	// 1500 1.50 true 0s
	// 1510 2.47 true 0s
	// 1520 3.44 false 146.667ms
}

// The same arrivals through the log: exact, so the three late ones in window
// 0 keep the next three out until they are a full second old.
func ExampleLog() {
	l, _ := NewLog(Config{Window: time.Second, Limit: 3})
	for _, t := range []int64{970, 980, 990, 1500, 1510, 1520} {
		d := l.AllowN(time.UnixMilli(t), 1)
		fmt.Println(t, d.Allowed, d.Remaining, d.RetryAfter)
	}
	// Output:
	// 970 true 2 0s
	// 980 true 1 0s
	// 990 true 0 0s
	// 1500 false 0 470ms
	// 1510 false 0 460ms
	// 1520 false 0 450ms
}
