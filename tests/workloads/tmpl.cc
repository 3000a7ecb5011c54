// tmpl.cc - a C++ workload with templates and deep inlining, for the
// source-line benchmark (scripts/bench.sh --srcline): std::map, std::sort,
// std::string and a small expression template, built with -O2 -g so that
// most frames carry chains of inlined functions, and calling into libc
// (malloc, memcmp, memcpy) for frames of libc with libc6-dbg.
//
// usage: tmpl [rounds]
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

template <typename T, int N> struct vec {
	T v[N];
	template <typename F> vec map(F f) const
	{
		vec r;
		for (int i = 0; i < N; i++)
			r.v[i] = f(v[i]);
		return r;
	}
	T sum() const
	{
		T s = T();
		for (int i = 0; i < N; i++)
			s += v[i];
		return s;
	}
};

template <typename T> static T poly(T x)
{
	return x * x * T(3) + x * T(2) + T(1);
}

template <typename T, int N> static T work_vec(unsigned seed)
{
	vec<T, N> a;
	for (int i = 0; i < N; i++)
		a.v[i] = T((seed * 2654435761u + i) % 1000) / T(7);
	return a.map(poly<T>).map([](T x) { return x / T(3) + poly(x); }).sum();
}

static std::string key_of(unsigned i)
{
	std::string s = "key-";
	s += std::to_string(i * 2654435761u % 100000);
	s += "-suffix";
	return s;
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? std::atoi(argv[1]) : 10;
	double acc = 0;
	for (int r = 0; r < rounds; r++) {
		std::map<std::string, unsigned> m;
		std::vector<std::string> keys;
		for (unsigned i = 0; i < 20000; i++) {
			keys.push_back(key_of(i + r));
			m[keys.back()] += i;
		}
		std::sort(keys.begin(), keys.end());
		for (const auto &k : keys)
			acc += m[k] & 7;
		for (unsigned i = 0; i < 20000; i++)
			acc += work_vec<double, 16>(i + r) + work_vec<float, 8>(i) + work_vec<long, 32>(i);
	}
	std::printf("%g\n", acc);
	return 0;
}
