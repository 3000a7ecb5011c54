// SPDX-License-Identifier: MIT
/*
 * test_symbols.c - the process model and symbolization module
 * (libperfdata-sym) on hand-made record sequences and on small ELF files
 * compiled with gcc at test time: map overlap and replacement, fork
 * inheritance, exec and comm history, exit and pid reuse, kallsyms and
 * perf map files, build-id mismatch, symfs escapes, PIE and non-PIE
 * address translation, callchain context markers, the symbol table's
 * alias and size rules, and the source files of ELF symbols where there is
 * no DWARF (also from damaged files).
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <CUnit/CUnit.h>

#include "perfdata/pd_consts.h"
#include "perfdata/pd_symbols.h"
#include "symbolize/sym_internal.h"
#include "diag_recorder.h"
#include "test_suites.h"

static char tdir[256];
static bool have_gcc;

/* The symbolizer's diagnostics go to `dr` (reset here) when given. */
static struct pd_machine *new_machine(struct pd_sym_opts *o, struct diag_recorder *dr)
{
	struct pd_machine *m = NULL;

	if (dr) {
		diag_recorder_reset(dr);
		o->diag_fn = diag_recorder_fn;
		o->diag_arg = dr;
	}
	CU_ASSERT_EQUAL_FATAL(pd_machine_new(o, &m), 0);
	return m;
}

/* How many kept diagnostics have this code. */
static unsigned int diags_with(const struct diag_recorder *dr, enum pd_code code)
{
	unsigned int i, n = 0;

	for (i = 0; i < dr->n && i < DIAG_RECORDER_KEPT; i++)
		n += dr->seen[i].code == code;
	return n;
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs(text, f);
	fclose(f);
}

/* ---- records ---- */

static void feed(struct pd_machine *m, struct pd_record *r)
{
	r->decoded = true;
	CU_ASSERT_EQUAL(pd_machine_process(m, r), 0);
}

static void mmap2(struct pd_machine *m, uint32_t pid, uint32_t tid, uint64_t start, uint64_t len,
		  uint64_t pgoff, uint32_t prot, const char *name, uint8_t cpumode)
{
	struct pd_record r;

	memset(&r, 0, sizeof(r));
	r.type = PD_REC_MMAP2;
	r.misc = cpumode;
	r.u.mmap.pid = pid;
	r.u.mmap.tid = tid;
	r.u.mmap.start = start;
	r.u.mmap.len = len;
	r.u.mmap.pgoff = pgoff;
	r.u.mmap.prot = prot;
	r.u.mmap.filename = name;
	feed(m, &r);
}

static void mmap2_bid(struct pd_machine *m, uint32_t pid, uint64_t start, uint64_t len,
		      uint64_t pgoff, const char *name, const uint8_t *bid, uint8_t bidsz)
{
	struct pd_record r;

	memset(&r, 0, sizeof(r));
	r.type = PD_REC_MMAP2;
	r.misc = PD_CPUMODE_USER | PD_MISC_MMAP_BUILD_ID;
	r.u.mmap.pid = r.u.mmap.tid = pid;
	r.u.mmap.start = start;
	r.u.mmap.len = len;
	r.u.mmap.pgoff = pgoff;
	r.u.mmap.prot = 5;
	r.u.mmap.has_build_id = true;
	r.u.mmap.build_id_size = bidsz;
	memcpy(r.u.mmap.build_id, bid, bidsz);
	r.u.mmap.filename = name;
	feed(m, &r);
}

static void comm(struct pd_machine *m, uint32_t pid, uint32_t tid, const char *name, uint64_t time,
		 bool exec)
{
	struct pd_record r;

	memset(&r, 0, sizeof(r));
	r.type = PD_REC_COMM;
	r.misc = exec ? PD_MISC_COMM_EXEC : 0;
	r.u.comm.pid = pid;
	r.u.comm.tid = tid;
	r.u.comm.comm = name;
	r.sid.time = time;
	feed(m, &r);
}

static void fork_exit(struct pd_machine *m, uint32_t type, uint32_t pid, uint32_t ppid,
		      uint32_t tid, uint32_t ptid, uint64_t time, uint16_t misc)
{
	struct pd_record r;

	memset(&r, 0, sizeof(r));
	r.type = type;
	r.misc = misc;
	r.u.fork.pid = pid;
	r.u.fork.ppid = ppid;
	r.u.fork.tid = tid;
	r.u.fork.ptid = ptid;
	r.u.fork.time = time;
	feed(m, &r);
}

static const char *dso_at(struct pd_machine *m, int32_t pid, uint64_t ip, uint64_t *addr)
{
	struct pd_sym_frame f;

	pd_machine_resolve(m, pid, pid, PD_CPUMODE_USER, ip, &f);
	if (addr)
		*addr = f.addr;
	return f.has_map ? f.dso_name : NULL;
}

/* ---- ELF helpers (independent of the module: plain gelf) ---- */

static bool compile(const char *out, const char *flags, const char *src)
{
	char cpath[PATH_MAX], cmd[3 * PATH_MAX];

	if (!have_gcc)
		return false;
	snprintf(cpath, sizeof(cpath), "%s/src-%d.c", tdir, (int)strlen(out));
	write_file(cpath, src);
	snprintf(cmd, sizeof(cmd), "gcc -O0 -Wl,--build-id %s -o %s/%s %s 2>/dev/null", flags, tdir,
		 out, cpath);
	return system(cmd) == 0;
}

/* file offset of a symbol and its executable PT_LOAD (offset, size) */
static bool elf_sym_off(const char *path, const char *name, uint64_t *off, uint64_t *seg_off,
			uint64_t *seg_size, uint8_t *bid, size_t *bidsz)
{
	int fd = open(path, O_RDONLY);
	Elf *e;
	Elf_Scn *scn = NULL;
	bool found = false;
	uint64_t value = 0;
	size_t nph, i, shstr;

	if (fd < 0)
		return false;
	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_READ, NULL);
	if (!e || elf_getshdrstrndx(e, &shstr))
		goto out;
	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;
		size_t k;

		gelf_getshdr(scn, &sh);
		if (sh.sh_type == SHT_NOTE && bid) {
			d = elf_getdata(scn, NULL);
			if (d && d->d_size > 16 && !strcmp(elf_strptr(e, shstr, sh.sh_name),
							   ".note.gnu.build-id")) {
				uint32_t descsz;

				memcpy(&descsz, (char *)d->d_buf + 4, 4);
				*bidsz = descsz > 20 ? 20 : descsz;
				memcpy(bid, (char *)d->d_buf + 16, *bidsz);
			}
		}
		if (sh.sh_type != SHT_SYMTAB)
			continue;
		d = elf_getdata(scn, NULL);
		for (k = 0; d && k < sh.sh_size / sh.sh_entsize; k++) {
			GElf_Sym s;

			gelf_getsym(d, (int)k, &s);
			if (!strcmp(elf_strptr(e, sh.sh_link, s.st_name), name)) {
				value = s.st_value;
				found = true;
			}
		}
	}
	if (!found || elf_getphdrnum(e, &nph)) {
		found = false;
		goto out;
	}
	found = false;
	for (i = 0; i < nph; i++) {
		GElf_Phdr ph;

		gelf_getphdr(e, (int)i, &ph);
		if (ph.p_type == PT_LOAD && (ph.p_flags & PF_X) && value >= ph.p_vaddr &&
		    value < ph.p_vaddr + ph.p_memsz) {
			*off = value - ph.p_vaddr + ph.p_offset;
			*seg_off = ph.p_offset;
			*seg_size = ph.p_filesz;
			found = true;
		}
	}
out:
	if (e)
		elf_end(e);
	close(fd);
	return found;
}

static const char tiny_src[] =
	"int alpha(int x);\nint beta(int x);\n"
	"int alpha(int x) { return x * 3 + 1; }\n"
	"int beta(int x) { int i, s = 0; for (i = 0; i < x; i++) s += alpha(i); return s; }\n"
	"int main(int argc, char **argv) { (void)argv; return beta(argc) & 1; }\n";

/* ---- tests ---- */

static void test_overlap(void)
{
	struct pd_sym_opts o = PD_SYM_OPTS_INIT;
	struct diag_recorder nt;
	struct pd_machine *m = new_machine(&o, &nt);
	struct pd_sym_thread th;
	uint64_t addr;

	mmap2(m, 100, 100, 0x10000, 0x4000, 0, 5, "/nonexistent/liba.so", PD_CPUMODE_USER);
	mmap2(m, 100, 100, 0x11000, 0x1000, 0x8000, 5, "/nonexistent/libb.so", PD_CPUMODE_USER);
	CU_ASSERT_STRING_EQUAL(dso_at(m, 100, 0x10800, &addr), "/nonexistent/liba.so");
	CU_ASSERT_EQUAL(addr, 0x800);
	CU_ASSERT_STRING_EQUAL(dso_at(m, 100, 0x11800, &addr), "/nonexistent/libb.so");
	CU_ASSERT_EQUAL(addr, 0x8800);
	/* the tail clone keeps translating as the original did */
	CU_ASSERT_STRING_EQUAL(dso_at(m, 100, 0x12800, &addr), "/nonexistent/liba.so");
	CU_ASSERT_EQUAL(addr, 0x2800);
	CU_ASSERT_PTR_NULL(dso_at(m, 100, 0x14000, NULL));
	CU_ASSERT_EQUAL(pd_machine_thread(m, 100, &th), 0);
	CU_ASSERT_EQUAL(th.nr_maps, 3);
	/* a later map over the whole range replaces all three */
	mmap2(m, 100, 100, 0x10000, 0x4000, 0x1000, 5, "/nonexistent/libc.so", PD_CPUMODE_USER);
	CU_ASSERT_STRING_EQUAL(dso_at(m, 100, 0x11800, &addr), "/nonexistent/libc.so");
	CU_ASSERT_EQUAL(addr, 0x2800);
	CU_ASSERT_EQUAL(pd_machine_thread(m, 100, &th), 0);
	CU_ASSERT_EQUAL(th.nr_maps, 1);
	/* missing files are notes, once per DSO */
	CU_ASSERT(diags_with(&nt, PD_SYM_NO_FILE) >= 1);
	CU_ASSERT_EQUAL(diags_with(&nt, PD_SYM_BUILDID_MISMATCH), 0);
	pd_machine_free(m);
}

static void test_special_maps(void)
{
	struct pd_sym_opts o = PD_SYM_OPTS_INIT;
	struct pd_machine *m = new_machine(&o, NULL);
	struct pd_sym_frame f;

	mmap2(m, 7, 7, 0x1000, 0x1000, 0x55000, 5, "//anon", PD_CPUMODE_USER);
	mmap2(m, 7, 7, 0x3000, 0x1000, 0, 3, "[heap]", PD_CPUMODE_USER);
	mmap2(m, 7, 7, 0x5000, 0x2000, 0x77, 5, "[vdso]", PD_CPUMODE_USER);
	pd_machine_resolve(m, 7, 7, PD_CPUMODE_USER, 0x1010, &f);
	/* executable anonymous memory is JIT code: identity addresses */
	CU_ASSERT_STRING_EQUAL(f.dso_name, "/tmp/perf-7.map");
	CU_ASSERT_STRING_EQUAL(f.dso_short, "[JIT] tid 7");
	CU_ASSERT_EQUAL(f.dso_kind, PD_DSO_JIT);
	CU_ASSERT_EQUAL(f.addr, 0x1010);
	pd_machine_resolve(m, 7, 7, PD_CPUMODE_USER, 0x3010, &f);
	CU_ASSERT_STRING_EQUAL(f.dso_name, "[heap]");
	CU_ASSERT_EQUAL(f.dso_kind, PD_DSO_ANON);
	CU_ASSERT_PTR_NULL(f.sym);
	pd_machine_resolve(m, 7, 7, PD_CPUMODE_USER, 0x5010, &f);
	CU_ASSERT_STRING_EQUAL(f.dso_short, "[vdso]");
	CU_ASSERT_EQUAL(f.addr, 0x10);	/* pgoff forced to 0 */
	pd_machine_free(m);
}

static void test_fork_threads(void)
{
	struct pd_sym_opts o = PD_SYM_OPTS_INIT;
	struct pd_machine *m = new_machine(&o, NULL);
	struct pd_sym_thread th;

	comm(m, 100, 100, "parent", 1, false);
	mmap2(m, 100, 100, 0x10000, 0x1000, 0, 5, "/x/a", PD_CPUMODE_USER);
	/* a thread shares its process's address space */
	fork_exit(m, PD_REC_FORK, 100, 100, 101, 100, 2, 0);
	mmap2(m, 100, 101, 0x20000, 0x1000, 0, 5, "/x/b", PD_CPUMODE_USER);
	CU_ASSERT_STRING_EQUAL(dso_at(m, 100, 0x20010, NULL), "/x/b");
	CU_ASSERT_STRING_EQUAL(pd_machine_comm(m, 100, 101), "parent");
	/* a new process gets a copy */
	fork_exit(m, PD_REC_FORK, 200, 100, 200, 100, 3, 0);
	CU_ASSERT_STRING_EQUAL(dso_at(m, 200, 0x10010, NULL), "/x/a");
	CU_ASSERT_STRING_EQUAL(dso_at(m, 200, 0x20010, NULL), "/x/b");
	mmap2(m, 200, 200, 0x30000, 0x1000, 0, 5, "/x/c", PD_CPUMODE_USER);
	CU_ASSERT_PTR_NULL(dso_at(m, 100, 0x30010, NULL));
	CU_ASSERT_STRING_EQUAL(pd_machine_comm(m, 200, 200), "parent");
	CU_ASSERT_EQUAL(pd_machine_thread(m, 200, &th), 0);
	CU_ASSERT_EQUAL(th.ppid, 100);
	/* synthesized forks (FORK_EXEC) copy nothing */
	fork_exit(m, PD_REC_FORK, 300, 100, 300, 100, 4, PD_MISC_FORK_EXEC);
	CU_ASSERT_PTR_NULL(dso_at(m, 300, 0x10010, NULL));
	/* never named: ":tid" */
	CU_ASSERT_STRING_EQUAL(pd_machine_comm(m, 555, 556), ":556");
	CU_ASSERT_STRING_EQUAL(pd_machine_comm(m, 0, 0), "swapper");
	pd_machine_free(m);
}

/*
 * Versions: equal only while resolving gives the same answer; threads of a
 * process share theirs; map changes and DSO loads move them.
 */
static void test_versions(void)
{
	struct pd_sym_opts o = PD_SYM_OPTS_INIT;
	struct pd_machine *m = new_machine(&o, NULL);
	uint64_t k0, u100, u101, u200, v;
	struct pd_sym_frame f;

	comm(m, 100, 100, "parent", 1, false);
	mmap2(m, 100, 100, 0x10000, 0x1000, 0, 5, "/x/a", PD_CPUMODE_USER);
	fork_exit(m, PD_REC_FORK, 100, 100, 101, 100, 2, 0);
	fork_exit(m, PD_REC_FORK, 200, 100, 200, 100, 3, 0);

	k0 = pd_machine_version(m, 100, 100, PD_CPUMODE_KERNEL);
	u100 = pd_machine_version(m, 100, 100, PD_CPUMODE_USER);
	u101 = pd_machine_version(m, 100, 101, PD_CPUMODE_USER);
	u200 = pd_machine_version(m, 200, 200, PD_CPUMODE_USER);
	CU_ASSERT_NOT_EQUAL(k0, 0);
	CU_ASSERT_NOT_EQUAL(u100, 0);
	/* one address space for the threads of a process, another for a child */
	CU_ASSERT_EQUAL(u100, u101);
	CU_ASSERT_NOT_EQUAL(u100, u200);
	CU_ASSERT_NOT_EQUAL(u100, k0);
	/* the kernel version serves every thread and every non-user mode */
	CU_ASSERT_EQUAL(pd_machine_version(m, 200, 200, PD_CPUMODE_KERNEL), k0);
	CU_ASSERT_EQUAL(pd_machine_version(m, 100, 100, PD_CPUMODE_HYPERVISOR), k0);
	/* nothing changed: nothing moves */
	CU_ASSERT_EQUAL(pd_machine_version(m, 100, 100, PD_CPUMODE_USER), u100);

	/* a map in the child moves the child only */
	mmap2(m, 200, 200, 0x30000, 0x1000, 0, 5, "/x/c", PD_CPUMODE_USER);
	v = pd_machine_version(m, 200, 200, PD_CPUMODE_USER);
	CU_ASSERT_NOT_EQUAL(v, u200);
	CU_ASSERT_EQUAL(pd_machine_version(m, 100, 101, PD_CPUMODE_USER), u100);
	CU_ASSERT_EQUAL(pd_machine_version(m, 100, 100, PD_CPUMODE_KERNEL), k0);
	u200 = v;

	/* a kernel map moves every version: user addresses may fall into it */
	mmap2(m, (uint32_t)-1, 0, 0xffffffff81000000ULL, 0x1000, 0xffffffff81000000ULL, 0,
	      "[kernel.kallsyms]_text", PD_CPUMODE_KERNEL);
	v = pd_machine_version(m, 100, 100, PD_CPUMODE_KERNEL);
	CU_ASSERT_NOT_EQUAL(v, k0);
	k0 = v;
	v = pd_machine_version(m, 100, 100, PD_CPUMODE_USER);
	CU_ASSERT_NOT_EQUAL(v, u100);
	CU_ASSERT_EQUAL(pd_machine_version(m, 100, 101, PD_CPUMODE_USER), v);
	u100 = v;

	/*
	 * loading a user DSO (the first resolve in it) moves nothing: no frame
	 * resolved before it is in that DSO
	 */
	u200 = pd_machine_version(m, 200, 200, PD_CPUMODE_USER);
	pd_machine_resolve(m, 100, 100, PD_CPUMODE_USER, 0x10010, &f);
	CU_ASSERT_EQUAL(pd_machine_version(m, 100, 100, PD_CPUMODE_KERNEL), k0);
	CU_ASSERT_EQUAL(pd_machine_version(m, 100, 100, PD_CPUMODE_USER), u100);
	CU_ASSERT_EQUAL(pd_machine_version(m, 200, 200, PD_CPUMODE_USER), u200);
	/* once loaded, resolving again changes nothing */
	k0 = pd_machine_version(m, 100, 100, PD_CPUMODE_KERNEL);
	u100 = pd_machine_version(m, 100, 100, PD_CPUMODE_USER);
	pd_machine_resolve(m, 100, 101, PD_CPUMODE_USER, 0x10020, &f);
	CU_ASSERT_EQUAL(pd_machine_version(m, 100, 100, PD_CPUMODE_KERNEL), k0);
	CU_ASSERT_EQUAL(pd_machine_version(m, 100, 101, PD_CPUMODE_USER), u100);
	pd_machine_free(m);
}

static void test_exec_exit_reuse(void)
{
	struct pd_sym_opts o = PD_SYM_OPTS_INIT;
	struct pd_machine *m = new_machine(&o, NULL);
	struct pd_sym_thread th;

	comm(m, 100, 100, "sh", 5, false);
	fork_exit(m, PD_REC_FORK, 200, 100, 200, 100, 10, 0);
	comm(m, 200, 200, "worker", 20, false);
	comm(m, 200, 200, "ls", 30, true);
	mmap2(m, 200, 200, 0x40000, 0x1000, 0, 5, "/bin/ls-new", PD_CPUMODE_USER);
	CU_ASSERT_STRING_EQUAL(pd_machine_comm(m, 200, 200), "ls");
	CU_ASSERT_STRING_EQUAL(pd_machine_comm_at(m, 200, 15), "sh");
	CU_ASSERT_STRING_EQUAL(pd_machine_comm_at(m, 200, 25), "worker");
	CU_ASSERT_STRING_EQUAL(pd_machine_comm_at(m, 200, 35), "ls");
	/* exec keeps the old maps where new ones do not cover them */
	mmap2(m, 100, 100, 0x50000, 0x1000, 0, 5, "/bin/sh", PD_CPUMODE_USER);
	fork_exit(m, PD_REC_EXIT, 200, 100, 200, 100, 40, 0);
	CU_ASSERT_EQUAL(pd_machine_thread(m, 200, &th), 0);
	CU_ASSERT(th.exited);
	CU_ASSERT_EQUAL(th.exit_time, 40);
	/* exited threads stay findable */
	CU_ASSERT_STRING_EQUAL(pd_machine_comm(m, 200, 200), "ls");
	/* pid reuse: a FORK for the same tid starts a fresh thread */
	fork_exit(m, PD_REC_FORK, 200, 100, 200, 100, 50, 0);
	CU_ASSERT_EQUAL(pd_machine_thread(m, 200, &th), 0);
	CU_ASSERT(!th.exited);
	CU_ASSERT_STRING_EQUAL(th.comm, "sh");
	CU_ASSERT_PTR_NULL(dso_at(m, 200, 0x40010, NULL));
	CU_ASSERT_STRING_EQUAL(dso_at(m, 200, 0x50010, NULL), "/bin/sh");
	pd_machine_free(m);
}

/* ---- the processes of the recording ---- */

struct procs_seen {
	unsigned int nr;
	struct pd_sym_process p[8];
	char comms[8][64];	/* the names joined with ';' */
};

static void proc_cb(void *arg, const struct pd_sym_process *p)
{
	struct procs_seen *ps = arg;
	size_t len = 0;
	uint32_t i;

	if (ps->nr == 8)
		return;
	for (i = 0; i < p->nr_comms && i < 3; i++)
		len += (size_t)snprintf(ps->comms[ps->nr] + len, sizeof(ps->comms[0]) - len, "%s%s",
					i ? ";" : "", p->comms[i]);
	ps->p[ps->nr++] = *p;
}

static void sample_of(struct pd_machine *m, struct pd_record *r, int32_t pid, int32_t tid,
		      bool has_tid)
{
	memset(r, 0, sizeof(*r));
	r->type = PD_REC_SAMPLE;
	r->event_index = 0;
	r->u.sample.sample_type = has_tid ? PD_SAMPLE_TID : 0;
	r->u.sample.pid = (uint32_t)pid;
	r->u.sample.tid = (uint32_t)tid;
	feed(m, r);
}

static void test_processes(void)
{
	struct pd_sym_opts o = PD_SYM_OPTS_INIT;
	struct pd_machine *m;
	struct procs_seen ps;
	struct pd_record r;
	char name[16];
	int i;

	o.processes = true;
	m = new_machine(&o, NULL);
	comm(m, 100, 100, "sh", 5, false);
	fork_exit(m, PD_REC_FORK, 200, 100, 200, 100, 10, 0);
	comm(m, 200, 200, "worker", 20, false);
	comm(m, 200, 200, "worker", 21, false);	/* a repeat is left out */
	fork_exit(m, PD_REC_FORK, 200, 200, 201, 200, 22, 0);
	comm(m, 200, 201, "w1", 23, false);	/* a thread naming itself */
	comm(m, 200, 200, "ls", 30, true);
	mmap2(m, 200, 200, 0x40000, 0x1000, 0, 5, "/bin/ls", PD_CPUMODE_USER);
	mmap2(m, 200, 200, 0x50000, 0x1000, 0, 5, "/bin/ls", PD_CPUMODE_KERNEL);
	fork_exit(m, PD_REC_EXIT, 200, 100, 200, 100, 40, 0);
	/* the tid reused: a fresh thread, the same process, counted once */
	fork_exit(m, PD_REC_FORK, 200, 100, 200, 100, 50, 0);
	sample_of(m, &r, 200, 201, true);
	CU_ASSERT_EQUAL(pd_machine_count_sample(m, &r, 0, 7), 0);
	CU_ASSERT_EQUAL(pd_machine_count_sample(m, &r, 2, 3), 0);
	sample_of(m, &r, 200, 201, true);
	CU_ASSERT_EQUAL(pd_machine_count_sample(m, &r, 0, 5), 0);
	sample_of(m, &r, 7, 7, false);	/* no TID: pid -1 */
	CU_ASSERT_EQUAL(pd_machine_count_sample(m, &r, 0, 1), 0);
	/* a sample of a thread never named: the process is named like perf names it */
	sample_of(m, &r, 300, 301, true);
	for (i = 0; i < PD_SYM_MAX_COMMS + 2; i++) {
		snprintf(name, sizeof(name), "n%d", i);
		comm(m, 400, 400, name, 60 + (uint64_t)i, false);
	}

	memset(&ps, 0, sizeof(ps));
	CU_ASSERT_EQUAL(pd_machine_processes(m, proc_cb, &ps), 0);
	CU_ASSERT_EQUAL_FATAL(ps.nr, 5);
	CU_ASSERT_EQUAL(ps.p[0].pid, -1);
	CU_ASSERT_EQUAL(ps.p[0].threads, 0);
	CU_ASSERT_EQUAL(ps.p[0].nr_counts > 0 ? ps.p[0].counts[0].samples : 0, 1);
	CU_ASSERT_EQUAL(ps.p[1].pid, 100);
	CU_ASSERT_STRING_EQUAL(ps.p[1].comm, "sh");
	CU_ASSERT_EQUAL(ps.p[1].threads, 1);
	CU_ASSERT(!ps.p[1].has_fork);
	CU_ASSERT(!ps.p[1].has_ppid);
	CU_ASSERT_EQUAL(ps.p[2].pid, 200);
	CU_ASSERT_STRING_EQUAL(ps.p[2].comm, "sh");
	CU_ASSERT_EQUAL(ps.p[2].nr_comms, 4);
	CU_ASSERT_STRING_EQUAL(ps.comms[2], "sh;worker;ls");
	CU_ASSERT(ps.p[2].has_ppid && ps.p[2].ppid == 100);
	CU_ASSERT(ps.p[2].has_fork && ps.p[2].fork_time == 50);
	CU_ASSERT(ps.p[2].has_exit && ps.p[2].exit_time == 40);
	CU_ASSERT_EQUAL(ps.p[2].mmaps, 1);
	CU_ASSERT_EQUAL(ps.p[2].threads, 2);
	CU_ASSERT_FATAL(ps.p[2].nr_counts >= 3);
	CU_ASSERT_EQUAL(ps.p[2].counts[0].samples, 2);
	CU_ASSERT_EQUAL(ps.p[2].counts[0].period, 12);
	CU_ASSERT_EQUAL(ps.p[2].counts[1].samples, 0);
	CU_ASSERT_EQUAL(ps.p[2].counts[2].period, 3);
	CU_ASSERT_EQUAL(ps.p[3].pid, 300);
	CU_ASSERT_STRING_EQUAL(ps.p[3].comm, ":300");
	CU_ASSERT_EQUAL(ps.p[3].nr_comms, 0);
	CU_ASSERT_EQUAL(ps.p[3].threads, 1);
	CU_ASSERT_EQUAL(ps.p[4].pid, 400);
	CU_ASSERT_EQUAL(ps.p[4].nr_comms, PD_SYM_MAX_COMMS);
	CU_ASSERT(ps.p[4].comms_elided);
	CU_ASSERT_STRING_EQUAL(ps.p[4].comm, "n257");
	CU_ASSERT_STRING_EQUAL(ps.comms[4], "n0;n1;n2");
	pd_machine_free(m);

	/* without opts.processes nothing is kept */
	o.processes = false;
	m = new_machine(&o, NULL);
	sample_of(m, &r, 200, 201, true);
	CU_ASSERT_EQUAL(pd_machine_count_sample(m, &r, 0, 7), 0);
	memset(&ps, 0, sizeof(ps));
	CU_ASSERT_EQUAL(pd_machine_processes(m, proc_cb, &ps), 0);
	CU_ASSERT_EQUAL(ps.nr, 0);
	pd_machine_free(m);
}

static void test_kallsyms(void)
{
	struct pd_sym_opts o = PD_SYM_OPTS_INIT;
	struct pd_machine *m;
	struct pd_sym_frame f;
	char path[PATH_MAX];
	struct pd_record r;
	struct diag_recorder nt;

	snprintf(path, sizeof(path), "%s/kallsyms", tdir);
	write_file(path,
		   "ffffffff81000000 T _stext\n"
		   "ffffffff81000000 T _text\n"
		   "ffffffff81000000 T startup_64\n"
		   "ffffffff81000100 t local_fn\n"
		   "ffffffff81000200 A abs_sym\n"
		   "ffffffff81000300 W weak_fn\n"
		   "ffffffff81000400 R rodata_sym\n"
		   "ffffffff81000500 T last_core\n"
		   "ffffffffc0001000 t mod_fn\t[my_mod]\n"
		   "ffffffffc0002000 t other_fn\t[nomap]\n");
	o.kallsyms = path;
	m = new_machine(&o, &nt);
	mmap2(m, (uint32_t)-1, 0, 0xffffffff81000000ULL, 0x1000, 0xffffffff81000000ULL, 0,
	      "[kernel.kallsyms]_text", PD_CPUMODE_KERNEL);
	mmap2(m, (uint32_t)-1, 0, 0xffffffffc0000000ULL, 0x10000, 0, 0,
	      "/lib/modules/x/my-mod.ko", PD_CPUMODE_KERNEL);
	pd_machine_resolve(m, 1, 1, PD_CPUMODE_KERNEL, 0xffffffff81000010ULL, &f);
	CU_ASSERT_STRING_EQUAL(f.dso_name, "[kernel.kallsyms]");
	/* aliases: the last one listed keeps the size and wins */
	CU_ASSERT_STRING_EQUAL(f.sym, "startup_64");
	CU_ASSERT_EQUAL(f.sym_off, 0x10);
	pd_machine_resolve(m, 1, 1, PD_CPUMODE_KERNEL, 0xffffffff81000250ULL, &f);
	CU_ASSERT_STRING_EQUAL(f.sym, "local_fn");	/* 'A' symbols are dropped */
	pd_machine_resolve(m, 1, 1, PD_CPUMODE_KERNEL, 0xffffffff81000450ULL, &f);
	CU_ASSERT_STRING_EQUAL(f.sym, "weak_fn");	/* so are 'R' */
	/* the last core symbol reaches the next page boundary + 4096 */
	pd_machine_resolve(m, 1, 1, PD_CPUMODE_KERNEL, 0xffffffff81001fffULL, &f);
	CU_ASSERT_STRING_EQUAL(f.sym, "last_core");
	pd_machine_resolve(m, 1, 1, PD_CPUMODE_KERNEL, 0xffffffff81002000ULL, &f);
	CU_ASSERT_PTR_NULL(f.sym);
	/* module symbols go to their module map, relative to it */
	pd_machine_resolve(m, 1, 1, PD_CPUMODE_KERNEL, 0xffffffffc0001004ULL, &f);
	CU_ASSERT_STRING_EQUAL(f.dso_name, "[my_mod]");
	CU_ASSERT_STRING_EQUAL(f.dso_path, "/lib/modules/x/my-mod.ko");
	CU_ASSERT_PTR_NOT_NULL(f.sym);
	if (f.sym)
		CU_ASSERT_STRING_EQUAL(f.sym, "mod_fn");
	CU_ASSERT_EQUAL(f.addr, 0x1004);
	/* "[nomap]" has no map: its symbols are dropped */
	pd_machine_resolve(m, 1, 1, PD_CPUMODE_KERNEL, 0xffffffffc0002004ULL, &f);
	CU_ASSERT(!f.has_map || !f.sym || strcmp(f.sym, "other_fn"));
	/* a user-mode address in kernel space falls back to the kernel maps */
	pd_machine_resolve(m, 1, 1, PD_CPUMODE_USER, 0xffffffff81000110ULL, &f);
	CU_ASSERT_STRING_EQUAL(f.sym, "local_fn");
	/* callchain markers switch the address space */
	{
		static const uint64_t chain[] = {
			PD_CONTEXT_KERNEL, 0xffffffff81000310ULL, PD_CONTEXT_USER, 0x1234,
		};
		struct pd_sym_frame fr[4];

		memset(&r, 0, sizeof(r));
		r.type = PD_REC_SAMPLE;
		r.misc = PD_CPUMODE_KERNEL;
		r.decoded = true;
		r.u.sample.sample_type = PD_SAMPLE_TID | PD_SAMPLE_CALLCHAIN | PD_SAMPLE_IP;
		r.u.sample.pid = r.u.sample.tid = 9;
		r.u.sample.callchain = chain;
		r.u.sample.callchain_nr = 4;
		CU_ASSERT_EQUAL(pd_machine_process(m, &r), 0);
		CU_ASSERT_EQUAL(pd_machine_resolve_sample(m, &r, fr, 4), 2);
		CU_ASSERT_STRING_EQUAL(fr[0].sym, "weak_fn");
		CU_ASSERT_EQUAL(fr[0].cpumode, PD_CPUMODE_KERNEL);
		CU_ASSERT_EQUAL(fr[1].cpumode, PD_CPUMODE_USER);
		CU_ASSERT(!fr[1].has_map);
	}
	pd_machine_free(m);
}

/*
 * pd_kallsyms_load() on lines of every shape: the 16-digit fast path and
 * the general one agree, and the file's description is exact.
 */
static const char kallsyms_shapes[] =
	"ffffffff81000000 T _stext\n"
	"FFFFFFFF81000000 T _text\n"		/* upper case: the general way */
	"ffffffff81000000 T _text\n"		/* only the first _text counts */
	"1000 t short_addr\n"
	"ffffffff8100002g t bad_digit\n"	/* not an address: skipped */
	"0ffffffff81000030 t seventeen\n"
	"ffffffffc0001000 t a_fn\t[mod_a]\n"
	"ffffffffc0000800 T a_low\t[mod_a]\n"
	"ffffffffc0003000 d a_data\t[mod_a]\n"	/* data: not the module's text */
	"ffffffffc0002000 t b_fn\t[mod_b]\n"
	"ffffffffc0001800 t a_again\t[mod_a]\n"	/* listed apart: the same module */
	"ffffffffc0004000 t odd]\n"			/* no tab: core */
	"ffffffff81000040 r rodata_sym\n"
	"ffffffff81000050 T $x\n"
	"ffffffff81000060";				/* cut */

/* the table and description of kallsyms_shapes, from fd */
static void check_kallsyms_shapes(int fd)
{
	struct pd_kallsyms_info info;
	struct pd_symtab t;
	uint32_t x;

	pd_symtab_init(&t);
	/*
	 * kept: _stext, both _text, short_addr, seventeen, a_fn, a_low,
	 * a_data, b_fn, a_again and odd]; not: bad_digit, rodata_sym (type r),
	 * $x and the cut line
	 */
	CU_ASSERT_EQUAL(pd_kallsyms_load(fd, &t, &info), 11);
	close(fd);
	CU_ASSERT(info.have_text && info.have_stext);
	CU_ASSERT_EQUAL(info.text, 0xffffffff81000000ULL);
	CU_ASSERT_EQUAL(info.stext, 0xffffffff81000000ULL);
	CU_ASSERT(!info.mods_overflow);
	CU_ASSERT_EQUAL_FATAL(info.nr_mods, 2);
	CU_ASSERT_STRING_EQUAL(info.mods[0].name, "[mod_a]");
	CU_ASSERT_EQUAL(info.mods[0].lo, 0xffffffffc0000800ULL);
	CU_ASSERT_EQUAL(info.mods[0].hi, 0xffffffffc0001800ULL);
	CU_ASSERT_STRING_EQUAL(info.mods[1].name, "[mod_b]");
	CU_ASSERT_EQUAL(info.mods[1].lo, 0xffffffffc0002000ULL);
	CU_ASSERT_EQUAL(info.mods[1].hi, 0xffffffffc0002000ULL);
	/* room for len / 32 + 16 symbols and the sentinel, reserved at once */
	CU_ASSERT_EQUAL(t.nr, 12);
	CU_ASSERT_EQUAL(t.cap, (sizeof(kallsyms_shapes) - 1) / 32 + 16 + 2);
	x = pd_symtab_first(&t);
	CU_ASSERT_EQUAL(pd_symtab_start(&t, x), 0x1000);
	CU_ASSERT_STRING_EQUAL(pd_symtab_name(&t, x), "short_addr");
	x = pd_symtab_next(&t, x);
	CU_ASSERT_STRING_EQUAL(pd_symtab_name(&t, x), "_stext");
	x = pd_symtab_next(&t, x);
	CU_ASSERT_STRING_EQUAL(pd_symtab_name(&t, x), "_text");
	CU_ASSERT_EQUAL(t.n[x].bind, PD_STB_GLOBAL);
	x = pd_symtab_next(&t, x);
	CU_ASSERT_STRING_EQUAL(pd_symtab_name(&t, x), "_text");
	x = pd_symtab_next(&t, x);
	CU_ASSERT_EQUAL(pd_symtab_start(&t, x), 0xffffffff81000030ULL);
	CU_ASSERT_STRING_EQUAL(pd_symtab_name(&t, x), "seventeen");
	CU_ASSERT_EQUAL(t.n[x].bind, PD_STB_LOCAL);
	x = pd_symtab_next(&t, x);
	CU_ASSERT_STRING_EQUAL(pd_symtab_name(&t, x), "a_low\t[mod_a]");
	pd_symtab_free(&t);
	pd_kallsyms_info_free(&info);
}

static void test_kallsyms_parse(void)
{
	char path[PATH_MAX];
	int fd, p[2];

	/* a regular file: mapped */
	snprintf(path, sizeof(path), "%s/kallsyms-parse", tdir);
	write_file(path, kallsyms_shapes);
	fd = open(path, O_RDONLY);
	CU_ASSERT_FATAL(fd >= 0);
	check_kallsyms_shapes(fd);
	/* a pipe (as /proc/kallsyms, of size 0): read */
	CU_ASSERT_FATAL(pipe(p) == 0);
	CU_ASSERT_FATAL(write(p[1], kallsyms_shapes, sizeof(kallsyms_shapes) - 1) ==
			(ssize_t)sizeof(kallsyms_shapes) - 1);
	close(p[1]);
	check_kallsyms_shapes(p[0]);
}

/* a symbol's binding and type, sealed or not */
static uint8_t sym_info(const struct pd_symtab *t, uint32_t x)
{
	return t->seal ? t->seal->info[x - 1] : (uint8_t)(t->n[x].bind << 4 | t->n[x].type);
}

/* two tables with the same symbols in the same order */
static void assert_same_table(const struct pd_symtab *a, const struct pd_symtab *b)
{
	uint32_t x = pd_symtab_first(a), y = pd_symtab_first(b);

	CU_ASSERT_EQUAL(a->live, b->live);
	CU_ASSERT_EQUAL(a->seal != NULL, b->seal != NULL);
	while (x && y) {
		CU_ASSERT_EQUAL(pd_symtab_start(a, x), pd_symtab_start(b, y));
		CU_ASSERT_EQUAL(pd_symtab_end(a, x), pd_symtab_end(b, y));
		CU_ASSERT_STRING_EQUAL(pd_symtab_name(a, x), pd_symtab_name(b, y));
		CU_ASSERT_EQUAL(sym_info(a, x), sym_info(b, y));
		x = pd_symtab_next(a, x);
		y = pd_symtab_next(b, y);
	}
	CU_ASSERT(!x && !y);
}

/*
 * The file at path read both ways pd_kallsyms_load_fixed() can: the
 * table, the module symbols taken out and the description agree; sealed:
 * whether the table ends sealed.  Returns the number of symbols left.
 */
static uint32_t check_fixed_same(const char *path, int sealed)
{
	struct pd_kallsyms_info ia, ib;
	struct pd_symtab a, b;
	long na, nb;
	uint32_t live;
	size_t i;
	int fd;

	pd_symtab_init(&a);
	pd_symtab_init(&b);
	fd = open(path, O_RDONLY);
	CU_ASSERT_FATAL(fd >= 0);
	na = pd_kallsyms_load_fixed(fd, &a, &ia);
	close(fd);
	fd = open(path, O_RDONLY);
	CU_ASSERT_FATAL(fd >= 0);
	nb = pd_kallsyms_load_fixed_ref(fd, &b, &ib);
	close(fd);
	CU_ASSERT_EQUAL(na, nb);
	if (sealed >= 0)
		CU_ASSERT_EQUAL(a.seal != NULL, sealed);
	assert_same_table(&a, &b);
	assert_same_table(&ia.tab_syms, &ib.tab_syms);
	CU_ASSERT_EQUAL(ia.text, ib.text);
	CU_ASSERT_EQUAL(ia.stext, ib.stext);
	CU_ASSERT_EQUAL(ia.have_text, ib.have_text);
	CU_ASSERT_EQUAL(ia.have_stext, ib.have_stext);
	CU_ASSERT_EQUAL(ia.mods_overflow, ib.mods_overflow);
	CU_ASSERT_EQUAL_FATAL(ia.nr_mods, ib.nr_mods);
	for (i = 0; i < ia.nr_mods; i++) {
		CU_ASSERT_STRING_EQUAL(ia.mods[i].name, ib.mods[i].name);
		CU_ASSERT_EQUAL(ia.mods[i].lo, ib.mods[i].lo);
		CU_ASSERT_EQUAL(ia.mods[i].hi, ib.mods[i].hi);
	}
	CU_ASSERT_EQUAL_FATAL(ia.tab_names, ib.tab_names);
	for (i = 0; i < ia.tab_names; i++)
		CU_ASSERT_EQUAL(ia.tab_idx[i], ib.tab_idx[i]);
	live = a.live;
	pd_symtab_free(&a);
	pd_symtab_free(&b);
	pd_kallsyms_info_free(&ia);
	pd_kallsyms_info_free(&ib);
	return live;
}

/*
 * A kallsyms file in address order is sealed at once, without the table's
 * nodes: the same symbols, ends, choices between aliases, module symbols
 * and description as the general way, which files out of order, with a
 * NUL in a name or that do not end sealed still take.
 */
static void test_kallsyms_sealed_at_once(void)
{
	/* aliases of every rank perf gives them, a module's symbols after a gap */
	static const char aliases[] =
		"ffffffff81000000 T _stext\n"
		"ffffffff81000000 T _text\n"
		"ffffffff81001000 t local_first\n"	/* a global alias wins */
		"ffffffff81001000 T global_second\n"
		"ffffffff81002000 W weak_first\n"	/* a weak one loses */
		"ffffffff81002000 t local_second\n"
		"ffffffff81003000 T __two_under\n"	/* fewer underscores win */
		"ffffffff81003000 T _one_under\n"
		"ffffffff81004000 T short\n"		/* the longer name wins */
		"ffffffff81004000 T longer\n"
		"ffffffff81005000 T SyS_read\n"	/* a syscall wrapper alias loses */
		"ffffffff81005000 T ksys_rd\n"
		"ffffffff81006000 T __pfx_fn\n"	/* a name that ends the last one's */
		"ffffffff81006010 T fn\n"
		"ffffffff81006020 T fn\n"		/* three of one start */
		"ffffffff81006020 t fn_b\n"
		"ffffffff81006020 W fn_c\n"
		"ffffffff81007000 D some_data\n"
		"ffffffff81008000 r ro_data\n"		/* not a symbol perf keeps */
		"ffffffff81009000 T _etext\n"
		"ffffffffc0000000 t m_fn\t[mod_m]\n"
		"ffffffffc0000000 t m_alias\t[mod_m]\n"
		"ffffffffc0000100 T m_two\t[mod_m]\n"
		"ffffffffc0004000 t n_fn\t[mod_n]\n";
	/* a '[' without a tab stays with the kernel, and overlaps: a tree */
	static const char overlap[] =
		"ffffffff81000000 T _text\n"
		"ffffffff81000010 t [odd]\n"
		"ffffffff81000020 T after\n";
	/* out of order: the general way */
	static const char unsorted[] =
		"ffffffff81001000 T b\n"
		"ffffffff81000000 T a\n"
		"ffffffff81002000 T c\n";
	static const char nul_name[] = "ffffffff81000000 T a\n" "ffffffff81001000 T b\0c\n";
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/kallsyms-aliases", tdir);
	write_file(path, aliases);
	/* 23 symbols (not ro_data), 9 aliases gone, 3 of the modules' taken out */
	CU_ASSERT_EQUAL(check_fixed_same(path, 1), 23 - 9 - 3);
	snprintf(path, sizeof(path), "%s/kallsyms-overlap", tdir);
	write_file(path, overlap);
	check_fixed_same(path, 0);
	snprintf(path, sizeof(path), "%s/kallsyms-unsorted", tdir);
	write_file(path, unsorted);
	check_fixed_same(path, 1);
	snprintf(path, sizeof(path), "%s/kallsyms-nul", tdir);
	f = fopen(path, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT(fwrite(nul_name, 1, sizeof(nul_name) - 1, f) == sizeof(nul_name) - 1);
	fclose(f);
	check_fixed_same(path, -1);
	snprintf(path, sizeof(path), "%s/kallsyms-parse", tdir);
	write_file(path, kallsyms_shapes);
	check_fixed_same(path, -1);
	/* the unit tests run from the top of the tree */
	check_fixed_same("tests/kallsyms.small", 1);
	/*
	 * the running kernel's, where it lists one (zero addresses without
	 * the right to see them: all aliases)
	 */
	if (access("/proc/kallsyms", R_OK) == 0)
		check_fixed_same("/proc/kallsyms", -1);
}

/*
 * The running kernel's kallsyms copy in a build-id directory (test_kallsyms_copy):
 * "copy_" names, _text at text, mod_fn at mod_fn_addr in [my_mod] unless 0.
 */
static void write_kernel_copy(const char *dir, const char *hex, uint64_t text, uint64_t mod_fn_addr)
{
	char path[PATH_MAX], text_buf[512];
	int n;

	snprintf(path, sizeof(path), "%s", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/[kernel.kallsyms]", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/[kernel.kallsyms]/%s", dir, hex);
	mkdir(path, 0755);
	n = snprintf(text_buf, sizeof(text_buf),
		     "%016llx T _stext\n%016llx T _text\n%016llx T copy_core_fn\n"
		     "%016llx T copy_core_last\n",
		     (unsigned long long)text, (unsigned long long)text,
		     (unsigned long long)text + 0x10, (unsigned long long)text + 0x800);
	if (mod_fn_addr)
		snprintf(text_buf + n, sizeof(text_buf) - (size_t)n, "%016llx t copy_mod_fn\t[my_mod]\n",
			 (unsigned long long)mod_fn_addr);
	snprintf(path, sizeof(path), "%s/[kernel.kallsyms]/%s/kallsyms", dir, hex);
	write_file(path, text_buf);
}

#define COPY_TEXT 0xffffffff81000000ULL
#define COPY_MOD 0xffffffffc0000000ULL

/*
 * The symbol a machine gives a kernel address (into sym, "" for none) after
 * a recording of the running kernel (build id id) with a kernel map whose
 * reference symbol is at ref_text and, if with_mod, a map of [my_mod].
 */
static void copy_resolve(const char *bid_dir, const uint8_t *id, int id_size, uint64_t ref_text,
			 bool with_mod, bool header, uint64_t addr, char *sym, size_t size)
{
	static char kname[] = "[kernel.kallsyms]";
	struct pd_sym_opts o = PD_SYM_OPTS_INIT;
	struct pd_feat_build_id bid;
	struct pd_features feat;
	struct pd_sym_frame f;
	struct pd_machine *m;
	struct pd_record r;

	o.buildid_dir = bid_dir;
	m = new_machine(&o, NULL);
	if (header) {
		/* the build-id table: the copy is read ahead, as perf record's files have it */
		memset(&feat, 0, sizeof(feat));
		memset(&bid, 0, sizeof(bid));
		bid.misc = PD_CPUMODE_KERNEL;
		bid.pid = -1;
		memcpy(bid.id, id, (size_t)id_size);
		bid.size = (uint8_t)id_size;
		bid.filename = kname;
		feat.build_ids.ids = &bid;
		feat.build_ids.nr = 1;
		CU_ASSERT_EQUAL(pd_machine_add_features(m, &feat), 0);
	}
	memset(&r, 0, sizeof(r));
	r.type = PD_REC_MMAP2;
	r.misc = PD_CPUMODE_KERNEL | PD_MISC_MMAP_BUILD_ID;
	r.u.mmap.pid = (uint32_t)-1;
	r.u.mmap.start = COPY_TEXT;
	r.u.mmap.len = 0x1000000;
	r.u.mmap.pgoff = ref_text;
	r.u.mmap.has_build_id = true;
	r.u.mmap.build_id_size = (uint8_t)id_size;
	memcpy(r.u.mmap.build_id, id, (size_t)id_size);
	r.u.mmap.filename = "[kernel.kallsyms]_text";
	feed(m, &r);
	if (with_mod)
		mmap2(m, (uint32_t)-1, 0, COPY_MOD, 0x4000, 0, 0, "/lib/modules/x/my-mod.ko",
		      PD_CPUMODE_KERNEL);
	pd_machine_resolve(m, 1, 1, PD_CPUMODE_KERNEL, addr, &f);
	snprintf(sym, size, "%s", f.sym ? f.sym : "");
	pd_machine_free(m);
}

/*
 * The running kernel's symbols come from its copy in the build-id cache
 * when the copy describes the recording (same _text, every recorded
 * module's text inside its map), else from /proc/kallsyms as before.
 */
static void test_kallsyms_copy(void)
{
	char dir[PATH_MAX], hex[41], sym[256], proc_sym[256];
	uint8_t id[20];
	int n = pd_kernel_build_id(id, sizeof(id)), h;
	struct pd_sym_opts o = PD_SYM_OPTS_INIT;
	struct pd_sym_frame f;
	struct pd_machine *m;

	if (n <= 0 || access("/proc/kallsyms", R_OK))
		return;		/* no running kernel's build id or kallsyms to test against */
	for (h = 0; h < n; h++)
		snprintf(hex + 2 * h, 3, "%02x", id[h]);
	snprintf(dir, sizeof(dir), "%s/bid-copy", tdir);

	/* a copy that describes the recording is used, read ahead or not */
	write_kernel_copy(dir, hex, COPY_TEXT, COPY_MOD + 0x100);
	copy_resolve(dir, id, n, COPY_TEXT, true, false, COPY_TEXT + 0x14, sym, sizeof(sym));
	CU_ASSERT_STRING_EQUAL(sym, "copy_core_fn");
	copy_resolve(dir, id, n, COPY_TEXT, true, true, COPY_TEXT + 0x14, sym, sizeof(sym));
	CU_ASSERT_STRING_EQUAL(sym, "copy_core_fn");
	copy_resolve(dir, id, n, COPY_TEXT, true, true, COPY_MOD + 0x104, sym, sizeof(sym));
	CU_ASSERT_STRING_EQUAL(sym, "copy_mod_fn");
	/* a module the copy lists but the recording does not map is no obstacle */
	copy_resolve(dir, id, n, COPY_TEXT, false, false, COPY_TEXT + 0x14, sym, sizeof(sym));
	CU_ASSERT_STRING_EQUAL(sym, "copy_core_fn");

	/*
	 * Any other copy is not: the answer is /proc/kallsyms's, the same as
	 * a machine told to use /proc/kallsyms gives (whatever this kernel's
	 * symbols are), and never a name of the copy.
	 */
	o.kallsyms = "/proc/kallsyms";
	m = new_machine(&o, NULL);
	mmap2(m, (uint32_t)-1, 0, COPY_TEXT, 0x1000000, COPY_TEXT, 0, "[kernel.kallsyms]_text",
	      PD_CPUMODE_KERNEL);
	pd_machine_resolve(m, 1, 1, PD_CPUMODE_KERNEL, COPY_TEXT + 0x14, &f);
	snprintf(proc_sym, sizeof(proc_sym), "%s", f.sym ? f.sym : "");
	pd_machine_free(m);
	CU_ASSERT(strncmp(proc_sym, "copy_", 5));

	/* _text elsewhere: saved at another boot */
	write_kernel_copy(dir, hex, COPY_TEXT + 0x200000, COPY_MOD + 0x100);
	copy_resolve(dir, id, n, COPY_TEXT, true, false, COPY_TEXT + 0x14, sym, sizeof(sym));
	CU_ASSERT_STRING_EQUAL(sym, proc_sym);
	copy_resolve(dir, id, n, COPY_TEXT, true, true, COPY_TEXT + 0x14, sym, sizeof(sym));
	CU_ASSERT_STRING_EQUAL(sym, proc_sym);
	/* the module's text outside its recorded map */
	write_kernel_copy(dir, hex, COPY_TEXT, COPY_MOD + 0x4000);
	copy_resolve(dir, id, n, COPY_TEXT, true, false, COPY_TEXT + 0x14, sym, sizeof(sym));
	CU_ASSERT_STRING_EQUAL(sym, proc_sym);
	copy_resolve(dir, id, n, COPY_TEXT, true, true, COPY_TEXT + 0x14, sym, sizeof(sym));
	CU_ASSERT_STRING_EQUAL(sym, proc_sym);
	write_kernel_copy(dir, hex, COPY_TEXT, COPY_MOD - 0x1000);
	copy_resolve(dir, id, n, COPY_TEXT, true, false, COPY_TEXT + 0x14, sym, sizeof(sym));
	CU_ASSERT_STRING_EQUAL(sym, proc_sym);
	/* a recorded module the copy does not list: loaded after it was saved */
	write_kernel_copy(dir, hex, COPY_TEXT, 0);
	copy_resolve(dir, id, n, COPY_TEXT, true, false, COPY_TEXT + 0x14, sym, sizeof(sym));
	CU_ASSERT_STRING_EQUAL(sym, proc_sym);
	/* nothing in the recording to check the copy against: no reference address */
	write_kernel_copy(dir, hex, COPY_TEXT, COPY_MOD + 0x100);
	copy_resolve(dir, id, n, 0, true, false, COPY_TEXT + 0x14, sym, sizeof(sym));
	CU_ASSERT(strncmp(sym, "copy_", 5));
}

/* pd_machine_sample_stack(): the walk every symbolized output shares */
static void test_sample_stack(void)
{
	static const uint64_t chain[] = {
		PD_CONTEXT_KERNEL, 0xffffffff81000310ULL, 0xffffffff81000400ULL,
		PD_CONTEXT_USER, 0x1234, 0x5678,
	};
	static const uint64_t hv_chain[] = { PD_CONTEXT_HV, 0x10, PD_CONTEXT_KERNEL, 0x20 };
	static const uint64_t bad_chain[] = { PD_CONTEXT_KERNEL, 0x30, PD_CONTEXT_GUEST, 0x40 };
	static const uint64_t markers_only[] = { PD_CONTEXT_KERNEL, PD_CONTEXT_USER };
	struct pd_sym_opts o = PD_SYM_OPTS_INIT;
	struct pd_sym_ip st[8];
	struct pd_machine *m;
	struct pd_record r;

	o.no_kernel = true;
	m = new_machine(&o, NULL);
	memset(&r, 0, sizeof(r));
	r.type = PD_REC_SAMPLE;
	r.misc = PD_CPUMODE_KERNEL;
	r.decoded = true;
	r.u.sample.sample_type = PD_SAMPLE_TID | PD_SAMPLE_CALLCHAIN | PD_SAMPLE_IP;
	r.u.sample.ip = 0xffffffff81000999ULL;
	r.u.sample.callchain = chain;
	r.u.sample.callchain_nr = 6;
	/* markers switch the mode and are not frames */
	memset(st, 0xff, sizeof(st));
	CU_ASSERT_EQUAL(pd_machine_sample_stack(m, &r, PD_STACK_REPORT, st, 8), 4);
	/* recorded entries: no inline frames for them (pd_machine_inline_frames()) */
	CU_ASSERT_FALSE(st[0].unwound);
	CU_ASSERT_FALSE(st[3].unwound);
	CU_ASSERT_EQUAL(st[0].ip, 0xffffffff81000310ULL);
	CU_ASSERT_EQUAL(st[0].cpumode, PD_CPUMODE_KERNEL);
	CU_ASSERT_EQUAL(st[1].cpumode, PD_CPUMODE_KERNEL);
	CU_ASSERT_EQUAL(st[2].ip, 0x1234);
	CU_ASSERT_EQUAL(st[2].cpumode, PD_CPUMODE_USER);
	CU_ASSERT_EQUAL(st[3].ip, 0x5678);
	/* at most max entries, the innermost ones */
	CU_ASSERT_EQUAL(pd_machine_sample_stack(m, &r, PD_STACK_REPORT, st, 3), 3);
	CU_ASSERT_EQUAL(st[2].ip, 0x1234);
	CU_ASSERT_EQUAL(pd_machine_sample_stack(m, &r, PD_STACK_REPORT, st, 0), 0);
	/* frames before any marker are user mode; HV has its own mode */
	r.u.sample.callchain = hv_chain;
	r.u.sample.callchain_nr = 4;
	CU_ASSERT_EQUAL(pd_machine_sample_stack(m, &r, PD_STACK_REPORT, st, 8), 2);
	CU_ASSERT_EQUAL(st[0].cpumode, PD_CPUMODE_HYPERVISOR);
	CU_ASSERT_EQUAL(st[1].cpumode, PD_CPUMODE_KERNEL);
	/* an unknown marker drops the chain: the sample ip in its own mode */
	r.u.sample.callchain = bad_chain;
	memset(st, 0xff, sizeof(st));
	CU_ASSERT_EQUAL(pd_machine_sample_stack(m, &r, PD_STACK_REPORT, st, 8), 1);
	CU_ASSERT_EQUAL(st[0].ip, 0xffffffff81000999ULL);
	CU_ASSERT_FALSE(st[0].unwound);
	CU_ASSERT_EQUAL(st[0].cpumode, PD_CPUMODE_KERNEL);
	/* perf script prints nothing for it */
	CU_ASSERT_EQUAL(pd_machine_sample_stack(m, &r, PD_STACK_SCRIPT, st, 8), 0);
	/* perf's JSON skips the marker and keeps the mode, with or without a machine */
	CU_ASSERT_EQUAL(pd_machine_sample_stack(NULL, &r, PD_STACK_CONVERT, st, 8), 2);
	CU_ASSERT_EQUAL(st[0].ip, 0x30);
	CU_ASSERT_EQUAL(st[1].ip, 0x40);
	CU_ASSERT_EQUAL(st[1].cpumode, PD_CPUMODE_KERNEL);
	CU_ASSERT(!st[1].unwound);
	/* so does a chain of markers only, or no callchain at all */
	r.u.sample.callchain = markers_only;
	r.u.sample.callchain_nr = 2;
	CU_ASSERT_EQUAL(pd_machine_sample_stack(m, &r, PD_STACK_REPORT, st, 8), 1);
	CU_ASSERT_EQUAL(st[0].ip, 0xffffffff81000999ULL);
	r.u.sample.sample_type = PD_SAMPLE_IP;
	r.misc = PD_CPUMODE_USER;
	CU_ASSERT_EQUAL(pd_machine_sample_stack(m, &r, PD_STACK_REPORT, st, 8), 1);
	CU_ASSERT_EQUAL(st[0].cpumode, PD_CPUMODE_USER);
	/* but perf script prints nothing for markers only, its ip without a chain */
	r.u.sample.sample_type |= PD_SAMPLE_CALLCHAIN;
	CU_ASSERT_EQUAL(pd_machine_sample_stack(m, &r, PD_STACK_SCRIPT, st, 8), 0);
	CU_ASSERT_EQUAL(pd_machine_sample_stack(m, &r, PD_STACK_CONVERT, st, 8), 0);
	r.u.sample.sample_type = PD_SAMPLE_IP;
	CU_ASSERT_EQUAL(pd_machine_sample_stack(m, &r, PD_STACK_SCRIPT, st, 8), 1);
	CU_ASSERT_EQUAL(st[0].ip, 0xffffffff81000999ULL);
	CU_ASSERT_EQUAL(pd_machine_sample_stack(NULL, &r, PD_STACK_CONVERT, st, 8), 1);
	CU_ASSERT_EQUAL(st[0].cpumode, PD_CPUMODE_USER);
	/* anything but a decoded sample has no stack */
	r.decoded = false;
	CU_ASSERT_EQUAL(pd_machine_sample_stack(m, &r, PD_STACK_REPORT, st, 8), 0);
	r.decoded = true;
	r.type = PD_REC_COMM;
	CU_ASSERT_EQUAL(pd_machine_sample_stack(m, &r, PD_STACK_REPORT, st, 8), 0);
	pd_machine_free(m);
}

static void test_perf_map(void)
{
	struct pd_sym_opts o = PD_SYM_OPTS_INIT;
	struct pd_machine *m;
	struct pd_sym_frame f;
	char root[320], path[400];

	/* under a symfs root, so the test never writes the real /tmp/perf-*.map */
	snprintf(root, sizeof(root), "%s/jitroot", tdir);
	mkdir(root, 0755);
	snprintf(path, sizeof(path), "%s/tmp", root);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/tmp/perf-4242.map", root);
	write_file(path, "7f0000001000 40 jit_one\n"
			 "0x7f0000001040 20 jit two with spaces\n"
			 "7f0000002000 0 zero_size\n"
			 "bad line\n");
	o.symfs = root;
	m = new_machine(&o, NULL);
	mmap2(m, 4242, 4242, 0x7f0000000000ULL, 0x10000, 0, 7, "//anon", PD_CPUMODE_USER);
	pd_machine_resolve(m, 4242, 4242, PD_CPUMODE_USER, 0x7f0000001010ULL, &f);
	CU_ASSERT_STRING_EQUAL(f.sym, "jit_one");
	pd_machine_resolve(m, 4242, 4242, PD_CPUMODE_USER, 0x7f0000001050ULL, &f);
	CU_ASSERT_STRING_EQUAL(f.sym, "jit two with spaces");
	pd_machine_resolve(m, 4242, 4242, PD_CPUMODE_USER, 0x7f0000002000ULL, &f);
	CU_ASSERT_STRING_EQUAL(f.sym, "zero_size");
	/* a zero-size entry covers its start only */
	pd_machine_resolve(m, 4242, 4242, PD_CPUMODE_USER, 0x7f0000002001ULL, &f);
	CU_ASSERT_PTR_NULL(f.sym);
	CU_ASSERT_STRING_EQUAL(f.dso_short, "[JIT] tid 4242");
	pd_machine_free(m);
}

/*
 * The frame cache: entries of a process hit, another process mapping the
 * same DSO elsewhere misses them but shares the sites (symbol and the
 * caller's site words), and forgetting clears the caller's words.
 */
static void test_frame_cache(void)
{
	struct pd_sym_opts o = PD_SYM_OPTS_INIT;
	struct pd_machine *m;
	struct pd_frame_cache *fc;
	struct pd_frame_ref r[3];
	struct pd_sym_ip st[3] = {
		{ 0x5500001010ULL, PD_CPUMODE_USER, false },
		{ 0x5500001050ULL, PD_CPUMODE_USER, false },
		{ 0x5500001010ULL, PD_CPUMODE_USER, false },
	};
	const struct pd_sym_ip other = { 0x5500001030ULL, PD_CPUMODE_USER, false };
	char root[320], path[400];

	snprintf(root, sizeof(root), "%s/fcroot", tdir);
	mkdir(root, 0755);
	snprintf(path, sizeof(path), "%s/tmp", root);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/tmp/perf-4242.map", root);
	write_file(path, "7f0000001000 40 jit_one\n7f0000001040 20 jit_two\n");
	o.symfs = root;
	m = new_machine(&o, NULL);
	/* one file, two processes, two places: addr = ip - start + pgoff */
	mmap2(m, 4242, 4242, 0x5500000000ULL, 0x10000, 0x7f0000000000ULL, 5,
	      "/tmp/perf-4242.map", PD_CPUMODE_USER);
	mmap2(m, 4343, 4343, 0x6600000000ULL, 0x10000, 0x7f0000000000ULL, 5,
	      "/tmp/perf-4242.map", PD_CPUMODE_USER);
	CU_ASSERT_EQUAL_FATAL(pd_frame_cache_new(m, PD_FRAME_CACHE_FRAMES, &fc), 0);

	/* loading a DSO moves every version: what was resolved with it is not kept */
	CU_ASSERT_EQUAL(pd_frame_cache_stack(fc, 4242, 4242, &other, 1, r), 1);
	CU_ASSERT_STRING_EQUAL(r[0].frame->sym, "jit_one");
	r[0].value[0] = 10;
	CU_ASSERT_EQUAL(pd_frame_cache_stack(fc, 4242, 4242, &other, 1, r), 1);
	CU_ASSERT_EQUAL(r[0].value[0], 0);

	CU_ASSERT_EQUAL(pd_frame_cache_stack(fc, 4242, 4242, st, 3, r), 3);
	CU_ASSERT_STRING_EQUAL(r[0].frame->sym, "jit_one");
	CU_ASSERT_EQUAL(r[0].frame->sym_off, 0x10);
	CU_ASSERT_STRING_EQUAL(r[1].frame->sym, "jit_two");
	CU_ASSERT_EQUAL(r[0].value[0], 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r[0].site);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r[1].site);
	CU_ASSERT_EQUAL(r[0].site[0], 0);
	/*
	 * The same entry twice in a stack: the caller has not set its words
	 * yet, so the second is resolved again, beside the first.
	 */
	CU_ASSERT_PTR_NOT_EQUAL(r[2].value, r[0].value);
	CU_ASSERT_EQUAL(r[2].value[0], 0);
	CU_ASSERT_STRING_EQUAL(r[2].frame->sym, "jit_one");
	r[0].value[0] = 11;
	r[0].site[0] = 21;
	r[1].value[0] = 12;
	r[1].site[0] = 22;

	/* a repeat: the entries with the caller's words, no site */
	CU_ASSERT_EQUAL(pd_frame_cache_stack(fc, 4242, 4242, st, 2, r), 2);
	CU_ASSERT_EQUAL(r[0].value[0], 11);
	CU_ASSERT_EQUAL(r[1].value[0], 12);
	CU_ASSERT_PTR_NULL(r[0].site);
	CU_ASSERT_STRING_EQUAL(r[1].frame->sym, "jit_two");

	/* another process: new entries, the same sites */
	st[0].ip = 0x6600001010ULL;
	st[1].ip = 0x6600001050ULL;
	CU_ASSERT_EQUAL(pd_frame_cache_stack(fc, 4343, 4343, st, 2, r), 2);
	CU_ASSERT_EQUAL(r[0].value[0], 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r[0].site);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r[1].site);
	CU_ASSERT_EQUAL(r[0].site[0], 21);
	CU_ASSERT_EQUAL(r[1].site[0], 22);
	CU_ASSERT_STRING_EQUAL(r[0].frame->sym, "jit_one");
	CU_ASSERT_EQUAL(r[0].frame->ip, 0x6600001010ULL);
	CU_ASSERT_EQUAL(r[0].frame->map_start, 0x6600000000ULL);
	CU_ASSERT_EQUAL(r[0].frame->addr, 0x7f0000001010ULL);

	/* an unwound frame has inline frames: a site of its own */
	st[0].unwound = true;
	CU_ASSERT_EQUAL(pd_frame_cache_stack(fc, 4343, 4343, st, 1, r), 1);
	CU_ASSERT_EQUAL(r[0].value[0], 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r[0].site);
	CU_ASSERT_EQUAL(r[0].site[0], 0);
	CU_ASSERT_TRUE(r[0].frame->unwound);
	st[0].unwound = false;

	/* a map change: the process's entries are gone, its sites are not */
	mmap2(m, 4343, 4343, 0x6600100000ULL, 0x1000, 0, 5, "//anon", PD_CPUMODE_USER);
	r[1].value[0] = 0;
	CU_ASSERT_EQUAL(pd_frame_cache_stack(fc, 4343, 4343, st, 1, r), 1);
	CU_ASSERT_EQUAL(r[0].value[0], 0);
	CU_ASSERT_EQUAL(r[0].site[0], 21);

	/* forgotten: the caller's words are {0, 0} again, the symbols stay */
	pd_frame_cache_forget(fc);
	st[0].ip = 0x5500001010ULL;
	CU_ASSERT_EQUAL(pd_frame_cache_stack(fc, 4242, 4242, st, 1, r), 1);
	CU_ASSERT_EQUAL(r[0].value[0], 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r[0].site);
	CU_ASSERT_EQUAL(r[0].site[0], 0);
	CU_ASSERT_STRING_EQUAL(r[0].frame->sym, "jit_one");
	pd_frame_cache_free(fc);

	/* without a machine a frame is its address */
	CU_ASSERT_EQUAL_FATAL(pd_frame_cache_new(NULL, 0, &fc), 0);
	CU_ASSERT_EQUAL(pd_frame_cache_stack(fc, 1, 1, st, 1, r), 1);
	CU_ASSERT_EQUAL(r[0].frame->ip, 0x5500001010ULL);
	CU_ASSERT_FALSE(r[0].frame->has_map);
	CU_ASSERT_PTR_NULL(r[0].site);
	/* nothing kept: resolved again */
	CU_ASSERT_EQUAL(pd_frame_cache_stack(fc, 1, 1, st, 1, r), 1);
	CU_ASSERT_PTR_NOT_NULL(r[0].frame);
	r[0].value[0] = 5;
	CU_ASSERT_EQUAL(pd_frame_cache_stack(fc, 1, 1, st, 1, r), 1);
	CU_ASSERT_EQUAL(r[0].value[0], 5);
	CU_ASSERT_PTR_NULL(r[0].frame);
	pd_frame_cache_free(fc);
	CU_ASSERT_EQUAL(pd_frame_cache_new(NULL, 0x100, &fc), PD_STATUS_MALFORMED);
	CU_ASSERT_EQUAL(errno, EINVAL);
	pd_machine_free(m);
}

static void test_elf_pie_nopie(void)
{
	static const struct { const char *name, *flags; } v[] = {
		{ "tiny-pie", "-fPIE -pie" },
		{ "tiny-nopie", "-fno-pie -no-pie" },
		{ "tiny.so", "-shared -fPIC" },
	};
	size_t i;

	if (!have_gcc) {
		fprintf(stderr, "(gcc missing: ELF tests skipped) ");
		return;
	}
	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		struct pd_sym_opts o = PD_SYM_OPTS_INIT;
		struct pd_machine *m;
		struct pd_sym_frame f;
		char path[PATH_MAX];
		uint64_t off, soff, ssize, base = 0x555500000000ULL;

		CU_ASSERT_FATAL(compile(v[i].name, v[i].flags, tiny_src));
		snprintf(path, sizeof(path), "%s/%s", tdir, v[i].name);
		CU_ASSERT_FATAL(elf_sym_off(path, "beta", &off, &soff, &ssize, NULL, NULL));
		m = new_machine(&o, NULL);
		/* the text segment as the loader maps it */
		mmap2(m, 50, 50, base, (ssize + 4095) & ~4095ULL, soff & ~4095ULL, 5, path,
		      PD_CPUMODE_USER);
		pd_machine_resolve(m, 50, 50, PD_CPUMODE_USER, base + (off - (soff & ~4095ULL)) + 3,
				   &f);
		CU_ASSERT_PTR_NOT_NULL(f.sym);
		if (f.sym)
			CU_ASSERT_STRING_EQUAL(f.sym, "beta");
		CU_ASSERT_EQUAL(f.sym_off, 3);
		CU_ASSERT_STRING_EQUAL(f.dso_short, v[i].name);
		CU_ASSERT_STRING_EQUAL(f.dso_name, path);
		pd_machine_free(m);
	}
}

#if defined(__x86_64__)
#include <ucontext.h>

/*
 * The unwinder on this very process: the registers of uw_inner() taken by
 * getcontext(), a copy of the stack above them, and this process's
 * executable mappings fed as MMAP2 records.  The unwound stack must lead
 * through uw_outer() to this test, as the compiler laid it out.
 */
struct uw_capture {
	uint64_t regs[20];	/* perf's x86_64 registers of mask 0xff0fff, packed */
	uint8_t stack[8192];
	uint64_t size;
};

/*
 * The stack above the captured stack pointer, up to the end of its
 * mapping: live frames of the callers, read byte by byte without the
 * sanitizer (their red zones are part of the copy).
 */
static void __attribute__((noinline, no_sanitize_address)) uw_copy_stack(struct uw_capture *c)
{
	const volatile uint8_t *from;
	uint64_t k;
	uint64_t sp = c->regs[7], top = 0;
	char line[512];
	FILE *f = fopen("/proc/self/maps", "re");

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	while (fgets(line, sizeof(line), f)) {
		unsigned long long lo, hi;

		if (sscanf(line, "%llx-%llx", &lo, &hi) == 2 && lo <= sp && sp < hi)
			top = hi;
	}
	fclose(f);
	c->size = top - sp < sizeof(c->stack) ? top - sp : sizeof(c->stack);
	c->size &= ~7ULL;
	from = (const volatile uint8_t *)(uintptr_t)sp;
	for (k = 0; k < c->size; k++)
		c->stack[k] = from[k];
}

static void __attribute__((noinline)) uw_inner(struct uw_capture *c)
{
	/* perf's order: ax bx cx dx si di bp sp ip flags cs ss, then r8-r15 */
	static const int greg[20] = {
		REG_RAX, REG_RBX, REG_RCX, REG_RDX, REG_RSI, REG_RDI, REG_RBP, REG_RSP,
		REG_RIP, REG_EFL, -1, -1,
		REG_R8, REG_R9, REG_R10, REG_R11, REG_R12, REG_R13, REG_R14, REG_R15,
	};
	static ucontext_t uc;
	int i;

	if (getcontext(&uc) != 0)
		return;
	for (i = 0; i < 20; i++)
		c->regs[i] = greg[i] >= 0 ? (uint64_t)uc.uc_mcontext.gregs[greg[i]] : 0;
	uw_copy_stack(c);
	__asm__ volatile("" ::: "memory");
}

static void __attribute__((noinline)) uw_outer(struct uw_capture *c)
{
	uw_inner(c);
	__asm__ volatile("" ::: "memory");
}

static void uw_feed_maps(struct pd_machine *m)
{
	char line[4096 + 128], path[4096];
	FILE *f = fopen("/proc/self/maps", "re");

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	while (fgets(line, sizeof(line), f)) {
		unsigned long long lo, hi, off;
		char perm[8];

		/*
		 * every file-backed map, as perf record --call-graph dwarf
		 * records them (mmap_data): perf's unwinder takes a DSO's
		 * lowest map for where it is loaded
		 */
		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %4095s", &lo, &hi, perm, &off,
			   path) == 5 && path[0] == '/')
			mmap2(m, 77, 77, lo, hi - lo, off,
			      (perm[0] == 'r' ? 1 : 0) | (perm[1] == 'w' ? 2 : 0) |
			      (perm[2] == 'x' ? 4 : 0), path, PD_CPUMODE_USER);
	}
	fclose(f);
}

static size_t uw_stack(struct pd_machine *m, struct pd_record *r, struct pd_sym_frame *fr)
{
	return pd_machine_resolve_sample(m, r, fr, PD_SYM_MAX_STACK);
}

static void test_unwind_self(void)
{
	static struct uw_capture c;
	static struct pd_sym_frame fr[PD_SYM_MAX_STACK];
	struct pd_sym_opts o = PD_SYM_OPTS_INIT;
	struct pd_sym_stats st;
	struct pd_machine *m;
	struct pd_record r;
	size_t n, i;
	bool inner = false, outer = false, self = false;
	struct diag_recorder dr;
	char want[128];

	uw_outer(&c);
	o.no_kernel = true;
	m = new_machine(&o, &dr);
	uw_feed_maps(m);
	memset(&r, 0, sizeof(r));
	r.type = PD_REC_SAMPLE;
	r.misc = PD_CPUMODE_USER;
	r.decoded = true;
	r.u.sample.sample_type = PD_SAMPLE_TID | PD_SAMPLE_IP | PD_SAMPLE_CALLCHAIN |
				 PD_SAMPLE_REGS_USER | PD_SAMPLE_STACK_USER;
	r.u.sample.pid = 77;
	r.u.sample.tid = 77;
	r.u.sample.ip = c.regs[8];
	r.u.sample.regs_user.abi = 2;
	r.u.sample.regs_user.mask = 0xff0fffULL;
	r.u.sample.regs_user.nr = 20;
	r.u.sample.regs_user.regs = c.regs;
	r.u.sample.stack_size = c.size;
	r.u.sample.stack_dyn_size = c.size;
	r.u.sample.stack_data = c.stack;

	n = uw_stack(m, &r, fr);
	CU_ASSERT(n >= 3);
	CU_ASSERT_EQUAL(fr[0].ip, c.regs[8]);
	CU_ASSERT(fr[0].unwound);
	for (i = 0; i < n; i++) {
		if (!fr[i].sym)
			continue;
		/* the compiler may name them uw_inner.constprop.0 and so on */
		inner |= i == 0 && !strncmp(fr[i].sym, "uw_inner", 8);
		outer |= !strncmp(fr[i].sym, "uw_outer", 8);
		self |= !strcmp(fr[i].sym, "test_unwind_self");
	}
	CU_ASSERT(inner);
	CU_ASSERT(outer);
	CU_ASSERT(self);
	/* the same sample again: the result cache answers */
	CU_ASSERT_EQUAL(uw_stack(m, &r, fr), n);
	pd_machine_stats(m, &st);
	CU_ASSERT_EQUAL(st.unwound_samples, 2);
	CU_ASSERT_EQUAL(st.unwind_cache_hits, 1);
	CU_ASSERT_EQUAL(st.unwind_errors, 0);

	CU_ASSERT_EQUAL(dr.n, 0);

	/* a dyn_size beyond the copy: no user frames, one error */
	r.offset = 0x2a0;
	r.index = 5;
	r.u.sample.stack_dyn_size = c.size + 8;
	CU_ASSERT_EQUAL(uw_stack(m, &r, fr), 0);
	/* registers that do not match the mask */
	r.offset = 0x310;
	r.index = 6;
	r.u.sample.stack_dyn_size = c.size;
	r.u.sample.regs_user.nr = 19;
	CU_ASSERT_EQUAL(uw_stack(m, &r, fr), 0);
	/* no stack pointer among them (the values shift: the sp is gone) */
	r.offset = 0x380;
	r.index = 7;
	r.u.sample.regs_user.mask = 0xff0f7fULL;
	r.u.sample.regs_user.nr = 19;
	CU_ASSERT_EQUAL(uw_stack(m, &r, fr), 0);
	pd_machine_stats(m, &st);
	CU_ASSERT_EQUAL(st.unwind_errors, 3);
	/* one diagnostic per kind, at the first sample of that kind */
	CU_ASSERT_EQUAL_FATAL(dr.n, 3);
	CU_ASSERT_EQUAL(dr.seen[0].code, PD_UNWIND_DYN_SIZE);
	CU_ASSERT_STRING_EQUAL(pd_code_id(dr.seen[0].code), "PD851");
	CU_ASSERT_EQUAL(dr.seen[0].severity, PD_SEV_NOTE);
	CU_ASSERT_EQUAL(dr.seen[0].offset, 0x2a0);
	CU_ASSERT_EQUAL(dr.seen[0].record_index, 5);
	CU_ASSERT_EQUAL(dr.seen[0].record_type, PD_REC_SAMPLE);
	snprintf(want, sizeof(want), "pid=77 tid=77 dyn_size=%llu stack_size=%llu",
		 (unsigned long long)c.size + 8, (unsigned long long)c.size);
	CU_ASSERT_STRING_EQUAL(dr.seen[0].detail, want);
	CU_ASSERT_EQUAL(dr.seen[1].code, PD_UNWIND_REGS);
	CU_ASSERT_EQUAL(dr.seen[1].offset, 0x310);
	CU_ASSERT_EQUAL(dr.seen[1].record_index, 6);
	CU_ASSERT_STRING_EQUAL(dr.seen[1].detail, "pid=77 tid=77 regs=19 mask=0xff0fff");
	CU_ASSERT_EQUAL(dr.seen[2].code, PD_UNWIND_NO_SP);
	CU_ASSERT_EQUAL(dr.seen[2].offset, 0x380);
	CU_ASSERT_EQUAL(dr.seen[2].record_index, 7);
	CU_ASSERT_STRING_EQUAL(dr.seen[2].detail, "pid=77 tid=77 mask=0xff0f7f");
	/* more samples of a kind already reported: counted, not reported again */
	r.u.sample.regs_user.mask = 0xff0fffULL;
	r.u.sample.regs_user.nr = 20;
	r.u.sample.stack_dyn_size = c.size + 8;
	CU_ASSERT_EQUAL(uw_stack(m, &r, fr), 0);
	CU_ASSERT_EQUAL(uw_stack(m, &r, fr), 0);
	CU_ASSERT_EQUAL(dr.n, 3);
	CU_ASSERT_EQUAL(pd_machine_diag_count(m, PD_UNWIND_DYN_SIZE), 3);
	CU_ASSERT_EQUAL(pd_machine_diag_count(m, PD_UNWIND_REGS), 1);
	CU_ASSERT_EQUAL(pd_machine_diag_count(m, PD_UNWIND_NO_SP), 1);
	CU_ASSERT_EQUAL(pd_machine_diag_count(m, PD_UNWIND_LOOP), 0);
	pd_machine_stats(m, &st);
	CU_ASSERT_EQUAL(st.unwind_errors, 5);
	CU_ASSERT_EQUAL(st.notes, 3);
	r.u.sample.stack_dyn_size = c.size;
	pd_machine_free(m);

	/* --max-stack 2: the sampled ip and one caller */
	o.max_stack = 2;
	m = new_machine(&o, NULL);
	uw_feed_maps(m);
	r.u.sample.regs_user.mask = 0xff0fffULL;
	r.u.sample.regs_user.nr = 20;
	CU_ASSERT_EQUAL(uw_stack(m, &r, fr), 2);
	CU_ASSERT_PTR_NOT_NULL(fr[1].sym);
	if (fr[1].sym)
		CU_ASSERT_NSTRING_EQUAL(fr[1].sym, "uw_outer", 8);
	pd_machine_free(m);

	/*
	 * A file without ELF image mapped over the page of the sampled ip
	 * after a first walk: the module found there before no longer
	 * holds, and the walk stops at its first frame (no CFI to step
	 * over it).  What was found in agreement with the old maps must
	 * not answer for the new ones.
	 */
	o.max_stack = PD_SYM_MAX_STACK;
	m = new_machine(&o, NULL);
	uw_feed_maps(m);
	CU_ASSERT_EQUAL(uw_stack(m, &r, fr), n);
	{
		char path[] = "/tmp/pd-uwremap.XXXXXX";
		static const uint8_t zeros[4096];
		int fd = mkstemp(path);

		CU_ASSERT_FATAL(fd >= 0);
		CU_ASSERT_FATAL(write(fd, zeros, sizeof(zeros)) == (ssize_t)sizeof(zeros));
		close(fd);
		mmap2(m, 77, 77, c.regs[8] & ~4095ULL, 4096, 0, 5, path, PD_CPUMODE_USER);
		CU_ASSERT_EQUAL(uw_stack(m, &r, fr), 1);
		CU_ASSERT_EQUAL(fr[0].ip, c.regs[8]);
		unlink(path);
	}
	pd_machine_free(m);

	/* --no-unwind: the (empty) recorded callchain only */
	o.max_stack = 0;
	o.no_unwind = true;
	m = new_machine(&o, NULL);
	uw_feed_maps(m);
	CU_ASSERT_EQUAL(uw_stack(m, &r, fr), 0);
	pd_machine_free(m);
}
#else
static void test_unwind_self(void)
{
	fprintf(stderr, "(not x86_64: unwinder test skipped) ");
}
#endif

/*
 * The symbolizer's diagnostics: exact code, detail and record, once per
 * DSO and counted; the unwinder's for an architecture it cannot unwind.
 */
static void test_sym_diags(void)
{
	static const uint64_t chain[] = { PD_CONTEXT_USER, 0x10010, 0x20010, 0x10020 };
	static struct pd_features feat;
	static char sparc[] = "sparc64";
	static uint64_t regs[3];
	static uint8_t stack[64];
	struct pd_sym_opts o = PD_SYM_OPTS_INIT;
	struct pd_sym_frame fr[8];
	struct pd_sym_stats st;
	struct diag_recorder dr;
	struct pd_machine *m;
	struct pd_record r;

	o.no_kernel = true;
	m = new_machine(&o, &dr);
	mmap2(m, 40, 40, 0x10000, 0x1000, 0, 5, "/nonexistent/lib one.so", PD_CPUMODE_USER);
	mmap2(m, 40, 40, 0x20000, 0x1000, 0, 5, "/nonexistent/libtwo.so", PD_CPUMODE_USER);
	CU_ASSERT_EQUAL(dr.n, 0);	/* files are looked for when a frame needs them */
	memset(&r, 0, sizeof(r));
	r.type = PD_REC_SAMPLE;
	r.misc = PD_CPUMODE_USER;
	r.offset = 0x1234;
	r.index = 7;
	r.decoded = true;
	r.u.sample.sample_type = PD_SAMPLE_TID | PD_SAMPLE_IP | PD_SAMPLE_CALLCHAIN;
	r.u.sample.pid = r.u.sample.tid = 40;
	r.u.sample.ip = 0x10010;
	r.u.sample.callchain = chain;
	r.u.sample.callchain_nr = 4;
	CU_ASSERT_EQUAL(pd_machine_process(m, &r), 0);
	CU_ASSERT_EQUAL(pd_machine_resolve_sample(m, &r, fr, 8), 3);
	/* two DSOs without a file, each reported once, at the sample that needed it */
	CU_ASSERT_EQUAL_FATAL(dr.n, 2);
	CU_ASSERT_EQUAL(dr.seen[0].code, PD_SYM_NO_FILE);
	CU_ASSERT_STRING_EQUAL(pd_code_id(dr.seen[0].code), "PD801");
	CU_ASSERT_EQUAL(dr.seen[0].severity, PD_SEV_NOTE);
	CU_ASSERT_EQUAL(dr.seen[0].offset, 0x1234);
	CU_ASSERT_EQUAL(dr.seen[0].record_index, 7);
	CU_ASSERT_EQUAL(dr.seen[0].record_type, PD_REC_SAMPLE);
	/* a value with a space is quoted */
	CU_ASSERT_STRING_EQUAL(dr.seen[0].detail,
			       "dso=\"/nonexistent/lib one.so\" file=\"/nonexistent/lib one.so\"");
	CU_ASSERT_EQUAL(dr.seen[1].code, PD_SYM_NO_FILE);
	CU_ASSERT_STRING_EQUAL(dr.seen[1].detail,
			       "dso=/nonexistent/libtwo.so file=/nonexistent/libtwo.so");
	/* a later sample in the same DSOs: nothing new */
	r.offset = 0x1300;
	r.index = 8;
	CU_ASSERT_EQUAL(pd_machine_resolve_sample(m, &r, fr, 8), 3);
	CU_ASSERT_EQUAL(dr.n, 2);
	CU_ASSERT_EQUAL(pd_machine_diag_count(m, PD_SYM_NO_FILE), 2);
	CU_ASSERT_EQUAL(pd_machine_diag_count(m, PD_SYM_BUILDID_MISMATCH), 0);
	/* not a code of the symbolizer */
	CU_ASSERT_EQUAL(pd_machine_diag_count(m, PD_REC_SIZE_TOO_SMALL), 0);
	pd_machine_stats(m, &st);
	CU_ASSERT_EQUAL(st.notes, 2);
	pd_machine_free(m);

	/* user stacks of a recording from an architecture the unwinder does not know */
	feat.arch = sparc;
	m = new_machine(&o, &dr);
	CU_ASSERT_EQUAL(pd_machine_add_features(m, &feat), 0);
	memset(&r, 0, sizeof(r));
	r.type = PD_REC_SAMPLE;
	r.misc = PD_CPUMODE_USER;
	r.offset = 0x4000;
	r.index = 21;
	r.decoded = true;
	/* unwinding adds to a recorded callchain (here an empty one) */
	r.u.sample.sample_type = PD_SAMPLE_TID | PD_SAMPLE_IP | PD_SAMPLE_CALLCHAIN |
				 PD_SAMPLE_REGS_USER | PD_SAMPLE_STACK_USER;
	r.u.sample.pid = 50;
	r.u.sample.tid = 51;
	r.u.sample.ip = 0x10010;
	r.u.sample.regs_user.abi = 2;
	r.u.sample.regs_user.mask = 7;
	r.u.sample.regs_user.nr = 3;
	r.u.sample.regs_user.regs = regs;
	r.u.sample.stack_size = sizeof(stack);
	r.u.sample.stack_dyn_size = sizeof(stack);
	r.u.sample.stack_data = stack;
	CU_ASSERT_EQUAL(pd_machine_process(m, &r), 0);
	CU_ASSERT_EQUAL(pd_machine_resolve_sample(m, &r, fr, 8), 0);
	r.index = 22;
	CU_ASSERT_EQUAL(pd_machine_resolve_sample(m, &r, fr, 8), 0);
	CU_ASSERT_EQUAL_FATAL(dr.n, 1);
	CU_ASSERT_EQUAL(dr.seen[0].code, PD_UNWIND_ARCH);
	CU_ASSERT_STRING_EQUAL(pd_code_id(dr.seen[0].code), "PD855");
	CU_ASSERT_EQUAL(dr.seen[0].offset, 0x4000);
	CU_ASSERT_EQUAL(dr.seen[0].record_index, 21);
	CU_ASSERT_STRING_EQUAL(dr.seen[0].detail, "pid=50 tid=51 arch=sparc64 abi=2");
	CU_ASSERT_EQUAL(pd_machine_diag_count(m, PD_UNWIND_ARCH), 2);
	pd_machine_free(m);

	/* without a callback they are counted all the same */
	o.diag_fn = NULL;
	m = new_machine(&o, NULL);
	mmap2(m, 40, 40, 0x10000, 0x1000, 0, 5, "/nonexistent/libthree.so", PD_CPUMODE_USER);
	pd_machine_resolve(m, 40, 40, PD_CPUMODE_USER, 0x10010, &fr[0]);
	CU_ASSERT_EQUAL(pd_machine_diag_count(m, PD_SYM_NO_FILE), 1);
	pd_machine_free(m);

	/* a status, as the core's: a root that cannot be opened is an I/O failure */
	o.symfs = "/nonexistent-symfs-root";
	m = NULL;
	errno = 0;
	CU_ASSERT_EQUAL(pd_machine_new(&o, &m), PD_STATUS_IO);
	CU_ASSERT_EQUAL(errno, ENOENT);
	CU_ASSERT_PTR_NULL(m);
}

/*
 * aarch64 stacks are unwound untested: one note (PD856) says so at the
 * first sample, every sample is counted, and none is an unwind error (the
 * frames themselves are not checked here).
 */
static void test_unwind_untested_note(void)
{
	static uint64_t regs[33];
	static uint8_t stack[256];
	static struct pd_sym_frame fr[PD_SYM_MAX_STACK];
	static struct pd_features f;
	static char aarch64[] = "aarch64";
	struct pd_sym_opts o = PD_SYM_OPTS_INIT;
	struct diag_recorder dr;
	struct pd_sym_stats st;
	struct pd_machine *m;
	struct pd_record r;
	int i;

	o.no_kernel = true;
	m = new_machine(&o, &dr);
	f.arch = aarch64;
	CU_ASSERT_EQUAL(pd_machine_add_features(m, &f), 0);
	/* a readable ELF at the sampled pc: the unwind gets going */
	mmap2(m, 78, 78, 0x400000, 0x100000, 0, 5, "/proc/self/exe", PD_CPUMODE_USER);
	regs[31] = 0x7ff000;		/* sp */
	regs[32] = 0x401000;		/* pc */
	memset(&r, 0, sizeof(r));
	r.type = PD_REC_SAMPLE;
	r.misc = PD_CPUMODE_USER;
	r.offset = 0x5000;
	r.index = 7;
	r.decoded = true;
	r.u.sample.sample_type = PD_SAMPLE_TID | PD_SAMPLE_IP | PD_SAMPLE_CALLCHAIN |
				 PD_SAMPLE_REGS_USER | PD_SAMPLE_STACK_USER;
	r.u.sample.pid = 78;
	r.u.sample.tid = 78;
	r.u.sample.ip = regs[32];
	r.u.sample.regs_user.abi = 2;
	r.u.sample.regs_user.mask = (1ULL << 33) - 1;
	r.u.sample.regs_user.nr = 33;
	r.u.sample.regs_user.regs = regs;
	r.u.sample.stack_size = sizeof(stack);
	r.u.sample.stack_dyn_size = sizeof(stack);
	r.u.sample.stack_data = stack;
	CU_ASSERT_EQUAL(pd_machine_process(m, &r), 0);
	for (i = 0; i < 3; i++) {
		regs[0] = (uint64_t)i;	/* not the cached answer */
		CU_ASSERT(pd_machine_resolve_sample(m, &r, fr, PD_SYM_MAX_STACK) >= 1);
		r.index++;
	}
	CU_ASSERT_EQUAL_FATAL(diags_with(&dr, PD_UNWIND_UNTESTED), 1);
	i = diag_recorder_find(&dr, PD_UNWIND_UNTESTED);
	CU_ASSERT_STRING_EQUAL(pd_code_id(dr.seen[i].code), "PD856");
	CU_ASSERT_EQUAL(dr.seen[i].offset, 0x5000);
	CU_ASSERT_EQUAL(dr.seen[i].record_index, 7);
	CU_ASSERT_STRING_EQUAL(dr.seen[i].detail, "pid=78 tid=78 arch=aarch64");
	CU_ASSERT_EQUAL(pd_machine_diag_count(m, PD_UNWIND_UNTESTED), 3);
	pd_machine_stats(m, &st);
	CU_ASSERT_EQUAL(st.unwound_samples, 3);
	CU_ASSERT_EQUAL(st.unwind_errors, 0);
	pd_machine_free(m);
}

static void test_build_id_mismatch(void)
{
	struct pd_sym_opts o = PD_SYM_OPTS_INIT;
	struct pd_machine *m;
	struct pd_sym_frame f;
	struct diag_recorder nt;
	char path[PATH_MAX];
	uint8_t bid[20], wrong[20];
	char want[41], got[41], detail[2 * PATH_MAX + 128];
	size_t bidsz = 0, i;
	uint64_t off, soff, ssize;

	if (!have_gcc)
		return;
	CU_ASSERT_FATAL(compile("bid.so", "-shared -fPIC", tiny_src));
	snprintf(path, sizeof(path), "%s/bid.so", tdir);
	CU_ASSERT_FATAL(elf_sym_off(path, "alpha", &off, &soff, &ssize, bid, &bidsz));
	CU_ASSERT_FATAL(bidsz == 20);
	memcpy(wrong, bid, sizeof(wrong));
	wrong[0] ^= 0xff;
	o.buildid_dir = tdir;	/* an empty cache: only the file itself can serve */
	m = new_machine(&o, &nt);
	mmap2_bid(m, 60, 0x10000, 0x100000, 0, path, bid, 20);
	pd_machine_resolve(m, 60, 60, PD_CPUMODE_USER, 0x10000 + off, &f);
	CU_ASSERT_PTR_NOT_NULL(f.sym);
	if (f.sym)
		CU_ASSERT_STRING_EQUAL(f.sym, "alpha");
	CU_ASSERT_EQUAL(nt.n, 0);
	pd_machine_free(m);
	/* the file on disk is not the one recorded: refused, reported once */
	m = new_machine(&o, &nt);
	mmap2_bid(m, 61, 0x10000, 0x100000, 0, path, wrong, 20);
	pd_machine_resolve(m, 61, 61, PD_CPUMODE_USER, 0x10000 + off, &f);
	CU_ASSERT_PTR_NULL(f.sym);
	CU_ASSERT_STRING_EQUAL(f.dso_name, path);
	pd_machine_resolve(m, 61, 61, PD_CPUMODE_USER, 0x10000 + off + 1, &f);
	/* the cause only: no second diagnostic for the DSO left without a file */
	CU_ASSERT_EQUAL_FATAL(nt.n, 1);
	CU_ASSERT_EQUAL(nt.seen[0].code, PD_SYM_BUILDID_MISMATCH);
	CU_ASSERT_STRING_EQUAL(pd_code_id(nt.seen[0].code), "PD803");
	CU_ASSERT_EQUAL(nt.seen[0].severity, PD_SEV_NOTE);
	for (i = 0; i < 20; i++) {
		snprintf(want + 2 * i, 3, "%02x", wrong[i]);
		snprintf(got + 2 * i, 3, "%02x", bid[i]);
	}
	snprintf(detail, sizeof(detail), "dso=%s file=%s recorded=%s found=%s", path, path, want,
		 got);
	CU_ASSERT_STRING_EQUAL(nt.seen[0].detail, detail);
	/* named at the record last given to the machine: the MMAP2 (offset 0 here) */
	CU_ASSERT_EQUAL(nt.seen[0].record_index, 0);
	CU_ASSERT_EQUAL(nt.seen[0].record_type, PD_REC_MMAP2);
	CU_ASSERT_EQUAL(pd_machine_diag_count(m, PD_SYM_BUILDID_MISMATCH), 1);
	pd_machine_free(m);
}

static void test_symfs_escape(void)
{
	struct pd_sym_opts o = PD_SYM_OPTS_INIT;
	struct pd_machine *m;
	struct pd_sym_frame f;
	struct diag_recorder nt;
	char root[320], p[400], secret[320], cmd[4096];
	uint64_t off, soff, ssize;

	if (!have_gcc)
		return;
	CU_ASSERT_FATAL(compile("secret.so", "-shared -fPIC", tiny_src));
	snprintf(secret, sizeof(secret), "%s/secret.so", tdir);
	CU_ASSERT_FATAL(elf_sym_off(secret, "alpha", &off, &soff, &ssize, NULL, NULL));
	snprintf(root, sizeof(root), "%s/root", tdir);
	snprintf(cmd, sizeof(cmd), "mkdir -p %s/lib && cp %s %s/lib/good.so && ln -sf %s %s/lib/evil.so"
		 " && ln -sf ../../secret.so %s/lib/evil2.so", root, secret, root, secret, root, root);
	CU_ASSERT_FATAL(system(cmd) == 0);
	o.symfs = root;
	m = new_machine(&o, &nt);
	mmap2(m, 70, 70, 0x10000, 0x100000, 0, 5, "/lib/good.so", PD_CPUMODE_USER);
	mmap2(m, 71, 71, 0x10000, 0x100000, 0, 5, "/lib/evil.so", PD_CPUMODE_USER);
	mmap2(m, 72, 72, 0x10000, 0x100000, 0, 5, "/lib/evil2.so", PD_CPUMODE_USER);
	snprintf(p, sizeof(p), "/lib/../../secret.so");
	mmap2(m, 73, 73, 0x10000, 0x100000, 0, 5, p, PD_CPUMODE_USER);
	pd_machine_resolve(m, 70, 70, PD_CPUMODE_USER, 0x10000 + off, &f);
	CU_ASSERT_PTR_NOT_NULL(f.sym);
	/* absolute and relative links out of the root, and "..": no symbols */
	pd_machine_resolve(m, 71, 71, PD_CPUMODE_USER, 0x10000 + off, &f);
	CU_ASSERT_PTR_NULL(f.sym);
	pd_machine_resolve(m, 72, 72, PD_CPUMODE_USER, 0x10000 + off, &f);
	CU_ASSERT_PTR_NULL(f.sym);
	pd_machine_resolve(m, 73, 73, PD_CPUMODE_USER, 0x10000 + off, &f);
	CU_ASSERT_PTR_NULL(f.sym);
	/*
	 * Links out of the root stay inside it (openat2) and find nothing
	 * there; without openat2 they are refused as leaving it.  ".." is
	 * never looked up.
	 */
	CU_ASSERT_EQUAL(nt.n, 3);
	CU_ASSERT_EQUAL(diags_with(&nt, PD_SYM_NO_FILE) + diags_with(&nt, PD_SYM_OUTSIDE_SYMFS), 2);
	CU_ASSERT_EQUAL(diags_with(&nt, PD_SYM_BAD_PATH), 1);
	if (nt.n == 3) {
		CU_ASSERT_EQUAL(nt.seen[2].code, PD_SYM_BAD_PATH);
		CU_ASSERT_STRING_EQUAL(nt.seen[2].detail,
				       "dso=/lib/../../secret.so file=/lib/../../secret.so");
	}
	pd_machine_free(m);
	/* only regular files: a FIFO named by the data is not opened */
	snprintf(p, sizeof(p), "%s/fifo", tdir);
	CU_ASSERT_EQUAL(mkfifo(p, 0600), 0);
	memset(&o, 0, sizeof(o));
	m = new_machine(&o, &nt);
	mmap2(m, 74, 74, 0x10000, 0x1000, 0, 5, p, PD_CPUMODE_USER);
	pd_machine_resolve(m, 74, 74, PD_CPUMODE_USER, 0x10010, &f);
	CU_ASSERT_PTR_NULL(f.sym);
	CU_ASSERT_EQUAL_FATAL(nt.n, 1);
	CU_ASSERT_EQUAL(nt.seen[0].code, PD_SYM_NO_FILE);
	snprintf(cmd, sizeof(cmd), "dso=%s file=%s", p, p);
	CU_ASSERT_STRING_EQUAL(nt.seen[0].detail, cmd);
	pd_machine_free(m);
}

static void test_symtab_rules(void)
{
	struct pd_symtab t;
	uint32_t x;

	pd_symtab_init(&t);
	/* aliases: sized beats zero-size, GLOBAL beats WEAK, fewer underscores */
	pd_symtab_insert(&t, 0x100, 0x100, PD_STB_GLOBAL, 2, "zero", 4);
	pd_symtab_insert(&t, 0x100, 0x140, PD_STB_WEAK, 2, "weak", 4);
	pd_symtab_insert(&t, 0x100, 0x140, PD_STB_GLOBAL, 2, "__libc_thing", 12);
	pd_symtab_insert(&t, 0x100, 0x140, PD_STB_GLOBAL, 2, "thing", 5);
	pd_symtab_insert(&t, 0x200, 0x200, PD_STB_LOCAL, 2, "label", 5);
	pd_symtab_insert(&t, 0x300, 0x310, PD_STB_LOCAL, 2, "after", 5);
	pd_symtab_fixup_end(&t, false);
	pd_symtab_fixup_duplicate(&t);
	x = pd_symtab_find(&t, 0x120);
	CU_ASSERT_FATAL(x != 0);
	CU_ASSERT_STRING_EQUAL(pd_symtab_name(&t, x), "thing");
	/* a zero-size symbol stretches to the next one */
	x = pd_symtab_find(&t, 0x2ff);
	CU_ASSERT_FATAL(x != 0);
	CU_ASSERT_STRING_EQUAL(pd_symtab_name(&t, x), "label");
	CU_ASSERT_EQUAL(pd_symtab_find(&t, 0x310), 0);	/* ends are exclusive */
	CU_ASSERT_EQUAL(pd_symtab_find(&t, 0x150), 0);
	CU_ASSERT_EQUAL(t.live, 3);
	pd_symtab_free(&t);
}

static void test_many_symbols(void)
{
	struct pd_symtab t;
	uint32_t i, x;
	char name[32];
	int bad = 0;

	/* a large tree stays balanced and searchable through deletions */
	pd_symtab_init(&t);
	for (i = 0; i < 20000; i++) {
		int n = snprintf(name, sizeof(name), "f%u", (i * 7919u) % 20000u);

		pd_symtab_insert(&t, ((i * 7919u) % 20000u) * 16ull, 0, PD_STB_GLOBAL, 2, name,
				 (size_t)n);
		t.n[t.nr - 1].end = t.n[t.nr - 1].start + 8;
	}
	for (x = pd_symtab_first(&t); x; ) {
		uint32_t nx = pd_symtab_next(&t, x);

		if ((t.n[x].start / 16) % 3 == 0)
			pd_symtab_erase(&t, x);
		x = nx;
	}
	for (i = 0; i < 20000; i++) {
		x = pd_symtab_find(&t, i * 16ull + 4);
		if ((i % 3 == 0) != (x == 0))
			bad++;
		else if (x && t.n[x].start != i * 16ull)
			bad++;
	}
	CU_ASSERT_EQUAL(bad, 0);
	pd_symtab_free(&t);
}

/*
 * Rust names against binutils' c++filt, whose libiberty is perf's
 * demangler.  c++filt prints libiberty's verbose form: the legacy hash,
 * v0 crate disambiguators and the types of constants, which perf's call
 * (no options) leaves out, so they are taken off its lines first.  Names
 * of a Rust program's symbol table, legacy and v0 (escapes, closures,
 * shims, dyn traits, back references, const generics, .llvm suffixes).
 */
static const char *const rust_names[] = {
		"_ZN111_$LT$alloc..vec..Vec$LT$T$GT$$u20$as$u20$alloc..vec..spec_from_ite"
		"r_nested..SpecFromIterNested$LT$T$C$I$GT$$GT$9from_iter17h2cbc03de5c5ddd"
		"e3E",
		"_ZN3std2rt10lang_start28_$u7b$$u7b$closure$u7d$$u7d$17h012fc64dfcc9f319E"
		".llvm.16759729010910216598",
		"_ZN3std6thread9lifecycle18JoinInner$LT$T$GT$4join17h81637939ea6ab34aE",
		"_ZN48_$LT$uwrust..Square$u20$as$u20$uwrust..Shape$GT$4area17h016d6e88734"
		"bca2cE",
		"_ZN4core3ops8function6FnOnce40call_once$u7b$$u7b$vtable.shim$u7d$$u7d$17"
		"h89aac4e1fa06b14fE.llvm.16759729010910216598",
		"_RINvCs7yku55f9lGT_6uwrust4fillNCNCNvB2_4mains_00EB2_",
		"_RINvCs7yku55f9lGT_6uwrust4fillNCNvB2_4mains0_0EB2_",
		"_RINvMNtCsgEmfK2I1SDS_4core3stre18trim_start_matchesReECsgY6Mt91CT9J_14r"
		"ustc_demangle",
		"_RINvMNtCsgEmfK2I1SDS_4core5sliceSh11copy_withinINtNtNtB5_3ops5range14Ra"
		"ngeInclusivejEECsfEOYDRpO4Ta_11miniz_oxide",
		"_RINvMNtNtCsgEmfK2I1SDS_4core4cell4onceINtB3_8OnceCellINtNtB7_6result6Re"
		"sultINtNtB7_6option6OptionINtNtCslNYArtu3iFV_5alloc5boxed3BoxINtNtCs4X4t"
		"9plMPHF_9addr2line4unit7DwoUnitINtNtNtCsduwmD7cSIQq_5gimli4read12endian_"
		"slice11EndianSliceNtNtB2T_9endianity12LittleEndianEEEENtB2R_5ErrorEE8try"
		"_initNCINvB2_11get_or_initNCNvMB29_INtB29_7ResUnitB2M_E14dwarf_and_units"
		"0_0E0zECsjrHSEGnQ3l9_3std",
		"_RINvNtCsgEmfK2I1SDS_4core3ptr13drop_in_placeINtNtB4_4cell10UnsafeCellIN"
		"tNtB4_6option6OptionINtNtB4_6result6ResultjINtNtCslNYArtu3iFV_5alloc5box"
		"ed3BoxDNtNtB4_3any3AnyNtNtB4_6marker4SendEL_EEEEECs7yku55f9lGT_6uwrust",
		"_RINvNtCsgEmfK2I1SDS_4core3ptr13drop_in_placeINtNtB4_6result6ResultuINtN"
		"tCslNYArtu3iFV_5alloc5boxed3BoxDNtNtB4_3any3AnyNtNtB4_6marker4SendEL_EEE"
		"Cs7yku55f9lGT_6uwrust.llvm.11413520674506789783",
		"_RINvNtCsgEmfK2I1SDS_4core6escape14escape_unicodeKja_ECsgY6Mt91CT9J_14ru"
		"stc_demangle",
		"_RNvMs3_NtCslNYArtu3iFV_5alloc7raw_vecINtB5_6RawVecTOhFUKCBN_EuENtNtCsjr"
		"HSEGnQ3l9_3std5alloc6SystemE8grow_oneB13_",
		"_RNvCs1234_7mycrate3foo",
};

/*
 * C++ names as perf 6.1 prints them (libiberty without options, as
 * `c++filt -p` prints them): the name without parameters or return type,
 * except inside a local entity's name and in special names.
 */
static void test_cxx_demangle(void)
{
	static const char *const names[][2] = {
		{ "_ZN2ns4overEl", "ns::over" },
		{ "_ZN2ns3fooEi.isra.0", "ns::foo" },
		{ "_ZSt9make_pairIiiESt4pairIT_T0_ES1_S2_", "std::make_pair<int, int>" },
		{ "_ZStltIcEbRKSt6vectorIT_SaIS1_EES5_", "std::operator< <char>" },
		{ "_ZN1AnwEm", "A::operator new" },
		{ "_ZdlPv", "operator delete" },
		{ "_ZN1AcvbEv", "A::operator bool" },
		/* conversion operators to types with spaces */
		{ "_ZNK4llvm8TypeSizecvmEv", "llvm::TypeSize::operator unsigned long" },
		{ "_ZN1AcvxEv", "A::operator long long" },
		{ "_ZN1AcvPKcEv", "A::operator char const*" },
		{ "_ZNK1AcvRKSt6vectorIiSaIiEEEv",
		  "A::operator std::vector<int, std::allocator<int> > const&" },
		{ "_ZN5Outer5InnercvPFivEEv", "Outer::Inner::operator int (*)()" },
		{ "_ZNKSt15__exception_ptr13exception_ptrcvMS0_FvvEEv",
		  "std::__exception_ptr::exception_ptr::operator void "
		  "(std::__exception_ptr::exception_ptr::*)()" },
		/* lambdas and local types: the enclosing function keeps its parameters */
		{ "_ZZ4mainENKUliE_clEi", "main::{lambda(int)#1}::operator()" },
		{ "_ZZ3fooIiEvT_ENKUlvE_clEv", "foo<int>(int)::{lambda()#1}::operator()" },
		{ "_ZZNK1A3barEvENKUlvE_clEv", "A::bar() const::{lambda()#1}::operator()" },
		{ "_ZZ3fooiENKUt_clEv", "foo(int)::{unnamed type#1}::operator()" },
		{ "_ZZ3fooiE1x", "foo(int)::x" },
		/* return types with parentheses and spaces of their own */
		{ "_Z1fIiEDTplfp_Li1EET_", "f<int>" },
		{ "_ZN4node9inspector8protocol12_GLOBAL__N_110parseTokenIhEENS2_5TokenEPKT_S7_PS7_S8_",
		  "node::inspector::protocol::(anonymous namespace)::parseToken<unsigned char>" },
		{ "_ZN6google8protobuf8internal7memswapILi12EEENSt9enable_ifIXaageT_stmltT_Li16EEvE4"
		  "typeEPcS6_",
		  "google::protobuf::internal::memswap<12>" },
		{ "_ZNSt5dequeIZN2v88internal12_GLOBAL__N_19FormatterEPNS1_7IsolateERNS1_16Builtin"
		  "ArgumentsEiE5StateSaIS7_EE12emplace_backIJS7_EEERS7_DpOT_",
		  "std::deque<v8::internal::(anonymous namespace)::Formatter(v8::internal::Isolate*, "
		  "v8::internal::BuiltinArguments&, int)::State, std::allocator<v8::internal::"
		  "(anonymous namespace)::Formatter(v8::internal::Isolate*, v8::internal::"
		  "BuiltinArguments&, int)::State> >::emplace_back<v8::internal::(anonymous "
		  "namespace)::Formatter(v8::internal::Isolate*, v8::internal::BuiltinArguments&, "
		  "int)::State>" },
		/* a returned pointer to a function, an array or a member holds the name */
		{ "_Z3fooIiEPFivEv", "foo<int>" },
		{ "_Z3barIlEPA3_iT_", "bar<long>" },
		{ "_Z3bazIiEM1AFiiET_", "baz<int>" },
		{ "_Z3fooIiEPFPFivEvEv", "foo<int>" },
		{ "_ZN1A1fIiEEPFivEv", "A::f<int>" },
		{ "_ZZ3fooIiEPFivEvE1x", "foo<int>()::x" },
		{ "_ZZ3fooIiEPFivEvENKUlvE_clEv", "foo<int>()::{lambda()#1}::operator()" },
		{ "_ZN1AclEi", "A::operator()" },
		/* special names keep them */
		{ "_ZThn8_N1A1fEv", "non-virtual thunk to A::f()" },
		{ "_ZGTtNKSt11logic_error4whatEv",
		  "transaction clone for std::logic_error::what() const" },
		/* but not a clone suffix, which libiberty reads with parameters only */
		{ "_ZThn56_N4node6crypto7TLSWrap8ReadStopEv.cold",
		  "non-virtual thunk to node::crypto::TLSWrap::ReadStop()" },
		/*
		 * refused by libstdc++, which reads the parameters (whose
		 * substitutions V8's name does not resolve) and no '_' after a
		 * reference temporary's number: libiberty prints the name
		 */
		{ "_ZN2v88internal11StringShape33DispatchToSpecificTypeWithoutCastIZNS1_22Dispa"
		  "tchToSpecificTypeIZNKS0_6String7GetImplEiNS0_16PtrComprCageBaseERKNS0_31Share"
		  "dStringAccessGuardIfNeededEE19StringGetDispatchertJRiRS5_S8_EEET0_S4_DpOT1_E1"
		  "7CastingDispatchertJRS4_SA_SB_S8_EEESC_SF_.isra.0",
		  "v8::internal::StringShape::DispatchToSpecificTypeWithoutCast<v8::internal::"
		  "StringShape::DispatchToSpecificType<v8::internal::String::GetImpl(int, "
		  "v8::internal::PtrComprCageBase, v8::internal::SharedStringAccessGuardIfNeeded "
		  "const&) const::StringGetDispatcher, unsigned short, int&, v8::internal::"
		  "PtrComprCageBase&, v8::internal::SharedStringAccessGuardIfNeeded const&>"
		  "(v8::internal::String, int&, v8::internal::PtrComprCageBase&, v8::internal::"
		  "SharedStringAccessGuardIfNeeded const&)::CastingDispatcher, unsigned short, "
		  "v8::internal::String&, int&, v8::internal::PtrComprCageBase&, v8::internal::"
		  "SharedStringAccessGuardIfNeeded const&>" },
		{ "_ZGRN4grpc6Status2OKE_", "reference temporary #0 for grpc::Status::OK" },
		{ "_ZGR1x12_", "reference temporary #12 for x" },
	};
	/* refused by both: printed as they are */
	static const char *const refused[] = { "_ZN1A", "_ZN1A1fIiE", "_ZE_E_E_" };
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		char *out = pd_demangle(names[i][0]);

		if (!out && i == 0) {
			fprintf(stderr, "(no __cxa_demangle: C++ names skipped) ");
			return;
		}
		CU_ASSERT_PTR_NOT_NULL(out);
		if (out && strcmp(out, names[i][1])) {
			fprintf(stderr, "\n%s:\n  ours      %s\n  expected  %s\n", names[i][0], out,
				names[i][1]);
			CU_FAIL("C++ name demangled otherwise than perf prints it");
		}
		free(out);
	}
	for (i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		char *out = pd_demangle(refused[i]);

		if (out)
			fprintf(stderr, "\n%s: demangled as %s\n", refused[i], out);
		CU_ASSERT_PTR_NULL(out);
		free(out);
	}
}

/*
 * OCaml names and Java signatures: the rules perf 6.1 applies when C++
 * demangling fails (symbols.sh compares whole recordings with perf);
 * here the edges, none of which may read past the name.
 */
static void test_fallback_demangle(void)
{
	static const char *const names[][2] = {
		{ "camlStdlib__List__map_123", "Stdlib.List.map_123" },
		{ "camlDemo__op$2b_3", "Demo.op+_3" },
		{ "camlA___$41$2e___b", "A._A.._b" },
		{ "camlM$zz$4", "M$zz$4" },	/* not two hex digits: kept */
		{ "camlM$4", "M$4" },
		{ "camlM$", "M$" },
		{ "camlM_", "M_" },
		{ "camlM__", "M." },
		{ "camlM$4A$4a", "MJJ" },
		{ "camlX", "X" },
		{ "caml\303\211t__x", "\303\211t.x" },	/* a Latin-1 capital to perf */
		/* Java signatures (perf 6.1 printed each of these) */
		{ "Ljava/lang/Foo;bar(I[JLjava/lang/String;)V",
		  "java.lang.Foo.bar(int, long[], java.lang.String)" },
		{ "Lcom/x/Y;\303\211tat(Z[Z[[Ljava/lang/String;SBCDFJ)V",
		  "com.x.Y.\303\211tat(boolean, boolean[], java.lang.String, short[][], byte, char, "
		  "double, float, long)" },
		{ "Lcom/x/Y$Z;<init>()Z", "com.x.Y$Z<init>()" },
		{ "Lq;g([[Lr/S;[I)V", "q.g(r.S, int[][][])" },
		{ "Lfoo;(V)", "foo(void)" },
		/* cut at three times the name's length */
		{ "Lp;f(ZZZZZZZZZZZZ)V", "p.f(boolean, boolean, boolean, boolean, boolean, boolean," },
	};
	static const char *const not_ocaml[] = {
		"caml", "camlx", "caml_alloc", "caml1", "Caml_X", "cam", "c", "",
		"caml\327x",	/* 0xd7 is no letter */
		/* not Java signatures either */
		"weird(name)", "Lfoo)", "Lfoo[;f()V", "Lf;g(I", "Lf;g)(", "f;g()V", "Lf/g(I)V",
	};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		char *out = pd_demangle(names[i][0]);

		CU_ASSERT_PTR_NOT_NULL(out);
		if (out && strcmp(out, names[i][1]))
			fprintf(stderr, "\n%s: ours %s, perf %s\n", names[i][0], out, names[i][1]);
		CU_ASSERT(out && !strcmp(out, names[i][1]));
		free(out);
	}
	for (i = 0; i < sizeof(not_ocaml) / sizeof(not_ocaml[0]); i++)
		CU_ASSERT_PTR_NULL(pd_demangle(not_ocaml[i]));
}

static void test_rust_demangle_filt(void)
{
	char path[] = "/tmp/pd-rust-names-XXXXXX", cmd[256], line[4096];
	const size_t nr = sizeof(rust_names) / sizeof(rust_names[0]);
	size_t i = 0, skipped = 0;
	FILE *f, *p;
	int fd;

	if (system("command -v c++filt > /dev/null 2>&1") != 0) {
		fprintf(stderr, "(c++filt missing: Rust names against it skipped) ");
		return;
	}
	fd = mkstemp(path);
	CU_ASSERT_FATAL(fd >= 0);
	f = fdopen(fd, "w");
	CU_ASSERT_FATAL(f != NULL);
	for (i = 0; i < nr; i++)
		fprintf(f, "%s\n", rust_names[i]);
	fclose(f);
	snprintf(cmd, sizeof(cmd),
		 "c++filt < %s | sed -E 's/::h[0-9a-f]{16}$//; s/\\[[0-9a-f]+\\]//g; "
		 "s/([0-9]): [iu](8|16|32|64|128|size)/\\1/g'", path);
	p = popen(cmd, "r");
	CU_ASSERT_FATAL(p != NULL);
	for (i = 0; i < nr && fgets(line, sizeof(line), p); i++) {
		char *ours = pd_demangle(rust_names[i]);

		line[strcspn(line, "\n")] = '\0';
		/* a c++filt older than binutils 2.36 knows no v0 names */
		if (!strcmp(line, rust_names[i])) {
			skipped++;
			free(ours);
			continue;
		}
		CU_ASSERT_PTR_NOT_NULL(ours);
		if (ours && strcmp(ours, line)) {
			fprintf(stderr, "\n%s:\n  ours     %s\n  c++filt  %s\n", rust_names[i], ours,
				line);
			CU_FAIL("Rust name demangled otherwise than libiberty");
		}
		free(ours);
	}
	CU_ASSERT_EQUAL(i, nr);
	CU_ASSERT_EQUAL(pclose(p), 0);
	unlink(path);
	if (skipped)
		fprintf(stderr, "(c++filt left %zu Rust names raw: those skipped) ", skipped);
}

/* Names a file may hold: refused or cut, never read past or looped on. */
static void test_rust_demangle_hostile(void)
{
	static const char *const bad[] = {
		"_R", "_RN", "_RNv", "_RNvC", "_RNvCs_", "_RNvCs_3ab", "_RNvC999999999999999999999a",
		"_RB_", "_RNvB0_3foo", "_RNvBzzzzzzzzzzzzzz_3foo", "_RINvC1a1bE", "_RNvCu3abc3foo",
		"_ZN3foo17hE", "_ZN3foo17h0000000000000000E", "_ZN999999999999999999999fooE",
		"_ZN3foo17h0123456789abcdefE.", "_ZN1$17h0123456789abcdefE",
	};
	char deep[8192];
	size_t i, n;
	char *out;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		free(pd_demangle_rust(bad[i]));
	/* a path nested deeper than the demangler follows */
	memcpy(deep, "_R", 2);
	n = 2;
	for (i = 0; i < 2000; i++) {
		memcpy(deep + n, "NvNv", 4);
		n += 4;
	}
	memcpy(deep + n, "C1a", 4);
	CU_ASSERT_PTR_NULL(pd_demangle_rust(deep));
	/* a hash of fewer than five distinct digits is not one: not Rust */
	CU_ASSERT_PTR_NULL(pd_demangle_rust("_ZN3foo17h0000000000000000E"));
	out = pd_demangle_rust("_ZN3foo3bar17h0123456789abcdefE");
	CU_ASSERT_PTR_NOT_NULL_FATAL(out);
	CU_ASSERT_STRING_EQUAL(out, "foo::bar");
	free(out);
}

/* Two tables whose nodes are linked the same way, symbol by symbol. */
static int tree_differences(const struct pd_symtab *a, const struct pd_symtab *b)
{
	uint32_t x;
	int bad = a->root != b->root || a->nr != b->nr || a->live != b->live;

	for (x = 1; !bad && x < a->nr; x++)
		if (a->n[x].left != b->n[x].left || a->n[x].right != b->n[x].right ||
		    a->n[x].parent != b->n[x].parent || a->n[x].red != b->n[x].red ||
		    a->n[x].start != b->n[x].start || a->n[x].end != b->n[x].end)
			bad++;
	return bad;
}

/*
 * Symbols inserted in address order stay flat until the tree is needed;
 * then it is the tree the same inserts and erases give when linked as
 * they come (the one a table linked from its first insert has), which is
 * what perf's lookups among overlapping symbols depend on.
 */
static void test_flat_symbols(void)
{
	struct pd_symtab flat, tree;
	uint32_t i, x, y;
	char name[32];
	int bad = 0;

	pd_symtab_init(&flat);
	pd_symtab_init(&tree);
	/* overlapping symbols, three to a start: never sealed */
	for (i = 0; i < 3000; i++) {
		uint64_t start = (i / 3) * 16ull;
		int n = snprintf(name, sizeof(name), "s%u", (unsigned int)i);

		CU_ASSERT(pd_symtab_insert(&flat, start, start + 8 + (i % 7) * 8, PD_STB_GLOBAL, 2,
					   name, (size_t)n) == i + 1);
		CU_ASSERT(pd_symtab_insert(&tree, start, start + 8 + (i % 7) * 8, PD_STB_GLOBAL, 2,
					   name, (size_t)n) == i + 1);
		if (i == 0)
			pd_symtab_find(&tree, 0);	/* linked from now on */
	}
	CU_ASSERT_FALSE(flat.linked);
	CU_ASSERT_TRUE(tree.linked);
	for (i = 2; i < 3000; i += 5) {
		pd_symtab_erase(&flat, i);
		pd_symtab_erase(&tree, i);
	}
	pd_symtab_fixup_duplicate(&flat);
	pd_symtab_fixup_duplicate(&tree);
	CU_ASSERT_FALSE(flat.linked);
	CU_ASSERT_EQUAL(flat.live, tree.live);
	/* the same symbols in the same order, flat or linked */
	for (x = pd_symtab_first(&flat), y = pd_symtab_first(&tree); x || y;
	     x = pd_symtab_next(&flat, x), y = pd_symtab_next(&tree, y))
		if (x != y)
			bad++;
	CU_ASSERT_EQUAL(bad, 0);
	CU_ASSERT_EQUAL(pd_symtab_last(&flat), pd_symtab_last(&tree));
	/* loading done: not sealable, so linked, as the other one */
	pd_symtab_shrink(&flat);
	CU_ASSERT_PTR_NULL(flat.seal);
	CU_ASSERT_TRUE(flat.linked);
	CU_ASSERT_EQUAL(tree_differences(&flat, &tree), 0);
	for (i = 0; i < 1000 * 16 + 64; i++)
		if (pd_symtab_find(&flat, i) != pd_symtab_find(&tree, i))
			bad++;
	CU_ASSERT_EQUAL(bad, 0);
	pd_symtab_free(&flat);
	pd_symtab_free(&tree);

	/* an insert after an erase, then one out of order: linked first */
	pd_symtab_init(&flat);
	pd_symtab_init(&tree);
	for (i = 0; i < 100; i++) {
		pd_symtab_insert(&flat, i * 16ull, i * 16ull + 32, PD_STB_GLOBAL, 2, "a", 1);
		pd_symtab_insert(&tree, i * 16ull, i * 16ull + 32, PD_STB_GLOBAL, 2, "a", 1);
		if (i == 0)
			pd_symtab_find(&tree, 0);
	}
	pd_symtab_erase(&flat, 50);
	pd_symtab_erase(&tree, 50);
	pd_symtab_erase(&flat, 7);
	pd_symtab_erase(&tree, 7);
	CU_ASSERT_FALSE(flat.linked);
	CU_ASSERT(pd_symtab_insert(&flat, 5000, 5008, PD_STB_GLOBAL, 2, "b", 1) == 101);
	CU_ASSERT(pd_symtab_insert(&tree, 5000, 5008, PD_STB_GLOBAL, 2, "b", 1) == 101);
	CU_ASSERT_TRUE(flat.linked);
	CU_ASSERT(pd_symtab_insert(&flat, 40, 44, PD_STB_GLOBAL, 2, "c", 1) == 102);
	CU_ASSERT(pd_symtab_insert(&tree, 40, 44, PD_STB_GLOBAL, 2, "c", 1) == 102);
	CU_ASSERT_EQUAL(tree_differences(&flat, &tree), 0);
	pd_symtab_free(&flat);
	pd_symtab_free(&tree);

	/* in order and apart: sealed without ever being linked */
	pd_symtab_init(&flat);
	for (i = 0; i < 100; i++)
		pd_symtab_insert(&flat, i * 16ull, i * 16ull + 8, PD_STB_GLOBAL, 2, "d", 1);
	pd_symtab_shrink(&flat);
	CU_ASSERT_PTR_NOT_NULL(flat.seal);
	CU_ASSERT_EQUAL(pd_symtab_find(&flat, 16 * 42 + 3), 43);
	pd_symtab_free(&flat);
}

static void test_sealed_symbols(void)
{
	struct pd_symtab t, tree;
	uint32_t i, x, y;
	char name[32];
	int bad = 0;

	/* disjoint symbols, a zero-size one, gaps and shared name ends */
	pd_symtab_init(&t);
	pd_symtab_init(&tree);
	for (i = 0; i < 3000; i++) {
		uint64_t start = ((i * 7919u) % 3000u) * 32ull;
		uint64_t end = start + ((i % 5) == 0 ? 0 : (i % 5) == 1 ? 32 : 20);
		int n = snprintf(name, sizeof(name), "%sf%u", i % 2 ? "" : "__pfx_",
				 (unsigned int)(start / 64));

		pd_symtab_insert(&t, start, end, PD_STB_GLOBAL, 2, name, (size_t)n);
		pd_symtab_insert(&tree, start, end, PD_STB_GLOBAL, 2, name, (size_t)n);
	}
	pd_symtab_shrink(&t);
	CU_ASSERT_PTR_NOT_NULL_FATAL(t.seal);
	CU_ASSERT_PTR_NULL(tree.seal);
	CU_ASSERT_EQUAL(t.live, 3000);
	/* every address answered as the tree answers it */
	for (i = 0; i < 3000 * 32 + 64; i++) {
		x = pd_symtab_find(&t, i);
		y = pd_symtab_find(&tree, i);
		if (!x != !y || (x && (pd_symtab_start(&t, x) != tree.n[y].start ||
				       pd_symtab_end(&t, x) != tree.n[y].end ||
				       strcmp(pd_symtab_name(&t, x), pd_symtab_name(&tree, y)))))
			bad++;
	}
	CU_ASSERT_EQUAL(bad, 0);
	/* in address order, names kept */
	for (x = pd_symtab_first(&t), i = 0; x; x = pd_symtab_next(&t, x), i++)
		if (pd_symtab_start(&t, x) != i * 32ull)
			bad++;
	CU_ASSERT_EQUAL(i, 3000);
	CU_ASSERT_EQUAL(pd_symtab_last(&t), 3000);
	CU_ASSERT_EQUAL(bad, 0);
	/* the names shared: smaller than the tree's pool */
	CU_ASSERT(t.str_len < tree.str_len);
	/* an insert makes it a tree again, with the same indexes */
	x = pd_symtab_find(&t, 64 * 32 + 1);
	CU_ASSERT_FATAL(x != 0);
	CU_ASSERT(pd_symtab_insert(&t, 3000 * 32ull, 3000 * 32ull + 8, PD_STB_GLOBAL, 2, "added",
				   5) != 0);
	CU_ASSERT_PTR_NULL(t.seal);
	CU_ASSERT_EQUAL(pd_symtab_find(&t, 64 * 32 + 1), x);
	CU_ASSERT_STRING_EQUAL(pd_symtab_name(&t, pd_symtab_find(&t, 3000 * 32 + 4)), "added");
	CU_ASSERT_EQUAL(t.live, 3001);
	/* sealed again: its tree shared names, which now may not be shared */
	CU_ASSERT(pd_symtab_insert(&t, 2 * 32 + 24, 2 * 32 + 28, PD_STB_GLOBAL, 2, "between",
				   7) != 0);
	pd_symtab_shrink(&t);
	CU_ASSERT_PTR_NOT_NULL(t.seal);
	CU_ASSERT_EQUAL(t.live, 3002);
	for (i = 0; i < 3000 * 32; i++) {
		x = pd_symtab_find(&t, i);
		y = pd_symtab_find(&tree, i);
		if (i >= 2 * 32 + 24 && i < 2 * 32 + 28) {
			if (!x || strcmp(pd_symtab_name(&t, x), "between"))
				bad++;
		} else if (!x != !y ||
			   (x && strcmp(pd_symtab_name(&t, x), pd_symtab_name(&tree, y)))) {
			bad++;
		}
	}
	CU_ASSERT_EQUAL(bad, 0);
	pd_symtab_free(&t);
	/* overlapping symbols stay a tree: the answer depends on its shape */
	pd_symtab_insert(&tree, 0x10, 0x1000, PD_STB_GLOBAL, 2, "outer", 5);
	pd_symtab_shrink(&tree);
	CU_ASSERT_PTR_NULL(tree.seal);
	pd_symtab_free(&tree);
}

static int suite_init(void)
{
	snprintf(tdir, sizeof(tdir), "%s/pd-symtest.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(tdir))
		return -1;
	have_gcc = system("gcc --version > /dev/null 2>&1") == 0;
	return 0;
}

static int suite_clean(void)
{
	char cmd[PATH_MAX + 16];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tdir);
	return system(cmd) == 0 ? 0 : -1;
}

/*
 * The DWARF 5 line-program walk that finds the rows perf names after file
 * entry 0: a program of three sequences (a prefix then a file change; a
 * file change first; special, const_add_pc and fixed_advance_pc opcodes
 * with no file change), then every truncation of it and damaged headers.
 */
static size_t line_program(uint8_t *b, unsigned int version)
{
	static const uint8_t std_len[12] = { 0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 1 };
	size_t n = 0, hl_at, prog_at, i;
	uint32_t v32;

#define PUT(x) (b[n++] = (uint8_t)(x))
#define ADDR(a)								\
	do {								\
		PUT(0);							\
		PUT(9);							\
		PUT(2);							\
		for (i = 0; i < 8; i++)					\
			PUT((uint64_t)(a) >> (8 * i));			\
	} while (0)
	n = 4;			/* unit_length, filled below */
	PUT(version);
	PUT(0);
	PUT(8);			/* address size */
	PUT(0);			/* segment selector size */
	hl_at = n;
	n += 4;			/* header_length, filled below */
	PUT(1);			/* minimum instruction length */
	PUT(1);			/* maximum operations per instruction */
	PUT(1);			/* default is_stmt */
	PUT(0xfb);		/* line base -5 */
	PUT(14);		/* line range */
	PUT(13);		/* opcode base */
	for (i = 0; i < 12; i++)
		PUT(std_len[i]);
	for (i = 0; i < 6; i++)	/* directory and file tables: not read */
		PUT(0);
	prog_at = n;
	/* sequence 1: rows at 0x1000 and 0x1010 in the prefix, 0x1014 after */
	ADDR(0x1000);
	PUT(1);
	PUT(2); PUT(0x10);
	PUT(1);
	PUT(4); PUT(2);
	PUT(2); PUT(4);
	PUT(1);
	PUT(2); PUT(4);
	PUT(0); PUT(1); PUT(1);
	/* sequence 2: the file changes before the first row */
	ADDR(0x2000);
	PUT(4); PUT(3);
	PUT(1);
	PUT(2); PUT(8);
	PUT(0); PUT(1); PUT(1);
	/* sequence 3: special opcode (+2), const_add_pc (+17), fixed (+0x100) */
	ADDR(0x3000);
	PUT(13 + 2 * 14 + (1 + 5));
	PUT(8);
	PUT(1);
	PUT(9); PUT(0x00); PUT(0x01);
	PUT(1);
	PUT(0); PUT(1); PUT(1);
#undef ADDR
#undef PUT
	v32 = (uint32_t)(n - 4);
	memcpy(b, &v32, 4);
	v32 = (uint32_t)(prog_at - hl_at - 4);
	memcpy(b + hl_at, &v32, 4);
	return n;
}

static void test_line_prefix_spans(void)
{
	uint8_t b[256], *copy;
	size_t n = line_program(b, 5), len, nspans;
	struct pd_line_span *spans;
	uint32_t huge = 0xfffffff0u;

	CU_ASSERT_FATAL(n < sizeof(b));
	CU_ASSERT_TRUE(pd_dwarf_prefix_spans(b, n, 0, &spans, &nspans));
	CU_ASSERT_EQUAL_FATAL(nspans, 2);
	CU_ASSERT_EQUAL(spans[0].lo, 0x1000);
	CU_ASSERT_EQUAL(spans[0].hi, 0x1010);
	CU_ASSERT_EQUAL(spans[1].lo, 0x3002);
	CU_ASSERT_EQUAL(spans[1].hi, 0x3113);
	free(spans);

	/* DWARF 4 and older: binutils names rows right, nothing to do */
	n = line_program(b, 4);
	CU_ASSERT_TRUE(pd_dwarf_prefix_spans(b, n, 0, &spans, &nspans));
	CU_ASSERT_EQUAL(nspans, 0);
	CU_ASSERT_PTR_NULL(spans);

	/* an offset past the section, every truncation, a length past the end */
	n = line_program(b, 5);
	CU_ASSERT_TRUE(pd_dwarf_prefix_spans(b, n, n, &spans, &nspans));
	CU_ASSERT_EQUAL(nspans, 0);
	for (len = 0; len < n; len++) {
		/* a heap copy of exactly len bytes: an overread is caught by ASan */
		copy = malloc(len ? len : 1);
		CU_ASSERT_FATAL(copy != NULL);
		memcpy(copy, b, len);
		CU_ASSERT_TRUE(pd_dwarf_prefix_spans(copy, len, 0, &spans, &nspans));
		CU_ASSERT_TRUE(nspans <= 2);
		free(spans);
		free(copy);
	}
	memcpy(b + 10, &huge, 4);	/* header_length past the unit */
	CU_ASSERT_TRUE(pd_dwarf_prefix_spans(b, n, 0, &spans, &nspans));
	CU_ASSERT_EQUAL(nspans, 0);
	free(spans);
}

/* ---- source files of ELF symbols (no DWARF) ---- */

static const char nog_src[] =
	"static volatile long sink;\n"
	"static __attribute__((noinline)) void hot_static(long n) { long i; for (i = 0; i < n; i++) sink += i; }\n"
	"__attribute__((noinline)) void hot_global(long n) { long i; for (i = 0; i < n; i++) sink -= i; }\n"
	"int main(int argc, char **argv) { (void)argv; hot_static(argc); hot_global(argc); return 0; }\n";

/*
 * Where a symbol of `path` is: its value, and the file offsets of its
 * .symtab entry, of the .symtab section header and of the ELF header's
 * fields the tests below damage.
 */
struct elf_spot {
	uint64_t value;
	uint64_t sym_off;	/* the symbol's entry */
	uint64_t file_sym_off;	/* the entry of the last STT_FILE symbol before it */
	uint64_t symtab_shdr_off;
};

static bool elf_spot(const char *path, const char *name, struct elf_spot *out)
{
	int fd = open(path, O_RDONLY);
	Elf *e;
	Elf_Scn *scn = NULL;
	GElf_Ehdr eh;
	bool found = false;

	if (fd < 0)
		return false;
	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_READ, NULL);
	if (!e || !gelf_getehdr(e, &eh) || eh.e_ident[EI_CLASS] != ELFCLASS64)
		goto out;
	while (!found && (scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;
		size_t k;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB || !sh.sh_entsize)
			continue;
		d = elf_getdata(scn, NULL);
		out->symtab_shdr_off = eh.e_shoff + elf_ndxscn(scn) * eh.e_shentsize;
		for (k = 0; d && k < sh.sh_size / sh.sh_entsize; k++) {
			GElf_Sym sy;
			const char *n;

			gelf_getsym(d, (int)k, &sy);
			if (GELF_ST_TYPE(sy.st_info) == STT_FILE)
				out->file_sym_off = sh.sh_offset + k * sh.sh_entsize;
			n = elf_strptr(e, sh.sh_link, sy.st_name);
			if (n && !strcmp(n, name)) {
				out->value = sy.st_value;
				out->sym_off = sh.sh_offset + k * sh.sh_entsize;
				found = true;
				break;
			}
		}
	}
out:
	if (e)
		elf_end(e);
	close(fd);
	return found;
}

/* The file name the symbol-table fallback gives for addr of path. */
static const char *symbol_srcfile(const char *path, uint64_t addr, char *buf, size_t size)
{
	struct pd_sym_env env;
	struct pd_dso d;
	const char *f;

	memset(&env, 0, sizeof(env));
	env.rootfd = -1;
	memset(&d, 0, sizeof(d));
	d.syms_path = (char *)(uintptr_t)path;
	f = pd_elf_symbol_srcfile(&env, &d, addr);
	if (f)
		snprintf(buf, size, "%s", f);
	pd_elf_srcfiles_free(&d);
	return f ? buf : NULL;
}

/* Copy src to dst with `len` bytes of `bytes` written at `off`. */
static void patched_copy(const char *src, const char *dst, uint64_t off, const void *bytes,
			 size_t len)
{
	char cmd[3 * PATH_MAX];
	int fd;

	snprintf(cmd, sizeof(cmd), "cp %s %s", src, dst);
	CU_ASSERT_FATAL(system(cmd) == 0);
	fd = open(dst, O_WRONLY);
	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT(pwrite(fd, bytes, len, (off_t)off) == (ssize_t)len);
	close(fd);
}

static void test_symbol_srcfile(void)
{
	char path[PATH_MAX], bad[PATH_MAX], buf[256];
	struct elf_spot st, gl;
	const char *f;
	uint32_t huge = 0xfffffff0u, link;
	uint64_t zero = 0;

	if (!have_gcc) {
		fprintf(stderr, "(gcc missing: ELF tests skipped) ");
		return;
	}
	/* no -g: only the symbol table names files (src-5.c: strlen("nog-x")) */
	CU_ASSERT_FATAL(compile("nog-x", "-O2", nog_src));
	snprintf(path, sizeof(path), "%s/nog-x", tdir);
	snprintf(bad, sizeof(bad), "%s/nog-bad", tdir);
	CU_ASSERT_FATAL(elf_spot(path, "hot_static", &st) || elf_spot(path, "hot_static.constprop.0", &st));
	CU_ASSERT_FATAL(elf_spot(path, "hot_global", &gl));

	/* a local function: the STT_FILE before it, inside and at its start */
	f = symbol_srcfile(path, st.value + 1, buf, sizeof(buf));
	CU_ASSERT_PTR_NOT_NULL(f);
	if (f)
		CU_ASSERT_STRING_EQUAL(f, "src-5.c");
	f = symbol_srcfile(path, st.value, buf, sizeof(buf));
	CU_ASSERT(f && !strcmp(f, "src-5.c"));
	/* a global one after the STT_FILE symbols of several objects: none */
	CU_ASSERT_PTR_NULL(symbol_srcfile(path, gl.value + 1, buf, sizeof(buf)));
	/* an address in no section */
	CU_ASSERT_PTR_NULL(symbol_srcfile(path, 0, buf, sizeof(buf)));
	CU_ASSERT_PTR_NULL(symbol_srcfile(path, ~0ULL, buf, sizeof(buf)));

	/* damaged files: no answer, nothing read outside the file */
	patched_copy(path, bad, st.file_sym_off, &huge, 4);	/* st_name past .strtab */
	CU_ASSERT_PTR_NULL(symbol_srcfile(bad, st.value + 1, buf, sizeof(buf)));
	link = 0;						/* sh_link: no string table */
	patched_copy(path, bad, st.symtab_shdr_off + 40, &link, 4);
	CU_ASSERT_PTR_NULL(symbol_srcfile(bad, st.value + 1, buf, sizeof(buf)));
	link = 0xffff;						/* sh_link: no such section */
	patched_copy(path, bad, st.symtab_shdr_off + 40, &link, 4);
	CU_ASSERT_PTR_NULL(symbol_srcfile(bad, st.value + 1, buf, sizeof(buf)));
	patched_copy(path, bad, st.symtab_shdr_off + 56, &zero, 8);	/* sh_entsize 0 */
	CU_ASSERT_PTR_NULL(symbol_srcfile(bad, st.value + 1, buf, sizeof(buf)));
	zero = 0x7ffffff0ull;					/* sh_size past the file */
	patched_copy(path, bad, st.symtab_shdr_off + 32, &zero, 8);
	CU_ASSERT_PTR_NULL(symbol_srcfile(bad, st.value + 1, buf, sizeof(buf)));
	zero = 0xffff;						/* the function in no section */
	patched_copy(path, bad, st.sym_off + 6, &zero, 2);
	f = symbol_srcfile(bad, st.value + 1, buf, sizeof(buf));
	CU_ASSERT(!f || strcmp(f, "src-5.c"));	/* a function before it, if any */
	zero = 0;						/* the file is a symbol table no more */
	patched_copy(path, bad, st.symtab_shdr_off + 4, &zero, 4);
	CU_ASSERT_PTR_NULL(symbol_srcfile(bad, st.value + 1, buf, sizeof(buf)));
}

int pd_test_register_symbols(void)
{
	CU_pSuite s = CU_add_suite("symbols", suite_init, suite_clean);

	if (!s)
		return CU_get_error();
	if (!CU_add_test(s, "overlapping and replaced maps", test_overlap) ||
	    !CU_add_test(s, "anon, heap, vdso maps", test_special_maps) ||
	    !CU_add_test(s, "fork, threads, inheritance", test_fork_threads) ||
	    !CU_add_test(s, "exec, comm history, exit, pid reuse", test_exec_exit_reuse) ||
	    !CU_add_test(s, "processes of the whole recording", test_processes) ||
	    !CU_add_test(s, "resolution versions", test_versions) ||
	    !CU_add_test(s, "kallsyms file and callchain markers", test_kallsyms) ||
	    !CU_add_test(s, "kallsyms parsing and its description", test_kallsyms_parse) ||
	    !CU_add_test(s, "kallsyms sealed at once, as the general way", test_kallsyms_sealed_at_once) ||
	    !CU_add_test(s, "the kernel's kallsyms copy, when it fits", test_kallsyms_copy) ||
	    !CU_add_test(s, "sample stack walk", test_sample_stack) ||
	    !CU_add_test(s, "perf map file", test_perf_map) ||
	    !CU_add_test(s, "frame cache: entries and shared sites", test_frame_cache) ||
	    !CU_add_test(s, "DWARF unwinding of this process", test_unwind_self) ||
	    !CU_add_test(s, "one note for untested unwinding", test_unwind_untested_note) ||
	    !CU_add_test(s, "ELF PIE, non-PIE, shared object", test_elf_pie_nopie) ||
	    !CU_add_test(s, "build-id mismatch", test_build_id_mismatch) ||
	    !CU_add_test(s, "diagnostics of symbols and unwinding", test_sym_diags) ||
	    !CU_add_test(s, "symfs escapes and non-regular files", test_symfs_escape) ||
	    !CU_add_test(s, "symbol table alias and size rules", test_symtab_rules) ||
	    !CU_add_test(s, "symbol tree with deletions", test_many_symbols) ||
	    !CU_add_test(s, "sealed symbol tables", test_sealed_symbols) ||
	    !CU_add_test(s, "flat symbol tables", test_flat_symbols) ||
	    !CU_add_test(s, "DWARF 5 line-program prefixes", test_line_prefix_spans) ||
	    !CU_add_test(s, "source files of ELF symbols without DWARF", test_symbol_srcfile) ||
	    !CU_add_test(s, "Rust names against c++filt", test_rust_demangle_filt) ||
	    !CU_add_test(s, "Rust names from a hostile file", test_rust_demangle_hostile) ||
	    !CU_add_test(s, "C++ names as perf prints them", test_cxx_demangle) ||
	    !CU_add_test(s, "OCaml and Java names as perf prints them", test_fallback_demangle))
		return CU_get_error();
	return CUE_SUCCESS;
}
