// SPDX-License-Identifier: MIT
/*
 * fuzz_symbolize.c - libFuzzer target for the symbolizer
 * (libperfdata-sym): the machine state fed with every record in time
 * order, every sample resolved frame by frame with its source lines, and
 * the command names and thread state asked for as perfsym, to-csv and
 * to-json do.
 *
 * Files the recording names are opened as in real use (ELF files of this
 * machine, perf-PID.map files); kernel symbols come from a small fixed
 * kallsyms file (fuzz_cmd.h), never from the running kernel.
 *
 * Build and run: make fuzz-writers-run FUZZ_SECONDS=N
 */
#include "fuzz_cmd.h"
#include "perfdata/pd_symbols.h"

static uint64_t sink;

/* Every string of a result must be readable. */
static void touch(const char *s)
{
	if (s)
		while (*s)
			sink += (unsigned char)*s++;
}

static void resolve(struct pd_machine *m, const struct pd_record *rec, struct pd_sym_frame *fr)
{
	const struct pd_sample *s = &rec->u.sample;
	struct pd_sym_srcline sl;
	struct pd_sym_thread th;
	size_t n, i;
	unsigned int k;

	n = pd_machine_resolve_sample(m, rec, fr, PD_SYM_MAX_FRAMES);
	if (n > PD_SYM_MAX_FRAMES)
		abort();
	for (i = 0; i < n; i++) {
		touch(fr[i].sym);
		if (fr[i].has_map) {
			touch(fr[i].dso_name);
			touch(fr[i].dso_short);
			touch(fr[i].dso_path);
		}
		if (pd_machine_srcline(m, &fr[i], &sl) > 0)
			for (k = 0; k < sl.nr; k++) {
				touch(sl.pos[k].file);
				touch(sl.pos[k].func);
			}
	}
	touch(pd_machine_comm(m, (int32_t)s->pid, (int32_t)s->tid));
	touch(pd_machine_comm_at(m, (int32_t)s->tid, s->time));
	if (pd_machine_thread(m, (int32_t)s->tid, &th) == 0)
		touch(th.comm);
	sink += pd_machine_version(m, (int32_t)s->pid, (int32_t)s->tid, rec->misc & 7);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct pd_sym_frame frames[PD_SYM_MAX_FRAMES];
	struct pd_reader_opts ro = PD_READER_OPTS_INIT;
	struct pd_sym_opts so = PD_SYM_OPTS_INIT;
	const struct pd_record *rec;
	struct pd_reader *r;
	struct pd_machine *m;
	char path[64];
	int fd;

	fd = fuzz_memfd(data, size, path, sizeof(path));
	if (lseek(fd, 0, SEEK_SET) != 0)
		abort();
	ro.time_order = true;
	ro.skip_compressed = true;
	ro.window_size = 256 << 10;
	ro.max_decompressed = 16 << 20;
	ro.order_queue_max = 4 << 20;
	so.srcline = true;
	so.kallsyms = fuzz_kallsyms();
	if (pd_reader_open_fd(fd, "fuzz", &ro, &r) < 0) {
		close(fd);
		return 0;
	}
	if (pd_machine_new(&so, &m) < 0)
		abort();
	pd_machine_add_features(m, pd_reader_features(r));
	while (pd_reader_next(r, &rec) > 0) {
		if (pd_machine_process(m, rec) < 0)
			break;
		if (rec->type == PD_REC_SAMPLE && rec->decoded)
			resolve(m, rec, frames);
	}
	pd_machine_free(m);
	pd_reader_close(r);
	close(fd);
	return 0;
}
