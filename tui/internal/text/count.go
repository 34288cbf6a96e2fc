package text

import "fmt"

// Count is n and the word, plural unless n is 1: "1 card", "2 cards".
func Count(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
