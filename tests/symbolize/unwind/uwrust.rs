// uwrust.rs - a Rust program for tests/symbolize/unwind.sh: legacy and v0
// mangled names (the program's own functions and the standard library's),
// trait objects, closures and generics, and inline frames nested deeper than
// sixteen levels (the standard library's collections and formatting).
use std::collections::HashMap;
use std::fmt::Write;

trait Shape {
    fn area(&self, k: u64) -> u64;
}

struct Square(u64);

impl Shape for Square {
    #[inline(never)]
    fn area(&self, k: u64) -> u64 {
        (self.0 * k) % 1_000_003
    }
}

#[inline(never)]
fn fill<F: Fn(u64) -> u64>(n: u64, f: F) -> HashMap<u64, String> {
    let mut m = HashMap::new();
    for i in 0..n {
        let mut s = String::new();
        let _ = write!(s, "v{}", f(i));
        m.insert(i.wrapping_mul(2654435761) % 1_000_003, s);
    }
    m
}

#[inline(never)]
fn sorted_len(m: &HashMap<u64, String>) -> usize {
    let mut v: Vec<_> = m.iter().collect();
    v.sort_by(|a, b| a.1.cmp(b.1));
    v.iter().map(|x| x.1.len()).sum()
}

fn main() {
    let rounds: u64 = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(6);
    let shape: Box<dyn Shape + Send> = Box::new(Square(7));
    let worker = std::thread::spawn(move || {
        let mut t = 0;
        for r in 0..rounds {
            t += sorted_len(&fill(100_000, |i| shape.area(i + r)));
        }
        t
    });
    let mut t = 0;
    for r in 0..rounds {
        t += sorted_len(&fill(100_000, |i| i * 3 + r));
    }
    println!("{}", t + worker.join().unwrap());
}
