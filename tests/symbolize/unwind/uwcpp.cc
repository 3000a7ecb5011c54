// SPDX-License-Identifier: MIT
/*
 * uwcpp.cc - C++ workload of tests/symbolize/unwind.sh: templates and lambdas
 * that the compiler inlines (-O2, no frame pointers), in a namespace, called
 * through std::function.
 */
#include <chrono>
#include <functional>
#include <vector>

namespace uw {

volatile unsigned long sink;

template <typename T> struct Acc {
	T total{};
	void add(T v) { total += v * 3; }
};

template <typename T> __attribute__((noinline)) T sum(const std::vector<T> &v)
{
	Acc<T> a;
	for (const T &x : v)
		a.add(x);
	return a.total;
}

template <typename F> inline void repeat(int n, F f)
{
	for (int i = 0; i < n; i++)
		f(i);
}

__attribute__((noinline)) void run(const std::function<void(int)> &fn, int n)
{
	repeat(n, fn);
}

} // namespace uw

int main()
{
	std::vector<unsigned long> v(4096);
	auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(400);

	for (size_t i = 0; i < v.size(); i++)
		v[i] = i;
	while (std::chrono::steady_clock::now() < end) {
		uw::sink += uw::sum(v);
		uw::run([&](int i) { uw::sink += uw::sum(v) + (unsigned long)i; }, 4);
	}
	return 0;
}
