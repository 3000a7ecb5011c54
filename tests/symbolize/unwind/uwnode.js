// uwnode.js - JavaScript for node --perf-prof: a recursion the JIT
// compiles at every tier, for a jitdump that perf inject --jit turns into
// one ELF file per compiled function (unwind.sh's uwnode).
'use strict';

function fib(n) {
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

const end = Date.now() + Number(process.argv[2] || 1000);
let sum = 0;

while (Date.now() < end)
	sum += fib(20);
if (sum < 0)
	console.log(sum);
