// uwgo.go - a Go program for unwind.sh: recursion on a goroutine and a
// sort on the main goroutine, about a second of CPU.  Go's linker writes
// no .eh_frame, only .debug_frame (compressed).
package main

import (
	"fmt"
	"sort"
)

//go:noinline
func fib(n int) int {
	if n < 2 {
		return n
	}
	return fib(n-1) + fib(n-2)
}

//go:noinline
func fibloop(rounds int, out chan<- int) {
	s := 0
	for i := 0; i < rounds; i++ {
		s += fib(24)
	}
	out <- s
}

//go:noinline
func sortloop(rounds int) int {
	a := make([]int, 100000)
	x := uint32(1)
	s := 0
	for r := 0; r < rounds; r++ {
		for i := range a {
			x = x*1664525 + 1013904223
			a[i] = int(x >> 8)
		}
		sort.Ints(a)
		s += a[len(a)/2]
	}
	return s
}

func main() {
	out := make(chan int)
	go fibloop(1000, out)
	s := sortloop(40)
	fmt.Println(s + <-out)
}
