// SPDX-License-Identifier: MIT
/*
 * cli.c - helpers shared by the perfconv subcommands.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

const char *cli_progname = CLI_PROGNAME;

const char *cli_mode_name(enum pd_mode mode)
{
	static const char *const names[] = { "file", "pipe", "dir" };

	return (unsigned int)mode < 3 ? names[mode] : "?";
}

const char *cli_format_bits(char *buf, size_t size, uint64_t v,
			    const char *(*name)(unsigned int bit), const char *sep)
{
	size_t len = 0;
	unsigned int bit;
	int n;

	buf[0] = '\0';
	if (!v) {
		snprintf(buf, size, "0");
		return buf;
	}
	for (bit = 0; bit < 64; bit++) {
		const char *s;

		if (!(v & (1ULL << bit)))
			continue;
		s = name(bit);
		if (s)
			n = snprintf(buf + len, size - len, "%s%s", len ? sep : "", s);
		else
			n = snprintf(buf + len, size - len, "%sbit%u", len ? sep : "", bit);
		if (n < 0 || (size_t)n >= size - len)
			break;		/* truncated, still terminated */
		len += (size_t)n;
	}
	return buf;
}

void cli_print_bits(FILE *f, uint64_t v, const char *(*name)(unsigned int bit), const char *sep)
{
	char buf[1024];

	fputs(cli_format_bits(buf, sizeof(buf), v, name, sep), f);
}

void cli_print_attr_flags(FILE *f, const struct pd_attr *a, const char *sep)
{
	bool first = true;
	unsigned int bit;

	for (bit = 0; bit < 64; bit++) {
		const char *s;

		if (bit == PD_ATTR_PRECISE_IP_SHIFT || bit == PD_ATTR_PRECISE_IP_SHIFT + 1) {
			/* a 2-bit value, not two flags: print it once */
			if (bit == PD_ATTR_PRECISE_IP_SHIFT && pd_attr_precise_ip(a)) {
				fprintf(f, "%sprecise_ip=%u", first ? "" : sep,
					pd_attr_precise_ip(a));
				first = false;
			}
			continue;
		}
		if (!(a->flags & (1ULL << bit)))
			continue;
		s = pd_attr_flag_name(bit);
		if (s)
			fprintf(f, "%s%s", first ? "" : sep, s);
		else
			fprintf(f, "%sbit%u", first ? "" : sep, bit);
		first = false;
	}
	if (first)
		fputs("0", f);
}
