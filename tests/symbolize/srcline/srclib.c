/*
 * srclib.c - the library of tests/symbolize/srcline.sh: built with -g, then
 * stripped with its debug info in a separate file named by .gnu_debuglink.
 * Two levels of forced inlining give frames with inline chains.
 */
static inline __attribute__((always_inline)) unsigned int mix(unsigned int h, unsigned int c)
{
	h ^= c;
	h *= 16777619u;
	return h;
}

static inline __attribute__((always_inline)) unsigned int hash_block(const char *s, unsigned int n,
								      unsigned int h)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		h = mix(h, (unsigned char)s[i]);
	return h;
}

unsigned int srclib_hash(const char *s, unsigned int n, unsigned int rounds)
{
	unsigned int h = 2166136261u, r;

	for (r = 0; r < rounds; r++)
		h = hash_block(s, n, h + r);
	return h;
}
