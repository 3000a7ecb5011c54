// SPDX-License-Identifier: MIT
/*
 * unwind.c - user call stacks of `perf record --call-graph dwarf` samples.
 *
 * Such a sample carries the user registers at the moment of the sample
 * and a copy of the top of the user stack; the callers are found with the
 * call frame information (.eh_frame, .debug_frame) of each binary, the way
 * perf script does it.  libdw's dwfl does the unwinding: one Dwfl per
 * address space, kept across samples so that each DSO's ELF and CFI are
 * read once per process, with our own thread callbacks: the initial
 * registers come from the sample's regs_user, memory reads from its stack
 * copy, and addresses outside the copy from the mapped file (perf's rule:
 * only file-backed maps can be read, at their file offset).
 *
 * perf's rules for the result (tools/perf/util/unwind-libunwind-local.c
 * and unwind-libdw.c, perf 6.1):
 *  - the first frame is the sampled user ip as it is;
 *  - every caller frame is its return address minus one, except above a
 *    signal frame, where the address is where execution resumes;
 *  - frames with address 0 are left out;
 *  - at most max_stack frames, the first included;
 *  - the unwind stops at the first frame it cannot step over (memory
 *    outside the copy and outside any file, no CFI and no usable frame
 *    pointer, a frame that does not move).
 *
 * Bad input (a dyn_size larger than the copy, registers that do not match
 * sample_regs_user, a stack pointer that makes no sense, CFI that loops)
 * ends the unwind of that sample: the frames found so far stay, and its
 * diagnostic (PD851-PD855) is counted for every such sample and given for
 * the first.
 *
 * A cache of results: an unwind is a pure function of the registers, of
 * the words it reads and of the address space (whose version covers the
 * maps and the files behind them).  An entry keeps the registers and
 * every read it made with its outcome; a sample with the same version and
 * registers whose memory gives the same outcome for each of those reads
 * takes the same path through the unwinder, so it gets the stored frames.
 * Samples taken while a thread sits in a system call hit it.
 */
#include <dwarf.h>
#include <elf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "perfdata/pd_consts.h"
#include "sym_internal.h"

enum uw_arch {
	UW_ARCH_UNKNOWN = 0,
	UW_ARCH_X86_64,
	UW_ARCH_I386,		/* 32-bit processes on x86 (tested against gdb) */
	UW_ARCH_AARCH64,	/* untested: said at run time (PD856) */
	UW_ARCH_NR,
};

/* One module reported to a space's Dwfl: a DSO at a load bias. */
struct uw_mod {
	struct uw_mod *next;
	struct pd_unwinder *u;
	struct pd_dso *dso;
	uint64_t base;		/* map start - pgoff: where file offset 0 would be */
	uint64_t bias;		/* load bias it was reported at (map_bias()); ET_EXEC: 0 */
	uint64_t start, end;	/* the module's address range in the Dwfl */
	uint64_t elf_base;	/* first PT_LOAD's page (UINT64_MAX: unknown) */
	bool fixed;		/* ET_EXEC: at its own addresses, base is theirs */
	uint64_t low, low_stamp; /* lowest map of the DSO, at address-space version */
	bool low_ok;
	/*
	 * The file has a .eh_frame_hdr section: perf's libunwind glue looks
	 * FDEs up through it only, and without it find_proc_info fails
	 * (-EINVAL), which ends perf's stack instead of guessing on.
	 */
	bool eh_index;
};

/*
 * A module dwfl_addrmodule() found lately, with what the unwinder asks of
 * it.  libdwfl searches the modules' address ranges (dwfl_module_info()'s
 * start and end; no segment rounding, as nothing here reports segments):
 * while no two modules overlap and none is empty, every address of the
 * range is the module's.  Valid until the space's Dwfl changes (a report,
 * a reset).
 */
struct uw_last_mod {
	Dwfl_Module *mod;	/* NULL: nothing cached */
	uint64_t start, end;	/* dwfl_module_info()'s range */
	struct uw_mod *um;	/* its userdata */
	bool cfi_known;		/* cfi and cfi_bias are dwfl_module_eh_cfi()'s */
	Dwarf_CFI *cfi;
	Dwarf_Addr cfi_bias;
};

/*
 * The map and module of a pc report_module() found in agreement lately
 * (the module's base that of the map): any pc in the same map and module
 * agrees too, while neither the maps (the address-space version) nor the
 * Dwfl has changed.
 */
struct uw_last_ok {
	uint64_t stamp;		/* address-space version; 0: nothing cached */
	struct pd_uw_map map;
	Dwfl_Module *mod;
};

#define UW_LAST	4

struct pd_unwind_space {
	struct pd_unwinder *u;
	Dwfl *dwfl;
	bool attached;
	struct uw_mod *mods;
	uint64_t image_stamp;	/* version at which `image` was found */
	bool image;		/* some map has a readable ELF image */
	bool overlap;		/* two modules' ranges overlap: last_mod unused */
	/*
	 * A pc whose file's module came to hold modules reported before it
	 * (files mapped over part of its range, reported first because a
	 * walk met them first): reported first on a fresh Dwfl, so that those
	 * files are found as maps over it (u->overlay), never as modules.
	 */
	uint64_t first_pc;
	bool first_set;
	/* a stack goes back and forth between a few modules and maps */
	struct uw_last_mod last_mod[UW_LAST];
	struct uw_last_ok last_ok[UW_LAST];
	unsigned int next_mod, next_ok;	/* the entry to replace next */
	unsigned int hit_mod, hit_ok;	/* the entry found last: looked at first */
};

#define UW_MAX_READS	96
#define UW_MAX_REGS	40
#define UW_CACHE_BITS	10
#define UW_FD_CACHE	16
#define UW_WORD_BITS	8
#define UW_RULE_BITS	12

struct uw_read {
	uint64_t addr, value;
	bool ok;
};

struct uw_cache_ent {
	uint64_t stamp;		/* 0: empty */
	uint64_t abi, mask;
	uint32_t nregs, nreads, nframes;
	uint64_t regs[UW_MAX_REGS];
	struct uw_read reads[UW_MAX_READS];
};

/* how the fast path finds a register of the caller (uw_rule.how) */
enum uw_how {
	UW_UNDEF = 0,		/* not recoverable */
	UW_SAME,		/* unchanged */
	UW_AT,			/* saved at CFA + off */
	UW_VAL,			/* the value CFA + off */
	UW_REG,			/* in DWARF register off: the sample's (sample_dwarf_reg()) */
};

/* the registers the fast path tracks, in uw_rule.how/off order */
enum { UW_RBP = 0, UW_RSP, UW_RA, UW_RBX, UW_NR_TRACKED };
static const int uw_tracked_dwarf[UW_NR_TRACKED] = { 6, 7, 16, 3 };

/*
 * The CFI row of one address of a DSO in the form the fast path can
 * apply: CFA = a register + offset (rbp, rsp or rbx on any frame, another
 * register on the sample's own frame only), and how rbp, rsp and the return
 * address of the caller are found.  fast is false for every other row
 * (signal frames, expressions, no FDE): such frames are left to libdw.
 */
struct uw_rule {
	const struct pd_dso *dso;	/* NULL: empty slot */
	uint64_t pc;			/* address in the module (minus its bias) */
	bool fast;
	bool found;			/* some FDE covers pc */
	uint8_t cfa_reg;		/* DWARF register 0 to 15; UW_CFA_PLT */
	uint8_t how[UW_NR_TRACKED];
	int64_t cfa_off;
	int64_t off[UW_NR_TRACKED];
};

struct uw_fd {
	const struct pd_dso *dso;
	int fd;
	uint64_t size;
	uint64_t used;
};

/* a word read from a DSO's file (dso NULL: empty) */
struct uw_word {
	const struct pd_dso *dso;
	uint64_t off;
	uint64_t val;
	unsigned int size;
};

struct pd_unwinder {
	struct pd_machine *m;
	enum uw_arch arch;
	Elf *arch_elf[UW_ARCH_NR];	/* a bare ELF header naming the machine */
	unsigned char arch_img[UW_ARCH_NR][64];
	unsigned int max_stack;

	/* the sample being unwound */
	const struct pd_sample *s;
	struct pd_uw_space spc;
	uint64_t sp;			/* the stack pointer: address of the copy */
	uint64_t stack_len;		/* usable bytes of the copy */
	unsigned int word;		/* bytes of a word of the sample's process */
	uint64_t *frames;		/* max_stack entries */
	size_t nframes;
	bool first_seen, conflict, looped, log_overflow;
	/*
	 * A walk on a fresh Dwfl, where a module of another file than the
	 * map at a pc is no stale module but one of this sample's maps
	 * (overlay); overlay_look is how perf looks such a pc up.
	 */
	bool fresh, overlay;
	int overlay_look;
	uint64_t prev_pc, prev_sp;
	/*
	 * the last frame handed to us: pc for its CFI, its pc itself (what a
	 * PLT's CFA expression reads as rip), its rsp and rbp
	 */
	uint64_t last_pc, last_rip, last_sp, last_bp, last_bx;
	bool last_sp_ok, last_bp_ok, last_bx_ok, stopped;
	bool last_initial;		/* the last frame is the sampled one (fast path) */
	struct uw_read reads[UW_MAX_READS];
	uint32_t nreads;

	struct uw_cache_ent *cache;	/* 1 << UW_CACHE_BITS entries */
	uint64_t *cache_frames;		/* max_stack for each of them */
	uint64_t *cache_keys;		/* their full hashes */
	struct uw_rule *rules;		/* 1 << UW_RULE_BITS entries */
	struct uw_fd fds[UW_FD_CACHE];
	uint64_t fd_clock;
	/*
	 * The words read from files: a few instructions and data words that
	 * libdw's walks and the result cache's checks read again and again
	 * (a pread() each: 25,700 on dwarf-py.data).  DSOs live as long as
	 * the machine, and their files are taken not to change under us.
	 */
	struct uw_word words[1u << UW_WORD_BITS];

	uint64_t samples, nframes_total, cache_hits, errors;
};

/* ------------------------------------------------------------ architectures */

static enum uw_arch arch_of(const char *name)
{
	if (!name)
		return UW_ARCH_UNKNOWN;
	if (!strcmp(name, "x86_64") || !strcmp(name, "amd64"))
		return UW_ARCH_X86_64;
	if (!strcmp(name, "i386") || !strcmp(name, "i686") || !strcmp(name, "x86"))
		return UW_ARCH_I386;
	if (!strcmp(name, "aarch64") || !strcmp(name, "arm64"))
		return UW_ARCH_AARCH64;
	return UW_ARCH_UNKNOWN;
}

/*
 * perf's register numbers (arch/<arch>/include/uapi/asm/perf_regs.h) in
 * DWARF order: dwarf register i is perf register map[i]; -1 ends.
 */
static const int x86_64_dwarf_to_perf[] = {
	0 /* ax */, 3 /* dx */, 2 /* cx */, 1 /* bx */, 4 /* si */, 5 /* di */,
	6 /* bp */, 7 /* sp */, 16, 17, 18, 19, 20, 21, 22, 23 /* r8-r15 */, -1,
};
static const int i386_dwarf_to_perf[] = {
	0 /* ax */, 2 /* cx */, 3 /* dx */, 1 /* bx */, 7 /* sp */, 6 /* bp */,
	4 /* si */, 5 /* di */, -1,
};
static const int aarch64_dwarf_to_perf[] = {
	0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19,
	20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31 /* sp */, -1,
};

struct uw_regdesc {
	const int *dwarf_to_perf;
	int perf_sp, perf_ip;
	unsigned int dwarf_sp;
	int dwarf_pc;		/* the pc as a DWARF register too (-1: not) */
	uint16_t e_machine;
	unsigned char elfclass;
};

static const struct uw_regdesc regdesc[UW_ARCH_NR] = {
	[UW_ARCH_X86_64] = { x86_64_dwarf_to_perf, 7, 8, 7, 16, EM_X86_64, ELFCLASS64 },
	[UW_ARCH_I386] = { i386_dwarf_to_perf, 7, 8, 4, 8, EM_386, ELFCLASS32 },
	[UW_ARCH_AARCH64] = { aarch64_dwarf_to_perf, 31, 32, 31, -1, EM_AARCH64, ELFCLASS64 },
};

/* The value of perf register `r`; false when the sample does not have it. */
static bool perf_reg(const struct pd_regs *rg, int r, uint64_t *val)
{
	uint64_t below;
	unsigned int idx;

	if (r < 0 || r > 63 || !(rg->mask & (1ULL << r)))
		return false;
	below = rg->mask & ((1ULL << r) - 1);
	idx = (unsigned int)__builtin_popcountll(below);
	if (idx >= rg->nr)
		return false;
	*val = rg->regs[idx];
	return true;
}

/*
 * An x86_64 sample's value of DWARF register n (16: the return address,
 * its ip).  libunwind reads a register that a CFI row names (the CFA's
 * base, DW_CFA_register) through perf's access_reg, which answers with
 * the sample's registers whatever the frame.
 */
static bool sample_dwarf_reg(const struct pd_regs *rg, unsigned int n, uint64_t *val)
{
	if (n == 16)
		return perf_reg(rg, 8, val);
	if (n > 16)
		return false;
	return perf_reg(rg, x86_64_dwarf_to_perf[n], val);
}

/* The architecture of a sample's registers: the recording's, by ABI. */
static enum uw_arch sample_arch(const struct pd_unwinder *u, const struct pd_regs *rg)
{
	if (u->arch == UW_ARCH_X86_64 && rg->abi == 1)
		return UW_ARCH_I386;
	if (u->arch == UW_ARCH_I386 && rg->abi == 2)
		return UW_ARCH_X86_64;
	return u->arch;
}

/* A bare ELF header: what dwfl_attach_state needs to pick the backend. */
static Elf *arch_elf(struct pd_unwinder *u, enum uw_arch a)
{
	unsigned char *img = u->arch_img[a];
	const struct uw_regdesc *rd = &regdesc[a];

	if (u->arch_elf[a])
		return u->arch_elf[a];
	memset(img, 0, sizeof(u->arch_img[a]));
	memcpy(img, ELFMAG, SELFMAG);
	img[EI_CLASS] = rd->elfclass;
	img[EI_DATA] = ELFDATA2LSB;
	img[EI_VERSION] = EV_CURRENT;
	if (rd->elfclass == ELFCLASS64) {
		Elf64_Ehdr *eh = (Elf64_Ehdr *)(void *)img;

		eh->e_type = ET_DYN;
		eh->e_machine = rd->e_machine;
		eh->e_version = EV_CURRENT;
		eh->e_ehsize = sizeof(*eh);
	} else {
		Elf32_Ehdr *eh = (Elf32_Ehdr *)(void *)img;

		eh->e_type = ET_DYN;
		eh->e_machine = rd->e_machine;
		eh->e_version = EV_CURRENT;
		eh->e_ehsize = sizeof(*eh);
	}
	u->arch_elf[a] = elf_memory((char *)img, sizeof(u->arch_img[a]));
	return u->arch_elf[a];
}

/* ------------------------------------------------------------ files */

/* An open descriptor of the file the unwinder reads a DSO from. */
static int dso_fd(struct pd_unwinder *u, struct pd_dso *d, uint64_t *size)
{
	struct uw_fd *f, *victim = &u->fds[0];
	const char *path = d->runtime_path ? d->runtime_path : d->syms_path;
	bool under = d->runtime_path ? true : d->syms_under_root;
	struct stat sb;
	size_t i;

	for (i = 0; i < UW_FD_CACHE; i++) {
		f = &u->fds[i];
		if (f->dso == d) {
			f->used = ++u->fd_clock;
			*size = f->size;
			return f->fd;
		}
		if (f->used < victim->used)
			victim = f;
	}
	if (victim->dso && victim->fd >= 0)
		close(victim->fd);
	victim->dso = d;
	victim->used = ++u->fd_clock;
	victim->fd = path ? pd_sym_open(pd_machine_env(u->m), path, under) : -1;
	victim->size = 0;
	if (victim->fd >= 0 && fstat(victim->fd, &sb) == 0 && sb.st_size > 0)
		victim->size = (uint64_t)sb.st_size;
	*size = victim->size;
	return victim->fd;
}

/*
 * Read a word outside the stack copy: from the file behind the map that
 * covers it, as perf does (access_dso_mem).
 */
static bool read_file_word(struct pd_unwinder *u, uint64_t addr, uint64_t *val)
{
	struct pd_uw_map mp;
	struct uw_word *w;
	uint64_t off, size;
	uint32_t w32;
	int fd;

	if (!pd_machine_uw_map(u->m, u->spc.as, addr, &mp) || mp.dso->kind == PD_DSO_ANON)
		return false;
	if (mp.end - addr < u->word)
		return false;
	off = addr - mp.start;
	if (off > UINT64_MAX - mp.pgoff)
		return false;
	off += mp.pgoff;
	w = &u->words[((off >> 2) * 0x9e3779b97f4a7c15ULL) >> (64 - UW_WORD_BITS)];
	if (w->dso == mp.dso && w->off == off && w->size == u->word) {
		*val = w->val;
		return true;
	}
	fd = dso_fd(u, mp.dso, &size);
	if (fd < 0 || off > size || size - off < u->word)
		return false;
	if (u->word == sizeof(w32)) {
		if (!pd_sym_pread_all(fd, &w32, sizeof(w32), off))
			return false;
		*val = w32;
	} else if (!pd_sym_pread_all(fd, val, sizeof(*val), off)) {
		return false;
	}
	w->dso = mp.dso;
	w->off = off;
	w->size = u->word;
	w->val = *val;
	return true;
}

/* ------------------------------------------------------------ dwfl callbacks */

static bool read_word(struct pd_unwinder *u, uint64_t addr, uint64_t *val)
{
	uint32_t w32;

	/*
	 * A 32-bit process has 4-byte words: libdw takes what DW_OP_deref
	 * reads as the whole value, so 8 bytes would put the next word in
	 * the upper half.  Any word inside the copy is read from it.
	 */
	if (u->word == sizeof(w32)) {
		if (addr < u->sp || u->stack_len < sizeof(w32) ||
		    addr - u->sp > u->stack_len - sizeof(w32))
			return read_file_word(u, addr, val);
		memcpy(&w32, u->s->stack_data + (addr - u->sp), sizeof(w32));
		*val = w32;
		return true;
	}
	/*
	 * perf's access_mem (libunwind): 8 bytes from the copy when they end
	 * before its last byte (addr + 8 < end: the last word of the copy is
	 * never read from it), else from a file.
	 */
	if (addr >= u->sp && u->stack_len > sizeof(*val) &&
	    addr - u->sp < u->stack_len - sizeof(*val)) {
		memcpy(val, u->s->stack_data + (addr - u->sp), sizeof(*val));
		return true;
	}
	return read_file_word(u, addr, val);
}

/* read_word, logged for the result cache */
static bool logged_read(struct pd_unwinder *u, uint64_t addr, uint64_t *result)
{
	uint64_t val = 0;
	bool ok = read_word(u, addr, &val);

	if (u->nreads < UW_MAX_READS) {
		u->reads[u->nreads].addr = addr;
		u->reads[u->nreads].value = val;
		u->reads[u->nreads].ok = ok;
		u->nreads++;
	} else {
		u->log_overflow = true;
	}
	if (ok)
		*result = val;
	return ok;
}

static bool cb_memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result, void *arg)
{
	struct pd_unwind_space *sp = arg;

	(void)dwfl;
	return logged_read(sp->u, addr, result);
}

static pid_t cb_next_thread(Dwfl *dwfl, void *arg, void **thread_argp)
{
	struct pd_unwind_space *sp = arg;

	if (*thread_argp)
		return 0;
	*thread_argp = sp;
	return dwfl_pid(dwfl);
}

static bool cb_get_thread(Dwfl *dwfl, pid_t tid, void *arg, void **thread_argp)
{
	*thread_argp = arg;
	return true;
}

static bool cb_set_initial_registers(Dwfl_Thread *thread, void *thread_arg)
{
	struct pd_unwind_space *sp = thread_arg;
	struct pd_unwinder *u = sp->u;
	const struct pd_regs *rg = &u->s->regs_user;
	const struct uw_regdesc *rd = &regdesc[sample_arch(u, rg)];
	uint64_t pc;
	int i;

	for (i = 0; rd->dwarf_to_perf[i] >= 0; i++) {
		uint64_t v;
		Dwarf_Word w;

		/* a register the sample lacks stays unknown to the unwinder */
		if (!perf_reg(rg, rd->dwarf_to_perf[i], &v))
			continue;
		w = rd->elfclass == ELFCLASS32 ? (uint32_t)v : v;
		if (!dwfl_thread_state_registers(thread, i, 1, &w))
			return false;
	}
	if (!perf_reg(rg, rd->perf_ip, &pc))
		return false;
	if (rd->elfclass == ELFCLASS32)
		pc = (uint32_t)pc;
	/*
	 * The PLT's CFI names eip or rip (the return address column) in a
	 * CFA expression: it depends on where in an entry the pc is.
	 */
	if (rd->dwarf_pc >= 0) {
		Dwarf_Word w = pc;

		if (!dwfl_thread_state_registers(thread, rd->dwarf_pc, 1, &w))
			return false;
	}
	dwfl_thread_state_register_pc(thread, pc);
	return true;
}

static const Dwfl_Thread_Callbacks thread_callbacks = {
	.next_thread = cb_next_thread,
	.get_thread = cb_get_thread,
	.memory_read = cb_memory_read,
	.set_initial_registers = cb_set_initial_registers,
};

/*
 * Whether ELF file `e` has a section named `name` (or `alt`): 1 yes, 0
 * no, -1 unsure (not an ELF file, unreadable section headers).
 */
static int has_section(Elf *e, const char *name, const char *alt)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;

	if (!e || elf_kind(e) != ELF_K_ELF || elf_getshdrstrndx(e, &shstrndx) != 0)
		return -1;
	while ((scn = elf_nextscn(e, scn)) != NULL) {
		GElf_Shdr sh;
		const char *s;

		if (!gelf_getshdr(scn, &sh))
			return -1;
		s = elf_strptr(e, shstrndx, sh.sh_name);
		if (!s)
			return -1;
		if (!strcmp(s, name) || (alt && !strcmp(s, alt)))
			return 1;
	}
	return 0;
}

/*
 * Whether an ELF file has a .debug_frame section.  libdw asks for a
 * module's DWARF only for its .debug_frame (when .eh_frame has no row for
 * an address) but reads, and decompresses, every DWARF section of the
 * file to get it, once per process; distributions' debug files mostly
 * have none.  Unsure answers are yes: libdw then decides as before.
 */
static bool has_debug_frame(int fd)
{
	Elf *e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	bool found = has_section(e, ".debug_frame", ".zdebug_frame") != 0;

	if (e)
		elf_end(e);
	return found;
}

/*
 * .debug_frame of a DSO whose symbols came from a separate debug file:
 * that file, found the way symbols are (build-id cache, /usr/lib/debug),
 * opened under the same rules.  A file without one is not handed over:
 * libdw's answer is no CFI either way, without reading its DWARF.
 */
static int cb_find_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname,
			     Dwarf_Addr base, const char *file_name, const char *debuglink_file,
			     GElf_Word debuglink_crc, char **debuginfo_file_name)
{
	struct uw_mod *um = *userdata;
	struct pd_dso *d;
	int fd;

	if (!um)
		return -1;
	d = um->dso;
	if (!d->syms_path || (d->runtime_path && !strcmp(d->syms_path, d->runtime_path)))
		return -1;
	fd = pd_sym_open(pd_machine_env(um->u->m), d->syms_path, d->syms_under_root);
	if (fd < 0)
		return -1;
	if (!has_debug_frame(fd)) {
		close(fd);
		return -1;
	}
	*debuginfo_file_name = strdup(d->syms_path);
	return fd;
}

static int cb_find_elf(Dwfl_Module *mod, void **userdata, const char *modname, Dwarf_Addr base,
		       char **file_name, Elf **elfp)
{
	return -1;
}

static const Dwfl_Callbacks dwfl_callbacks = {
	.find_elf = cb_find_elf,
	.find_debuginfo = cb_find_debuginfo,
};

/* ------------------------------------------------------------ spaces */

/* The space's Dwfl changed: what was found in it may be stale. */
static void space_forget(struct pd_unwind_space *sp)
{
	memset(sp->last_mod, 0, sizeof(sp->last_mod));
	memset(sp->last_ok, 0, sizeof(sp->last_ok));
	sp->hit_mod = sp->hit_ok = 0;
}

struct uw_ranges {
	uint64_t (*r)[2];
	size_t nr, cap;
	bool failed;
};

static int collect_range(Dwfl_Module *mod, void **ud, const char *name, Dwarf_Addr start,
			 void *arg)
{
	struct uw_ranges *rs = arg;
	Dwarf_Addr low = 0, high = 0;

	(void)ud;
	(void)name;
	(void)start;
	dwfl_module_info(mod, NULL, &low, &high, NULL, NULL, NULL, NULL);
	if (!pd_grow(&rs->r, &rs->cap, rs->nr + 1, sizeof(*rs->r), SIZE_MAX)) {
		rs->failed = true;
		return DWARF_CB_ABORT;
	}
	rs->r[rs->nr][0] = low;
	rs->r[rs->nr][1] = high;
	rs->nr++;
	return DWARF_CB_OK;
}

/*
 * Whether two modules of the space's Dwfl share an address, or one is
 * empty (libdwfl's search gives it an address); true when unknown.
 */
static bool modules_overlap(struct pd_unwind_space *sp)
{
	struct uw_ranges rs = { 0 };
	bool overlap = false;
	size_t i, j;

	if (dwfl_getmodules(sp->dwfl, collect_range, &rs, 0) != 0 || rs.failed) {
		free(rs.r);
		return true;
	}
	for (i = 0; i < rs.nr && !overlap; i++)
		overlap = rs.r[i][0] >= rs.r[i][1];
	for (i = 0; i < rs.nr && !overlap; i++)
		for (j = i + 1; j < rs.nr && !overlap; j++)
			overlap = rs.r[i][0] < rs.r[j][1] && rs.r[j][0] < rs.r[i][1];
	free(rs.r);
	return overlap;
}

/*
 * dwfl_addrmodule(sp->dwfl, pc) and the module's userdata in *um, from
 * the last module found when pc is in its range.
 */
static Dwfl_Module *space_addrmodule(struct pd_unwind_space *sp, uint64_t pc, struct uw_mod **um)
{
	struct uw_last_mod *lm;
	Dwfl_Module *mod;
	Dwarf_Addr start = 0, end = 0;
	void **ud;
	unsigned int i;

	/* an empty entry's range is empty */
	lm = &sp->last_mod[sp->hit_mod];
	if (pc - lm->start < lm->end - lm->start) {
		*um = lm->um;
		return lm->mod;
	}
	for (i = 0; i < UW_LAST; i++) {
		lm = &sp->last_mod[i];
		if (pc - lm->start < lm->end - lm->start) {
			sp->hit_mod = i;
			*um = lm->um;
			return lm->mod;
		}
	}
	mod = dwfl_addrmodule(sp->dwfl, pc);
	if (!mod) {
		*um = NULL;
		return NULL;
	}
	dwfl_module_info(mod, &ud, &start, &end, NULL, NULL, NULL, NULL);
	*um = ud ? *ud : NULL;
	if (!sp->overlap && pc >= start && pc < end) {
		sp->hit_mod = sp->next_mod++ % UW_LAST;
		lm = &sp->last_mod[sp->hit_mod];
		lm->mod = mod;
		lm->start = start;
		lm->end = end;
		lm->um = *um;
		lm->cfi_known = false;
	}
	return mod;
}

/* dwfl_module_eh_cfi(mod, bias), kept for the modules space_addrmodule() keeps */
static Dwarf_CFI *space_eh_cfi(struct pd_unwind_space *sp, Dwfl_Module *mod, Dwarf_Addr *bias)
{
	struct uw_last_mod *lm = NULL;
	Dwarf_CFI *cfi;
	unsigned int i;

	if (sp->last_mod[sp->hit_mod].mod == mod)
		lm = &sp->last_mod[sp->hit_mod];
	for (i = 0; i < UW_LAST && !lm; i++)
		if (sp->last_mod[i].mod == mod)
			lm = &sp->last_mod[i];
	if (lm && lm->cfi_known) {
		*bias = lm->cfi_bias;
		return lm->cfi;
	}
	cfi = dwfl_module_eh_cfi(mod, bias);
	if (lm) {
		lm->cfi = cfi;
		lm->cfi_bias = *bias;
		lm->cfi_known = true;
	}
	return cfi;
}

static void space_reset(struct pd_unwind_space *sp)
{
	struct uw_mod *um, *next;

	if (sp->dwfl)
		dwfl_end(sp->dwfl);
	sp->dwfl = NULL;
	sp->attached = false;
	for (um = sp->mods; um; um = next) {
		next = um->next;
		free(um);
	}
	sp->mods = NULL;
	sp->overlap = false;
	space_forget(sp);
}

/* the model frees a space's state through its slot (struct pd_uw_slot) */
static void space_free(void *state)
{
	struct pd_unwind_space *sp = state;

	if (!sp)
		return;
	space_reset(sp);
	free(sp);
}

/* The module's ELF and its first PT_LOAD header in *ph; NULL when none. */
static Elf *first_load(Dwfl_Module *mod, GElf_Phdr *ph)
{
	Dwarf_Addr bias;
	Elf *e = dwfl_module_getelf(mod, &bias);
	size_t i, n = 0;

	if (!e || elf_getphdrnum(e, &n) != 0)
		return NULL;
	for (i = 0; i < n; i++)
		if (gelf_getphdr(e, (int)i, ph) && ph->p_type == PT_LOAD)
			return e;
	return NULL;
}

/* the page of a module's first PT_LOAD (perf's elf_base_address()) */
static uint64_t first_load_page(Dwfl_Module *mod)
{
	GElf_Phdr ph;

	return first_load(mod, &ph) ? ph.p_vaddr & ~(uint64_t)4095 : UINT64_MAX;
}

/* An ET_EXEC module's file offset 0 at its link addresses, in *base. */
static bool exec_file_base(Dwfl_Module *mod, uint64_t *base)
{
	GElf_Phdr ph;
	GElf_Ehdr eh;
	Elf *e = first_load(mod, &ph);

	if (!e || !gelf_getehdr(e, &eh) || eh.e_type != ET_EXEC)
		return false;
	*base = (ph.p_vaddr & ~(uint64_t)4095) - (ph.p_offset & ~(uint64_t)4095);
	return true;
}

/*
 * The load bias of the map `mp` holding `pc`: its start minus the link
 * address of its first byte, from the PT_LOAD that maps its file page
 * there.  ld.bfd gives every segment a link address equal to its file
 * offset modulo the page, so map start - pgoff is the bias whatever the
 * segment; lld (code one page above its file offset) and BOLT (a second
 * code segment aligned to 2 MiB) do not, and a page can be in two
 * segments (lld's read-only data and code share one): the segment is the
 * one whose addresses hold pc at that bias.  ET_EXEC: 0 when the map is
 * at its link addresses.  Without such a segment, map start - pgoff.
 */
static uint64_t map_bias(Elf *e, const struct pd_uw_map *mp, uint64_t pc)
{
	uint64_t naive = mp->start - mp->pgoff;
	size_t i, n = 0;
	GElf_Phdr ph;

	if (!e || elf_getphdrnum(e, &n) != 0)
		return naive;
	for (i = 0; i < n; i++) {
		uint64_t off, vaddr, bias;

		if (!gelf_getphdr(e, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		off = ph.p_offset & ~(uint64_t)4095;
		vaddr = ph.p_vaddr & ~(uint64_t)4095;
		if (mp->pgoff < off || mp->pgoff - off >= ph.p_offset - off + ph.p_filesz)
			continue;
		bias = naive - (vaddr - off);
		if (pc - bias >= ph.p_vaddr && pc - bias - ph.p_vaddr < ph.p_memsz)
			return bias;
	}
	return naive;
}

static int overlay_look(struct pd_unwinder *u, const struct pd_uw_map *mp);

/*
 * Make sure the DSO mapped at `pc` is a module of the space's Dwfl at the
 * right place.  A module left from maps that have changed since makes the
 * unwind start over on a fresh Dwfl (u->conflict).  On the fresh Dwfl, a
 * module of another file at pc is one of the sample's own maps, a file
 * mapped over part of another's range (u->overlay).
 */
static void report_module(struct pd_unwinder *u, struct pd_unwind_space *sp, uint64_t pc)
{
	struct uw_last_ok *ok;
	struct pd_uw_map mp;
	struct uw_mod *um;
	Dwfl_Module *mod;
	uint64_t size, base;
	const char *path;
	void **ud;
	Elf *elf;
	unsigned int i;
	int fd;

	mod = space_addrmodule(sp, pc, &um);
	/*
	 * The same map (the maps unchanged) and module as a pc found in
	 * agreement.  An empty entry has no module: it matches nothing.
	 */
	for (i = 0; mod && i <= UW_LAST; i++) {
		ok = &sp->last_ok[i ? i - 1 : sp->hit_ok];
		if (ok->stamp == u->spc.stamp && mod == ok->mod &&
		    pc - ok->map.start < ok->map.end - ok->map.start && pc >= ok->map.pgoff) {
			sp->hit_ok = (unsigned int)(ok - sp->last_ok);
			return;
		}
	}
	if (!pd_machine_uw_map(u->m, u->spc.as, pc, &mp) || pc < mp.pgoff)
		return;
	base = mp.start - mp.pgoff;
	if (mod) {
		Dwarf_Addr dwfl_bias;

		/* a map like the one it was reported for needs no look at the segments */
		if (u->fresh && um && um->dso != mp.dso && mp.dso->kind == PD_DSO_USER) {
			u->overlay = true;
			u->overlay_look = overlay_look(u, &mp);
		} else if (!um || um->dso != mp.dso ||
		    (um->base != base &&
		     um->bias != map_bias(dwfl_module_getelf(mod, &dwfl_bias), &mp, pc))) {
			u->conflict = true;
		} else if (um->base == base) {
			/* map_bias() depends on pc: only a base match holds for the whole map */
			sp->hit_ok = sp->next_ok++ % UW_LAST;
			ok = &sp->last_ok[sp->hit_ok];
			ok->stamp = u->spc.stamp;
			ok->map = mp;
			ok->mod = mod;
		}
		return;
	}
	/*
	 * Reported, but its file had no room for pc; or an ET_EXEC, which is
	 * at its own addresses whatever the map: pc is in a part of the file
	 * mapped again elsewhere (remapped_file()).
	 */
	for (um = sp->mods; um; um = um->next)
		if (um->dso == mp.dso && (um->base == base || um->fixed))
			return;
	if (mp.dso->kind != PD_DSO_USER && mp.dso->kind != PD_DSO_VDSO)
		return;
	path = mp.dso->runtime_path ? mp.dso->runtime_path : mp.dso->syms_path;
	if (!path)
		return;
	um = calloc(1, sizeof(*um));
	if (!um)
		return;
	um->u = u;
	um->dso = mp.dso;
	um->base = base;
	um->elf_base = UINT64_MAX;
	um->next = sp->mods;
	sp->mods = um;
	fd = pd_sym_open(pd_machine_env(u->m), path, mp.dso->runtime_path ? true : mp.dso->syms_under_root);
	if (fd < 0)
		return;
	(void)size;
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	um->bias = map_bias(elf, &mp, pc);
	um->eh_index = has_section(elf, ".eh_frame_hdr", NULL) != 0;
	if (elf)
		elf_end(elf);
	dwfl_report_begin_add(sp->dwfl);
	/*
	 * um->bias is the load bias: with add_p_vaddr, libdwfl puts the
	 * module at it plus its first PT_LOAD's address.  Without, it would
	 * take it for that address, one that is not 0 in a library linked
	 * at a base of its own (-Ttext-segment, lld's --image-base) and put
	 * the module that far too low, where no pc finds it.
	 */
	mod = dwfl_report_elf(sp->dwfl, mp.dso->short_name, path, fd, um->bias, true);
	dwfl_report_end(sp->dwfl, NULL, NULL);
	space_forget(sp);
	{
		bool had = sp->overlap;

		sp->overlap = modules_overlap(sp);
		if (mod && sp->overlap && !had && !(sp->first_set && sp->first_pc == pc)) {
			sp->first_pc = pc;
			sp->first_set = true;
			u->conflict = true;
		}
	}
	if (!mod) {
		close(fd);
		return;
	}
	dwfl_module_info(mod, &ud, NULL, NULL, NULL, NULL, NULL, NULL);
	if (ud)
		*ud = um;
	um->elf_base = first_load_page(mod);
	/*
	 * libdwfl puts an ET_EXEC at its own addresses whatever the map: its
	 * base is theirs.  Reporting it again (for a part of it mapped
	 * elsewhere) would make libdwfl drop the module.
	 */
	um->fixed = exec_file_base(mod, &um->base);
	if (um->fixed)
		um->bias = 0;
}

static struct pd_unwind_space *space_get(struct pd_unwinder *u, enum uw_arch a)
{
	struct pd_unwind_space *sp = u->spc.slot->state;

	if (!sp) {
		sp = calloc(1, sizeof(*sp));
		if (!sp)
			return NULL;
		sp->u = u;
		u->spc.slot->state = sp;
		u->spc.slot->free = space_free;
	}
	if (!sp->dwfl) {
		sp->dwfl = dwfl_begin(&dwfl_callbacks);
		if (!sp->dwfl)
			return NULL;
	}
	if (!sp->attached) {
		Elf *e = arch_elf(u, a);

		if (!e || !dwfl_attach_state(sp->dwfl, e, u->spc.pid > 0 ? u->spc.pid : 1,
					     &thread_callbacks, sp))
			return NULL;
		sp->attached = true;
	}
	return sp;
}

/* ------------------------------------------------------------ unwinding */

/* The CFI of pc marks it as a signal trampoline (augmentation 'S'). */
static bool is_signal_trampoline(struct pd_unwind_space *sp, uint64_t pc)
{
	Dwfl_Module *mod = dwfl_addrmodule(sp->dwfl, pc);
	Dwarf_Addr bias = 0, start, end;
	Dwarf_Frame *frame = NULL;
	Dwarf_CFI *cfi;
	bool signalp = false;

	if (!mod)
		return false;
	cfi = dwfl_module_eh_cfi(mod, &bias);
	if (!cfi || dwarf_cfi_addrframe(cfi, pc - bias, &frame) != 0) {
		cfi = dwfl_module_dwarf_cfi(mod, &bias);
		if (!cfi || dwarf_cfi_addrframe(cfi, pc - bias, &frame) != 0)
			return false;
	}
	dwarf_frame_info(frame, &start, &end, &signalp);
	free(frame);
	return signalp;
}

static void remember_last(struct pd_unwinder *u, Dwfl_Frame *state, uint64_t cfi_pc,
			  uint64_t pc)
{
	u->last_pc = cfi_pc;
	u->last_rip = pc;
	u->last_sp_ok = dwfl_frame_reg(state, 7, &u->last_sp) == 0;
	u->last_bp_ok = dwfl_frame_reg(state, 6, &u->last_bp) == 0;
}

static int cb_frame(Dwfl_Frame *state, void *arg)
{
	struct pd_unwind_space *sp = arg;
	struct pd_unwinder *u = sp->u;
	unsigned int dwarf_sp = regdesc[sample_arch(u, &u->s->regs_user)].dwarf_sp;
	Dwarf_Addr pc;
	Dwarf_Word spv = 0;
	bool activation;

	if (!dwfl_frame_pc(state, &pc, NULL))
		return DWARF_CB_ABORT;
	/* the module of pc must be known before its frame is stepped over */
	report_module(u, sp, pc);
	if (u->conflict)
		return DWARF_CB_ABORT;
	if (!u->first_seen) {
		/* the sampled ip itself was taken from the registers */
		u->first_seen = true;
		u->prev_pc = pc;
		dwfl_frame_reg(state, dwarf_sp, &u->prev_sp);
		remember_last(u, state, pc, pc);
		if (u->nframes < u->max_stack)
			return DWARF_CB_OK;
		u->stopped = true;
		return DWARF_CB_ABORT;
	}
	if (!dwfl_frame_pc(state, &pc, &activation))
		return DWARF_CB_ABORT;
	/* a frame that does not move would come back forever */
	if (dwfl_frame_reg(state, dwarf_sp, &spv) == 0 && pc == u->prev_pc && spv == u->prev_sp) {
		u->looped = true;
		return DWARF_CB_ABORT;
	}
	u->prev_pc = pc;
	u->prev_sp = spv;
	/*
	 * perf takes the return address minus one for every caller but the
	 * frame a signal interrupted; the trampoline itself (__restore_rt)
	 * counts as a caller there, although libdw calls it an activation.
	 */
	remember_last(u, state, activation ? pc : pc - 1, pc);
	if (!activation || is_signal_trampoline(sp, pc))
		pc--;
	if (pc)
		u->frames[u->nframes++] = pc;
	if (u->nframes < u->max_stack)
		return DWARF_CB_OK;
	u->stopped = true;
	return DWARF_CB_ABORT;
}

static bool is_plt_cfa(const Dwarf_Op *ops, size_t nops);
static int libunwind_guess(struct pd_unwinder *u, uint64_t pc, bool *set, uint64_t *val);

/*
 * The last frame of libdw's walk has no FDE in a file that has an
 * .eh_frame_hdr: perf's libunwind guesses there (libunwind_guess()),
 * reading the frame-pointer chain as perf's accessor answers (0 for a
 * word of a map no file gives).  Whether that guess is a return address
 * of 0: the frame libdw's own guess could not read (a handler on an
 * alternate stack interrupting code without CFI, its rbp on the main
 * stack outside the copy).
 */
static bool last_guess_reads_zero(struct pd_unwinder *u, struct pd_unwind_space *sp)
{
	uint64_t val[UW_NR_TRACKED] = { 0 };
	bool set[UW_NR_TRACKED] = { false };
	struct uw_mod *um;

	if (!space_addrmodule(sp, u->last_pc, &um) || !um || !um->eh_index)
		return false;
	set[UW_RSP] = u->last_sp_ok;
	val[UW_RSP] = u->last_sp;
	set[UW_RBP] = u->last_bp_ok;
	val[UW_RBP] = u->last_bp;
	return libunwind_guess(u, u->last_rip, set, val) == 1 && set[UW_RA] && val[UW_RA] == 0;
}

/*
 * libdw ends a stack when a return address reads as 0 or cannot be read
 * (the copy is too short); perf's libunwind takes 0 for it (its memory
 * accessor answers 0 on failure), makes it one more frame and prints it
 * as 0 - 1.  For the last frame
 * of a stack that ended normally, find the return address its CFI gives
 * (the usual rules: CFA = register + offset, or a lazy PLT's expression
 * on rsp and rip; return address saved at CFA + offset) and whether it
 * is that 0; without CFI for it, whether perf's guess reads that 0.
 */
static bool last_ra_unreadable_or_zero(struct pd_unwinder *u, struct pd_unwind_space *sp, int ret)
{
	Dwfl_Module *mod = dwfl_addrmodule(sp->dwfl, u->last_pc);
	Dwarf_Addr bias = 0;
	Dwarf_Frame *frame = NULL;
	Dwarf_CFI *cfi;
	Dwarf_Op ops_mem[3], *ops;
	size_t nops;
	uint64_t cfa, base, ra = 1;
	bool ok = false;

	if (!mod)
		return false;
	cfi = dwfl_module_eh_cfi(mod, &bias);
	if (!cfi || dwarf_cfi_addrframe(cfi, u->last_pc - bias, &frame) != 0) {
		cfi = dwfl_module_dwarf_cfi(mod, &bias);
		if (!cfi || dwarf_cfi_addrframe(cfi, u->last_pc - bias, &frame) != 0)
			return last_guess_reads_zero(u, sp);
	}
	/* libdw failed on a frame it has CFI for: as before */
	if (ret != 0 || dwarf_frame_cfa(frame, &ops, &nops) != 0)
		goto out;
	if (is_plt_cfa(ops, nops)) {
		/* a stub the signal frame leads to, its caller's return address past the copy */
		if (!u->last_sp_ok)
			goto out;
		cfa = u->last_sp + ops[0].number + ((u->last_rip & 15) >= 11 ? 8 : 0);
	} else if (nops != 1) {
		goto out;
	} else if (ops[0].atom == DW_OP_bregx || (ops[0].atom >= DW_OP_breg0 && ops[0].atom <= DW_OP_breg31)) {
		uint64_t reg = ops[0].atom == DW_OP_bregx ? ops[0].number :
			       (uint64_t)(ops[0].atom - DW_OP_breg0);
		uint64_t off = ops[0].atom == DW_OP_bregx ? ops[0].number2 : ops[0].number;

		if (reg == 7 && u->last_sp_ok)
			base = u->last_sp;
		else if (reg == 6 && u->last_bp_ok)
			base = u->last_bp;
		else
			goto out;
		cfa = base + off;
	} else {
		goto out;
	}
	if (dwarf_frame_register(frame, 16, ops_mem, &ops, &nops) != 0 || nops != 2 ||
	    ops[0].atom != DW_OP_call_frame_cfa || ops[1].atom != DW_OP_plus_uconst)
		goto out;
	/* a return address that cannot be read is 0 to perf as well */
	ok = !read_word(u, cfa + ops[1].number, &ra) || ra == 0;
out:
	free(frame);
	return ok;
}

/* ------------------------------------------------------------ fast path */

/*
 * Almost every frame of x86_64 code has one of a few CFI rows: the CFA is
 * rsp, rbp or rbx plus an offset (or the lazy PLT's expression), the
 * return address, rbp and rbx are saved at CFA + N or unchanged, rsp is
 * the CFA.  For those, libdw's walk
 * (frame_unwind.c: handle_cfi) comes down to two additions and two reads,
 * but costs a search, a CFI program run and a few allocations per frame.
 * The fast path applies the row itself, with libdw's rules for registers
 * that are unknown or cannot be read; the row of each (DSO, address) is
 * taken from libdw once (dwarf_cfi_addrframe on the module's .eh_frame,
 * the CFI libdw's walk tries first) and kept across samples and
 * processes.  A sample whose walk meets anything else (a signal frame, a
 * CFI expression, an address without an .eh_frame row, a module that is
 * not where the maps say) is unwound by libdw from its start instead, so
 * the frames are libdw's either way.
 */

/*
 * The CFA of a lazy PLT's entries as ld writes it: rsp + N, 8 more once
 * the entry has pushed its index (from byte 11 of the 16 on):
 * DW_OP_breg7 N; DW_OP_breg16 0; lit15; and; lit11; ge; lit3; shl; plus.
 * libunwind evaluates it with rip, the frame's pc.
 */
#define UW_CFA_PLT	16

static bool is_plt_cfa(const Dwarf_Op *ops, size_t nops)
{
	static const uint8_t want[] = {
		DW_OP_breg7, DW_OP_breg16, DW_OP_lit15, DW_OP_and, DW_OP_lit11, DW_OP_ge,
		DW_OP_lit3, DW_OP_shl, DW_OP_plus,
	};
	size_t i;

	if (nops != sizeof(want))
		return false;
	for (i = 0; i < nops; i++)
		if (ops[i].atom != want[i])
			return false;
	return ops[1].number == 0;
}

static bool rule_decode(Dwarf_Frame *fr, struct uw_rule *r)
{
	Dwarf_Addr start, end;
	Dwarf_Op ops_mem[3], *ops;
	bool signalp = false;
	uint64_t reg;
	size_t nops;
	int i;

	if (dwarf_frame_info(fr, &start, &end, &signalp) != 16 || signalp)
		return false;
	if (dwarf_frame_cfa(fr, &ops, &nops) != 0)
		return false;
	if (is_plt_cfa(ops, nops)) {
		r->cfa_reg = UW_CFA_PLT;
		r->cfa_off = (int64_t)ops[0].number;
		goto regs;
	}
	if (nops != 1)
		return false;
	if (ops[0].atom == DW_OP_bregx) {
		reg = ops[0].number;
		r->cfa_off = (int64_t)ops[0].number2;
	} else if (ops[0].atom >= DW_OP_breg0 && ops[0].atom <= DW_OP_breg31) {
		reg = (uint64_t)(ops[0].atom - DW_OP_breg0);
		r->cfa_off = (int64_t)ops[0].number;
	} else {
		return false;
	}
	/*
	 * rbx: ld.so's _dl_runtime_resolve keeps its CFA there; rdi:
	 * __longjmp's, once it restores the registers of setjmp's caller
	 * (fast_unwind() takes registers other than rsp, rbp and rbx from
	 * the sample, so only on its first frame)
	 */
	if (reg > 15)
		return false;
	r->cfa_reg = (uint8_t)reg;
regs:
	for (i = 0; i < UW_NR_TRACKED; i++) {
		size_t n = 1;

		if (dwarf_frame_register(fr, uw_tracked_dwarf[i], ops_mem, &ops, &nops) != 0)
			return false;
		if (nops == 0) {
			/*
			 * libdw: ops_mem means undefined, NULL the same value.
			 * A register the CFI says nothing of is unchanged for
			 * libunwind; libdw takes the x86_64 ABI's rules instead,
			 * and elfutils' (0.188) has rbx undefined (its same-value
			 * rule names DWARF register 0, rax).  No compiler writes
			 * DW_CFA_undefined for rbx: an undefined rbx is a rule
			 * the CFI does not have, unchanged as perf takes it.  It
			 * matters where a CFA is kept in rbx (ld.so's lazy
			 * binding trampolines) above a frame that has not saved
			 * it yet (_dl_fixup's first instructions).
			 */
			if (ops == ops_mem && i != UW_RBX)
				r->how[i] = UW_UNDEF;
			else if (!ops || ops == ops_mem)
				r->how[i] = UW_SAME;
			else
				return false;
			continue;
		}
		if (nops == 1 && ops[0].atom == DW_OP_regx && ops[0].number <= 16) {
			/* DW_CFA_register: __longjmp's rsp in r8, rbp in r9, return address in rdx */
			r->how[i] = UW_REG;
			r->off[i] = (int64_t)ops[0].number;
			continue;
		}
		if (ops[0].atom != DW_OP_call_frame_cfa)
			return false;
		r->off[i] = 0;
		if (n < nops && ops[n].atom == DW_OP_plus_uconst)
			r->off[i] = (int64_t)ops[n++].number;
		r->how[i] = UW_AT;
		if (n < nops && ops[n].atom == DW_OP_stack_value) {
			r->how[i] = UW_VAL;
			n++;
		}
		if (n != nops)
			return false;
	}
	return true;
}

static const struct uw_rule *rule_get(struct pd_unwinder *u, const struct pd_dso *dso,
				      Dwarf_CFI *cfi, uint64_t pc)
{
	uint64_t h = ((uint64_t)(uintptr_t)dso ^ pc) * 0x9e3779b97f4a7c15ULL;
	struct uw_rule *r = &u->rules[h >> (64 - UW_RULE_BITS)];
	Dwarf_Frame *fr = NULL;

	if (r->dso == dso && r->pc == pc)
		return r;
	memset(r, 0, sizeof(*r));
	r->dso = dso;
	r->pc = pc;
	if (dwarf_cfi_addrframe(cfi, pc, &fr) == 0) {
		r->found = true;
		r->fast = rule_decode(fr, r);
	}
	free(fr);
	return r;
}

/*
 * The load bias perf's libunwind glue gives a DSO's .eh_frame_hdr
 * (read_unwind_spec_eh_frame): the lowest start less file offset of the
 * DSO's maps in the address space, minus its first PT_LOAD's page (the
 * offset counts where a file's code is not on a page: perf inject --jit's
 * files map their code from offset 0x80).  Maps left from the
 * image before an exec count too (perf keeps them), so in a process that
 * exec'd again (a shell script running its program, a wrapper) a library
 * both images use is looked up where the older image had it: the search
 * is off by the distance between the two, finds no FDE (or, when the two
 * are close, another function's) and libunwind falls back to its guesses.
 */
static uint64_t perf_bias(struct pd_unwinder *u, struct uw_mod *um, uint64_t bias)
{
	if (um->elf_base == UINT64_MAX)
		return bias;
	if (um->low_stamp != u->spc.stamp || !um->low_stamp) {
		um->low_ok = pd_machine_uw_dso_base(u->spc.as, um->dso, &um->low);
		um->low_stamp = u->spc.stamp;
	}
	if (!um->low_ok)
		return bias;
	return um->low - um->elf_base;
}

enum uw_look {
	UW_LOOK_FAST,		/* a row the fast path applies */
	UW_LOOK_LIBDW,		/* another row, or no .eh_frame: libdw's walk */
	UW_LOOK_NONE,		/* .eh_frame has no FDE for it (as perf looks) */
	UW_LOOK_STOP,		/* no readable file with CFI is mapped there */
};

/*
 * No module holds `pc`, but a file is mapped there that is also mapped
 * where its module is: a part of it mapped again elsewhere (V8 in node
 * maps its embedded builtins from /usr/bin/node a second time, far from
 * the rest).  perf finds the map's DSO and searches its .eh_frame_hdr at
 * the DSO's bias (from its lowest map), which cannot hold an address that
 * far: no FDE, and libunwind guesses.  Only in a file perf reads that
 * index from: a file it cannot open or that is no ELF with one (a JIT's
 * deleted memfd mapped twice, writable and executable, as Erlang's is;
 * SBCL's core) fails the lookup with an error, which ends the stack.
 */
static bool remapped_file(struct pd_unwinder *u, struct pd_unwind_space *sp, uint64_t pc)
{
	struct pd_uw_map mp, first;
	struct uw_mod *um;
	uint64_t low;

	if (!pd_machine_uw_map(u->m, u->spc.as, pc, &mp) || mp.dso->kind != PD_DSO_USER ||
	    !pd_machine_uw_dso_low(u->spc.as, mp.dso, &low) || low >= mp.start ||
	    !pd_machine_uw_map(u->m, u->spc.as, low, &first) || first.dso != mp.dso ||
	    first.start - first.pgoff == mp.start - mp.pgoff)
		return false;
	for (um = sp->mods; um; um = um->next)
		if (um->dso == mp.dso && um->eh_index)
			return true;
	return false;
}

/* Has the module's .debug_frame an FDE for pc (a module address)? */
static bool debug_frame_covers(Dwfl_Module *mod, uint64_t pc)
{
	Dwarf_Frame *fr = NULL;
	Dwarf_Addr bias = 0;
	Dwarf_CFI *cfi = dwfl_module_dwarf_cfi(mod, &bias);
	bool found;

	if (!cfi)
		return false;
	found = dwarf_cfi_addrframe(cfi, pc - bias, &fr) == 0;
	free(fr);
	return found;
}

/* The row perf's lookup finds for the frame at `pc`, if the fast path can apply it. */
static const struct uw_rule *fast_rule(struct pd_unwinder *u, struct pd_unwind_space *sp,
				       uint64_t pc, enum uw_look *look)
{
	struct uw_mod *um;
	Dwfl_Module *mod = space_addrmodule(sp, pc, &um);
	const struct uw_rule *r;
	Dwarf_Addr bias = 0;
	Dwarf_CFI *cfi;

	/*
	 * perf's find_proc_info fails for an address outside any readable
	 * file (anonymous or JIT memory, a file it cannot open, garbage):
	 * the stack ends there, where libdw would guess on from rbp.
	 */
	*look = UW_LOOK_STOP;
	if (!mod) {
		if (remapped_file(u, sp, pc))
			*look = UW_LOOK_NONE;
		return NULL;
	}
	if (!um)
		return NULL;
	*look = UW_LOOK_LIBDW;
	cfi = space_eh_cfi(sp, mod, &bias);
	if (!cfi) {
		/*
		 * No .eh_frame, or an empty one: an index with no FDE in it
		 * (the files perf inject --jit writes for a jitdump's code)
		 * is searched and fails as one without pc's.
		 */
		if (!debug_frame_covers(mod, pc))
			*look = um->eh_index ? UW_LOOK_NONE : UW_LOOK_STOP;
		return NULL;
	}
	r = rule_get(u, um->dso, cfi, pc - perf_bias(u, um, bias));
	if (r->fast) {
		*look = UW_LOOK_FAST;
		return r;
	}
	/*
	 * A frame .debug_frame has an FDE for is left to libdw, which reads
	 * it: perf 6.1 as Debian builds it never does (its libunwind has no
	 * dwarf_find_debug_frame) and ends the stack or guesses there, as
	 * below, where the CFI gives the right frame (Go, C built with
	 * -fno-asynchronous-unwind-tables; README).  With an FDE in neither
	 * (libdw would guess from rbp), libunwind guesses where the index
	 * has no FDE for pc, but perf's stack ends where the file has no
	 * index (a library built without unwind tables, whose .eh_frame is a
	 * terminator alone; a static binary, Free Pascal's with its
	 * .debug_frame too).
	 */
	if (!r->found && !debug_frame_covers(mod, pc))
		*look = um->eh_index ? UW_LOOK_NONE : UW_LOOK_STOP;
	return NULL;
}

/*
 * How perf looks up a pc whose map is of another file than the module
 * under it: perf finds the map's file and searches its own .eh_frame_hdr.
 * The files perf inject --jit writes for a JIT's code mapped over the
 * program's text (node's embedded builtins, logged by --perf-prof) have
 * an index but no FDE in an empty .eh_frame: libunwind guesses on.  A
 * file without an index ends the stack.
 */
static int overlay_look(struct pd_unwinder *u, const struct pd_uw_map *mp)
{
	const char *path = mp->dso->runtime_path ? mp->dso->runtime_path : mp->dso->syms_path;
	bool index = false;
	Elf *elf;
	int fd;

	if (!path)
		return UW_LOOK_STOP;
	fd = pd_sym_open(pd_machine_env(u->m), path,
			 mp->dso->runtime_path ? true : mp->dso->syms_under_root);
	if (fd < 0)
		return UW_LOOK_STOP;
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (elf) {
		index = has_section(elf, ".eh_frame_hdr", NULL) != 0;
		elf_end(elf);
	}
	close(fd);
	return index ? UW_LOOK_NONE : UW_LOOK_STOP;
}

enum uw_fast { UW_FAST_LIBDW = -2 };

/*
 * perf's libunwind (x86_64 unw_step, libunwind 1.6) when no FDE covers
 * the frame at `pc`: a signal trampoline is recognised by its code (left
 * to libdw here), a lazy PLT entry has its return address at rsp, and
 * anything else is guessed to keep its frame pointer: the caller's rbp
 * is at [rbp] and its return address at [rbp + 8], taken when rbp lies
 * within 16 KiB above the frame's stack pointer and [rbp] can be read;
 * the caller's stack pointer is the frame's plus 16.  No rbp (or 0) ends
 * the stack.  Returns 1 with the caller's registers in val/set (the
 * return address, 0 included, in val[UW_RA]), 0 when the stack ends
 * here, -1 when libdw must unwind the sample.
 */
/*
 * A word as perf's access_mem gives it to libunwind: an address that is
 * neither in the copy nor readable from a file, but inside some map (the
 * rest of [stack], anonymous memory), reads as 0 without an error; only
 * an address outside every map fails.
 */
static bool perf_read(struct pd_unwinder *u, uint64_t addr, uint64_t *val)
{
	if (logged_read(u, addr, val))
		return true;
	if (!pd_machine_uw_mapped(u->spc.as, addr))
		return false;
	*val = 0;
	return true;
}

static int libunwind_guess(struct pd_unwinder *u, uint64_t pc, bool *set, uint64_t *val)
{
	uint64_t w0 = 0, w1 = 0, rbp, rbp1, ra;
	bool code = logged_read(u, pc, &w0) && logged_read(u, pc + 8, &w1);

	if (code && w0 == 0x0f0000000fc0c748ULL && (w1 & 0xff) == 0x05)
		return -1;		/* mov $15,%rax; syscall: rt_sigreturn */
	if (!set[UW_RSP])
		return 0;
	if (code && (w0 & 0xffff) == 0x25ff && ((w0 >> 48) & 0xff) == 0x68 &&
	    ((w1 >> 24) & 0xff) == 0xe9) {
		/* jmp *GOT(%rip); push $n; jmp .plt: called, nothing pushed yet */
		if (!set[UW_RBP] || !perf_read(u, val[UW_RSP], &ra))
			return 0;
		val[UW_RSP] += 8;
		val[UW_RA] = ra;
		set[UW_RA] = true;
		return 1;
	}
	if (!set[UW_RBP] || val[UW_RBP] == 0)
		return 0;
	rbp = val[UW_RBP];
	if (!perf_read(u, rbp, &rbp1) || rbp < val[UW_RSP] || rbp - val[UW_RSP] > 0x4000)
		return 0;
	if (!perf_read(u, rbp + 8, &ra))
		return 0;
	val[UW_RBP] = rbp1;
	val[UW_RSP] += 16;
	set[UW_RBX] = false;	/* every other register is lost */
	val[UW_RA] = ra;
	set[UW_RA] = true;
	return 1;
}

/*
 * Unwind an x86_64 sample as libdw's dwfl_getthread_frames with cb_frame
 * would; returns what that would have returned (0: the stack ended, 1:
 * stopped by cb_frame) or UW_FAST_LIBDW when libdw must do it.
 */
static int fast_unwind(struct pd_unwinder *u, struct pd_unwind_space *sp, uint64_t pc)
{
	const struct pd_regs *rg = &u->s->regs_user;
	uint64_t val[UW_NR_TRACKED] = { 0 }, nval[UW_NR_TRACKED];
	bool set[UW_NR_TRACKED] = { false }, nset[UW_NR_TRACKED];
	const struct uw_rule *r;
	enum uw_look how;
	bool initial = true;
	size_t steps;
	int i;

	set[UW_RBP] = perf_reg(rg, 6, &val[UW_RBP]);
	set[UW_RSP] = perf_reg(rg, 7, &val[UW_RSP]);
	set[UW_RBX] = perf_reg(rg, 1, &val[UW_RBX]);
	for (steps = 0;; steps++) {
		uint64_t cfa = 0, look;
		bool cfa_ok;

		/*
		 * A return address of 1 adds no frame (perf leaves out frame 0),
		 * so only a bound ends a walk that keeps finding it.
		 */
		if (steps > 4 * (size_t)PD_SYM_MAX_FRAMES) {
			u->looped = true;
			return 1;
		}

		/* cb_frame's part */
		if (!initial && pc == 0) {
			/*
			 * libunwind's frame-pointer guess read a return address
			 * of 0: perf prints it as 0 - 1, and the next step finds
			 * no map for it.
			 */
			u->frames[u->nframes++] = UINT64_MAX;
			u->stopped = true;
			return 1;
		}
		report_module(u, sp, pc);
		if (u->conflict)
			return UW_FAST_LIBDW;
		look = initial ? pc : pc - 1;
		if (u->overlay) {
			/* its own file's index, not the module's CFI under it */
			u->overlay = false;
			r = NULL;
			how = (enum uw_look)u->overlay_look;
		} else {
			r = fast_rule(u, sp, look, &how);
			if (how == UW_LOOK_LIBDW)
				return UW_FAST_LIBDW;
		}
		if (initial) {
			u->first_seen = true;
			u->prev_pc = pc;
			if (set[UW_RSP])
				u->prev_sp = val[UW_RSP];
		} else {
			uint64_t spv = set[UW_RSP] ? val[UW_RSP] : 0;

			/* not an activation: no signal frame gets here */
			if (set[UW_RSP] && pc == u->prev_pc && spv == u->prev_sp) {
				u->looped = true;
				return 1;
			}
			u->prev_pc = pc;
			u->prev_sp = spv;
			if (pc - 1)
				u->frames[u->nframes++] = pc - 1;
		}
		u->last_pc = look;
		u->last_rip = pc;
		u->last_sp_ok = set[UW_RSP];
		u->last_sp = val[UW_RSP];
		u->last_bp_ok = set[UW_RBP];
		u->last_bp = val[UW_RBP];
		u->last_bx_ok = set[UW_RBX];
		u->last_bx = val[UW_RBX];
		u->last_initial = initial;
		if (u->nframes >= u->max_stack) {
			u->stopped = true;
			return 1;
		}
		if (how == UW_LOOK_STOP)
			return 0;
		if (!r) {
			int g = libunwind_guess(u, pc, set, val);

			if (g <= 0)
				return g == 0 ? 1 : UW_FAST_LIBDW;
			pc = val[UW_RA];
			initial = false;
			continue;
		}

		/* libdw's handle_cfi for the tracked registers */
		if (r->cfa_reg == 6 || r->cfa_reg == 3 || r->cfa_reg == 7 ||
		    r->cfa_reg == UW_CFA_PLT) {
			i = r->cfa_reg == 6 ? UW_RBP : r->cfa_reg == 3 ? UW_RBX : UW_RSP;
			cfa_ok = set[i];
			if (cfa_ok)
				cfa = val[i] + (uint64_t)r->cfa_off;
		} else if (initial) {
			/* any register of the sample's own frame is the sample's */
			cfa_ok = sample_dwarf_reg(rg, r->cfa_reg, &cfa);
			cfa += (uint64_t)r->cfa_off;
		} else {
			return UW_FAST_LIBDW;
		}
		if (cfa_ok && r->cfa_reg == UW_CFA_PLT && (pc & 15) >= 11)
			cfa += 8;
		for (i = 0; i < UW_NR_TRACKED; i++) {
			nset[i] = false;
			nval[i] = 0;
			switch (r->how[i]) {
			case UW_UNDEF:
				break;
			case UW_SAME:
				nset[i] = set[i];
				nval[i] = val[i];
				break;
			case UW_AT:
				nset[i] = cfa_ok && logged_read(u, cfa + (uint64_t)r->off[i], &nval[i]);
				break;
			case UW_VAL:
				nset[i] = cfa_ok;
				nval[i] = cfa + (uint64_t)r->off[i];
				break;
			case UW_REG:
				nset[i] = sample_dwarf_reg(rg, (unsigned int)r->off[i], &nval[i]);
				break;
			}
		}
		/*
		 * libunwind's caller's rsp is the CFA whatever the row says
		 * of rsp (x86_64 unw_get_reg): after __longjmp, whose row has
		 * rsp in r8, perf unwinds setjmp's caller from the jmp_buf
		 * (rdi) and reads a garbage return address there.
		 */
		nset[UW_RSP] = cfa_ok;
		nval[UW_RSP] = cfa;
		/* a return address undefined, unknown, unreadable or 0 ends it */
		if (!nset[UW_RA] || nval[UW_RA] == 0)
			return 0;
		memcpy(val, nval, sizeof(val));
		memcpy(set, nset, sizeof(set));
		pc = val[UW_RA];
		initial = false;
	}
}

/* last_ra_unreadable_or_zero for a walk the fast path did */
static bool fast_last_ra_zero(struct pd_unwinder *u, struct pd_unwind_space *sp)
{
	enum uw_look how;
	const struct uw_rule *r = fast_rule(u, sp, u->last_pc, &how);
	uint64_t base, ra = 1;

	/* libdw gives CFA + 0 as one op, and the test wants two */
	if (!r || r->how[UW_RA] != UW_AT || r->off[UW_RA] == 0)
		return false;
	if ((r->cfa_reg == 7 || r->cfa_reg == UW_CFA_PLT) && u->last_sp_ok)
		base = u->last_sp;
	else if (r->cfa_reg == 6 && u->last_bp_ok)
		base = u->last_bp;
	else if (r->cfa_reg == 3 && u->last_bx_ok)
		base = u->last_bx;
	else if (!u->last_initial || r->cfa_reg == UW_CFA_PLT ||
		 !sample_dwarf_reg(&u->s->regs_user, r->cfa_reg, &base))
		/* another register: the sampled frame's (a stack-clash probe loop's r11) */
		return false;
	if (r->cfa_reg == UW_CFA_PLT && (u->last_rip & 15) >= 11)
		base += 8;
	return !read_word(u, base + (uint64_t)r->cfa_off + (uint64_t)r->off[UW_RA], &ra) || ra == 0;
}

/*
 * A sample whose unwind ended on bad input: counted, and the first of each
 * kind reported (pd_sym_diag(): once per machine), named by its pid and tid.
 */
static void unwind_diag(struct pd_unwinder *u, enum pd_code code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void unwind_diag(struct pd_unwinder *u, enum pd_code code, const char *fmt, ...)
{
	const struct pd_sample *s = u->s;
	char rest[256];
	va_list ap;

	u->errors++;
	va_start(ap, fmt);
	vsnprintf(rest, sizeof(rest), fmt, ap);
	va_end(ap);
	pd_sym_diag(pd_machine_env(u->m), NULL, code, true, "pid=%d tid=%d %s", (int32_t)s->pid,
		    (int32_t)s->tid, rest);
}

static void unwinder_free(void *state);
static void unwinder_stats(const void *state, struct pd_sym_stats *out);

static size_t cache_frames_size(const struct pd_unwinder *u)
{
	return ((size_t)1 << UW_CACHE_BITS) * u->max_stack * sizeof(uint64_t);
}

static struct pd_unwinder *unwinder_get(struct pd_machine *m)
{
	struct pd_uw_slot *pu = pd_machine_unwinder(m);
	const struct pd_sym_opts *o = pd_machine_opts(m);
	struct pd_unwinder *u = pu->state;
	struct utsname un;
	size_t i;

	if (u)
		return u;
	u = calloc(1, sizeof(*u));
	if (!u)
		return NULL;
	u->m = m;
	u->max_stack = o->max_stack ? o->max_stack : PD_SYM_MAX_FRAMES;
	u->arch = arch_of(pd_machine_arch(m));
	if (!pd_machine_arch(m) && uname(&un) == 0)
		u->arch = arch_of(un.machine);
	u->frames = calloc(u->max_stack, sizeof(*u->frames));
	/* 2.7 MiB hit anywhere: 1,100 faults of 4 KiB pages on dwarf.data */
	u->cache = pd_sym_table_alloc((1u << UW_CACHE_BITS) * sizeof(*u->cache));
	/*
	 * The entries' frames beside them, not allocated one by one: pointers
	 * to the heap kept in mapped pages are out of sight of leak checkers.
	 */
	u->cache_frames = pd_sym_table_alloc(cache_frames_size(u));
	u->cache_keys = calloc(1u << UW_CACHE_BITS, sizeof(*u->cache_keys));
	u->rules = calloc(1u << UW_RULE_BITS, sizeof(*u->rules));
	if (!u->frames || !u->cache || !u->cache_frames || !u->cache_keys || !u->rules) {
		free(u->frames);
		pd_sym_table_free(u->cache, (1u << UW_CACHE_BITS) * sizeof(*u->cache));
		pd_sym_table_free(u->cache_frames, cache_frames_size(u));
		free(u->cache_keys);
		free(u->rules);
		free(u);
		return NULL;
	}
	for (i = 0; i < UW_FD_CACHE; i++)
		u->fds[i].fd = -1;
	pu->state = u;
	pu->free = unwinder_free;
	pu->stats = unwinder_stats;
	return u;
}

static void unwinder_free(void *state)
{
	struct pd_unwinder *u = state;
	size_t i;

	if (!u)
		return;
	for (i = 0; i < UW_FD_CACHE; i++)
		if (u->fds[i].dso && u->fds[i].fd >= 0)
			close(u->fds[i].fd);
	for (i = 0; i < UW_ARCH_NR; i++)
		if (u->arch_elf[i])
			elf_end(u->arch_elf[i]);
	pd_sym_table_free(u->cache, (1u << UW_CACHE_BITS) * sizeof(*u->cache));
	pd_sym_table_free(u->cache_frames, cache_frames_size(u));
	free(u->cache_keys);
	free(u->rules);
	free(u->frames);
	free(u);
}

static uint64_t cache_hash(uint64_t stamp, const struct pd_regs *rg)
{
	uint64_t h = stamp * 0x9e3779b97f4a7c15ULL ^ rg->abi;
	uint32_t i;

	for (i = 0; i < rg->nr; i++)
		h = (h ^ rg->regs[i]) * 0x100000001b3ULL;
	return h ^ (h >> 29);
}

#define UW_CACHE_SLOT(h)	((h) & ((1u << UW_CACHE_BITS) - 1))

static bool cache_match(struct pd_unwinder *u, const struct uw_cache_ent *c, uint64_t stamp,
			const struct pd_regs *rg)
{
	uint32_t i;

	if (c->stamp != stamp || c->abi != rg->abi || c->mask != rg->mask || c->nregs != rg->nr ||
	    memcmp(c->regs, rg->regs, rg->nr * sizeof(uint64_t)))
		return false;
	/* the same reads must give the same answers: then so does everything */
	for (i = 0; i < c->nreads; i++) {
		uint64_t v = 0;
		bool ok = read_word(u, c->reads[i].addr, &v);

		if (ok != c->reads[i].ok || (ok && v != c->reads[i].value))
			return false;
	}
	return true;
}

/* the max_stack frames of cache entry c, beside the entries */
static uint64_t *cache_ent_frames(const struct pd_unwinder *u, const struct uw_cache_ent *c)
{
	return u->cache_frames + (size_t)(c - u->cache) * u->max_stack;
}

static bool cache_store(struct pd_unwinder *u, struct uw_cache_ent *c, uint64_t stamp,
			const struct pd_regs *rg)
{
	if (u->log_overflow || rg->nr > UW_MAX_REGS)
		return false;
	c->stamp = stamp;
	c->abi = rg->abi;
	c->mask = rg->mask;
	c->nregs = rg->nr;
	memcpy(c->regs, rg->regs, rg->nr * sizeof(uint64_t));
	c->nreads = u->nreads;
	memcpy(c->reads, u->reads, u->nreads * sizeof(u->reads[0]));
	c->nframes = (uint32_t)u->nframes;
	memcpy(cache_ent_frames(u, c), u->frames, u->nframes * sizeof(*u->frames));
	return true;
}

/* The state of a walk before its first frame. */
static void unwind_start(struct pd_unwinder *u)
{
	u->nframes = 1;
	u->nreads = 0;
	u->log_overflow = false;
	u->first_seen = false;
	u->conflict = false;
	u->overlay = false;
	u->looped = false;
	u->stopped = false;
	u->last_sp_ok = u->last_bp_ok = u->last_bx_ok = false;
}

/* Unwind into u->frames; returns false when the sample cannot be unwound at all. */
static bool unwind(struct pd_unwinder *u, const struct pd_record *rec)
{
	const struct pd_sample *s = &rec->u.sample;
	const struct pd_regs *rg = &s->regs_user;
	enum uw_arch a = sample_arch(u, rg);
	struct pd_unwind_space *sp;
	struct uw_cache_ent *c;
	uint64_t pc, spv, stamp, h;
	int attempt, ret;

	u->nframes = 0;
	u->s = s;
	if (a == UW_ARCH_UNKNOWN) {
		/* without HEADER_ARCH the recording is taken for this machine's */
		unwind_diag(u, PD_UNWIND_ARCH, "arch=%s abi=%llu",
			    pd_machine_arch(u->m) ? pd_machine_arch(u->m) : "this-machine",
			    (unsigned long long)rg->abi);
		return false;
	}
	if (rg->nr != (uint32_t)__builtin_popcountll(rg->mask) || rg->nr == 0) {
		unwind_diag(u, PD_UNWIND_REGS, "regs=%u mask=0x%llx", rg->nr,
			    (unsigned long long)rg->mask);
		return false;
	}
	if (!perf_reg(rg, regdesc[a].perf_ip, &pc) || !perf_reg(rg, regdesc[a].perf_sp, &spv)) {
		unwind_diag(u, PD_UNWIND_NO_SP, "mask=0x%llx", (unsigned long long)rg->mask);
		return false;
	}
	/* perf's rule: the copy is dyn_size bytes; a larger one is a broken sample */
	if (s->stack_dyn_size > s->stack_size) {
		unwind_diag(u, PD_UNWIND_DYN_SIZE, "dyn_size=%llu stack_size=%llu",
			    (unsigned long long)s->stack_dyn_size,
			    (unsigned long long)s->stack_size);
		return false;
	}
	u->word = regdesc[a].elfclass == ELFCLASS32 ? 4 : 8;
	if (regdesc[a].elfclass == ELFCLASS32) {
		pc = (uint32_t)pc;
		spv = (uint32_t)spv;
	}
	u->s = s;
	u->sp = spv;
	u->stack_len = s->stack_dyn_size;
	if (pd_machine_uw_space(u->m, (int32_t)s->pid, (int32_t)s->tid, &u->spc) < 0)
		return false;
	/*
	 * perf sets up unwinding for a process at the first of its maps whose
	 * file it can read (the vdso counts); with none (all missing, or an
	 * empty --symfs) it shows no user frames at all.
	 */
	sp = space_get(u, a);
	if (!sp)
		return false;
	if (sp->image_stamp != u->spc.stamp) {
		sp->image = pd_machine_uw_any_image(u->m, u->spc.as);
		pd_machine_uw_space(u->m, (int32_t)s->pid, (int32_t)s->tid, &u->spc);
		sp->image_stamp = u->spc.stamp;
	}
	if (!sp->image)
		return false;
	if (a == UW_ARCH_AARCH64)
		/* frames no test compares with perf or gdb: said once, every sample counted */
		pd_sym_diag(pd_machine_env(u->m), NULL, PD_UNWIND_UNTESTED, true,
			    "pid=%d tid=%d arch=aarch64", (int32_t)s->pid, (int32_t)s->tid);
	u->samples++;
	/* the sampled ip is the first frame whatever happens next */
	u->frames[u->nframes++] = pc;
	if (u->max_stack <= 1)
		return true;
	stamp = u->spc.stamp;
	h = cache_hash(stamp, rg);
	c = &u->cache[UW_CACHE_SLOT(h)];
	/* the key array is small enough to stay in cache: most misses end there */
	if (u->cache_keys[UW_CACHE_SLOT(h)] == h && c->stamp && cache_match(u, c, stamp, rg)) {
		u->cache_hits++;
		memcpy(u->frames, cache_ent_frames(u, c), c->nframes * sizeof(*u->frames));
		u->nframes = c->nframes;
		return true;
	}
	/*
	 * A conflict starts over on a fresh Dwfl; a module found to hold
	 * others reported before it, once more, with it reported first.
	 */
	for (attempt = 0; attempt < 3; attempt++) {
		bool fast = false;

		unwind_start(u);
		u->fresh = attempt > 0;
		sp = space_get(u, a);
		if (!sp)
			return true;
		if (u->fresh && sp->first_set) {
			report_module(u, sp, sp->first_pc);
			u->conflict = false;
		}
		ret = UW_FAST_LIBDW;
		if (a == UW_ARCH_X86_64) {
			ret = fast_unwind(u, sp, pc);
			if (ret != UW_FAST_LIBDW)
				fast = true;
			else if (!u->conflict)
				unwind_start(u);
		}
		/*
		 * A conflict the fast path found holds for libdw's walk too:
		 * on this Dwfl it would find pcs among the modules that made
		 * it, and leave them there for the samples after
		 */
		if (ret == UW_FAST_LIBDW && !u->conflict)
			ret = dwfl_getthread_frames(sp->dwfl, dwfl_pid(sp->dwfl), cb_frame, sp);
		if (!u->conflict) {
			/*
			 * perf's frame for a return address of 0 (x86_64 only);
			 * libdw fails (-1) on a frame without CFI it cannot
			 * guess past, where perf may guess a 0
			 */
			if (!u->looped && !u->stopped && u->first_seen &&
			    a == UW_ARCH_X86_64 && u->nframes < u->max_stack &&
			    (fast ? ret == 0 && fast_last_ra_zero(u, sp) :
			     (ret == 0 || ret == -1) && last_ra_unreadable_or_zero(u, sp, ret)))
				u->frames[u->nframes++] = UINT64_MAX;
			break;
		}
		/* the maps changed under a module: start over with this sample's */
		space_reset(sp);
		u->nframes = 1;
	}
	if (u->looped)
		unwind_diag(u, PD_UNWIND_LOOP, "pc=0x%llx frames=%zu", (unsigned long long)u->prev_pc,
			    u->nframes);
	/* a map may have been loaded on the way: key on the version now */
	pd_machine_uw_space(u->m, (int32_t)s->pid, (int32_t)s->tid, &u->spc);
	h = cache_hash(u->spc.stamp, rg);
	if (!u->conflict && cache_store(u, &u->cache[UW_CACHE_SLOT(h)], u->spc.stamp, rg))
		u->cache_keys[UW_CACHE_SLOT(h)] = h;
	return true;
}

const uint64_t *pd_unwind_sample_ips(struct pd_machine *m, const struct pd_record *rec,
				     size_t *nr)
{
	const struct pd_sample *s = &rec->u.sample;
	const uint64_t need = PD_SAMPLE_REGS_USER | PD_SAMPLE_STACK_USER;
	struct pd_unwinder *u;

	*nr = 0;
	if (pd_machine_opts(m)->no_unwind || rec->type != PD_REC_SAMPLE || !rec->decoded)
		return NULL;
	/* perf unwinds only what was captured: user registers and a stack copy */
	if ((s->sample_type & need) != need || s->regs_user.abi == 0 || !s->regs_user.regs ||
	    s->stack_dyn_size == 0 || !s->stack_data)
		return NULL;
	u = unwinder_get(m);
	if (!u || !unwind(u, rec))
		return NULL;
	u->nframes_total += u->nframes;
	*nr = u->nframes;
	return u->frames;
}

size_t pd_unwind_sample(struct pd_machine *m, const struct pd_record *rec, struct pd_sym_ip *out,
			size_t max)
{
	const uint64_t *ips;
	size_t i, n;

	ips = pd_unwind_sample_ips(m, rec, &n);
	if (n > max)
		n = max;
	for (i = 0; i < n; i++) {
		out[i].ip = ips[i];
		out[i].cpumode = PD_CPUMODE_USER;
	}
	return n;
}

static void unwinder_stats(const void *state, struct pd_sym_stats *out)
{
	const struct pd_unwinder *u = state;

	if (!u)
		return;
	out->unwound_samples = u->samples;
	out->unwound_frames = u->nframes_total;
	out->unwind_cache_hits = u->cache_hits;
	out->unwind_errors = u->errors;
}
