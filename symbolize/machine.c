// SPDX-License-Identifier: MIT
/*
 * machine.c - threads, address spaces and DSOs, fed by perf.data records.
 *
 * The rules are perf 6.1's (docs/symbolization.md §1 to §5 and §8):
 * threads are found by tid only, threads of one process share one address
 * space, a forked process gets a copy of its parent's, a later MMAP cuts
 * the maps it overlaps, and a thread's printed comm is the newest COMM
 * delivered.  Memory grows with threads, maps and DSOs; samples only look
 * things up.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <linux/openat2.h>

#include "perfdata/pd_consts.h"
#include "sym_internal.h"

#define PROT_EXEC_BIT	0x4
#define MAP_HUGETLB_BIT	0x40000
#define KERNEL_START	(1ULL << 63)	/* x86_64: kernel_start stays at 2^63 */
#define CACHE_BITS	13

struct map {
	uint64_t start, end, pgoff;
	struct pd_dso *dso;
	bool identity;		/* anon, JIT and kallsyms maps: map_ip(ip) = ip */
};

struct aspace {
	unsigned int refs;
	uint64_t stamp;		/* version, see pd_machine_version() */
	uint64_t kseen;		/* the kernel version it was taken at */
	struct map *maps;	/* sorted by start, never overlapping */
	size_t nr, cap;
	size_t last;		/* index of the last map hit */
	struct pd_uw_slot uw;	/* the unwinder's state for it (unwind.c) */
};

struct comm_ent {
	uint64_t time;
	const char *s;		/* interned */
};

struct thread {
	int32_t pid, tid, ppid;
	bool comm_set, exited;
	/*
	 * Its tid was counted in a process's threads (opts.processes).  A
	 * thread that replaces it (a reused tid) inherits this: the machine
	 * never forgets a tid, so these flags are the set of tids counted.
	 */
	bool counted;
	uint64_t exit_time;
	struct comm_ent *comms;	/* oldest first */
	uint32_t nr_comms, cap_comms;
	struct aspace *as;
	struct thread *hnext;
};

struct strent {
	struct strent *next;
	char s[];
};

struct cache_ent {
	const struct pd_dso *dso;
	uint64_t addr;
	uint32_t sym;
};

struct pd_machine {
	struct pd_sym_env env;	/* first: what the loaders see (pd_machine_env()) */

	struct thread **th;	/* hash by tid */
	size_t th_nbuckets, nr_threads;
	struct thread *last_thread;

	struct pd_dso **dh;	/* hash by name */
	size_t dh_nbuckets, nr_dsos;
	struct pd_dso *dsos, *dsos_tail;

	struct strent **sh;	/* interned strings (comms) */
	size_t sh_nbuckets;

	struct pd_proc_table procs;	/* opts.processes */

	struct aspace kmaps;	/* kernel, modules, KSYMBOL */
	struct pd_dso *kernel;	/* the kernel DSO, once known */
	struct pd_kallsyms_prefetch *kallsyms_prefetch;	/* kallsyms, read ahead */
	uint64_t ref_text;	/* recorded address of the reference symbol (_text) */
	const char *ref_sym;	/* its name, as the kernel map gives it: "_text", "_stext", NULL */
	char *osrelease;
	char *arch;		/* the recording machine's (HEADER_ARCH) */
	struct pd_uw_slot uw;	/* the unwinder (unwind.c), lazily */

	struct cache_ent cache[1u << CACHE_BITS];
	struct pd_sym_stats st;

	/*
	 * Versions (pd_machine_version()) come from one sequence, so that no
	 * two address spaces or states ever share one.
	 */
	uint64_t seq;
	uint64_t kstamp;	/* kernel maps and loaded DSOs */
};

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ULL;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ULL;
	return h;
}

/* pd_machine_env() (sym_internal.h) relies on it */
_Static_assert(offsetof(struct pd_machine, env) == 0, "env is the first member of a machine");

/* ------------------------------------------------------------ strings */

static const char *intern(struct pd_machine *m, const char *s)
{
	size_t b = hash_str(s) & (m->sh_nbuckets - 1), len;
	struct strent *e;

	for (e = m->sh[b]; e; e = e->next)
		if (!strcmp(e->s, s))
			return e->s;
	len = strlen(s);
	e = malloc(sizeof(*e) + len + 1);
	if (!e)
		return NULL;
	memcpy(e->s, s, len + 1);
	e->next = m->sh[b];
	m->sh[b] = e;
	return e->s;
}

/* ------------------------------------------------------------ DSOs */

static bool is_kernel_module_name(const char *name)
{
	static const char *const not_mod[] = {
		"[kernel.kallsyms]", "[guest.kernel.kallsyms", "[vdso]", "[vdso32]",
		"[vdsox32]", "[vsyscall]",
	};
	size_t i, len;
	const char *base, *ko;

	if (name[0] == '[') {
		for (i = 0; i < sizeof(not_mod) / sizeof(not_mod[0]); i++)
			if (!strncmp(name, not_mod[i], strlen(not_mod[i])))
				return false;
		return true;
	}
	base = strrchr(name, '/');
	base = base ? base + 1 : name;
	ko = strstr(base, ".ko");
	if (!ko)
		return false;
	len = strlen(ko);
	/* ".ko" alone or followed by a compression suffix */
	return len == 3 || (ko[3] == '.' && !strchr(ko + 4, '.'));
}

/* "[ext4]" for /lib/modules/.../ext4.ko.xz; names in brackets stay */
static char *module_short_name(const char *name)
{
	const char *base, *ko;
	char *out;
	size_t n, i;

	if (name[0] == '[')
		return strdup(name);
	base = strrchr(name, '/');
	base = base ? base + 1 : name;
	ko = strstr(base, ".ko");
	n = ko ? (size_t)(ko - base) : strlen(base);
	out = malloc(n + 3);
	if (!out)
		return NULL;
	out[0] = '[';
	for (i = 0; i < n; i++)
		out[i + 1] = base[i] == '-' ? '_' : base[i];
	out[n + 1] = ']';
	out[n + 2] = '\0';
	return out;
}

static char *basename_of(const char *path)
{
	int tid;
	char buf[64];
	size_t len = strlen(path);
	const char *e, *s;

	if (sscanf(path, "/tmp/perf-%d.map", &tid) == 1) {
		snprintf(buf, sizeof(buf), "[JIT] tid %d", tid);
		return strdup(buf);
	}
	/* POSIX basename(): trailing slashes ignored, "/" stays "/" */
	e = path + len;
	while (e > path + 1 && e[-1] == '/')
		e--;
	s = e;
	while (s > path && s[-1] != '/')
		s--;
	if (s == e)
		return strdup(len ? "/" : ".");
	return strndup(s, (size_t)(e - s));
}

static struct pd_dso *dso_new(struct pd_machine *m, const char *name, enum pd_dso_kind kind)
{
	struct pd_dso *d = calloc(1, sizeof(*d));
	size_t b;

	if (!d)
		return NULL;
	d->name = strdup(name);
	d->long_name = strdup(name);
	if (kind == PD_DSO_MODULE)
		d->short_name = module_short_name(name);
	else
		d->short_name = basename_of(name);
	if (!d->name || !d->long_name || !d->short_name) {
		free(d->name);
		free(d->long_name);
		free(d->short_name);
		free(d);
		return NULL;
	}
	d->kind = kind;
	pd_symtab_init(&d->syms);
	if (kind == PD_DSO_ANON || kind == PD_DSO_KSYMBOL)
		d->load = PD_LOAD_DONE;
	b = hash_str(name) & (m->dh_nbuckets - 1);
	d->hnext = m->dh[b];
	m->dh[b] = d;
	if (m->dsos_tail)
		m->dsos_tail->next = d;
	else
		m->dsos = d;
	m->dsos_tail = d;
	d->seq = (uint32_t)m->nr_dsos;
	m->nr_dsos++;
	m->st.dsos++;
	return d;
}

static bool id_empty(uint32_t maj, uint32_t min, uint64_t ino, uint64_t gen)
{
	return !maj && !min && !ino && !gen;
}

/* perf's lookup by long name and (maj, min, ino, generation) */
static struct pd_dso *dso_findnew(struct pd_machine *m, const char *name, enum pd_dso_kind kind,
				  uint32_t maj, uint32_t min, uint64_t ino, uint64_t gen)
{
	size_t b = hash_str(name) & (m->dh_nbuckets - 1);
	struct pd_dso *d, *found = NULL;

	for (d = m->dh[b]; d; d = d->hnext) {
		if (strcmp(d->name, name))
			continue;
		if (!id_empty(maj, min, ino, gen) &&
		    !id_empty(d->maj, d->min, d->ino, d->ino_generation)) {
			if (d->maj != maj || d->min != min || d->ino != ino)
				continue;
			if (gen && d->ino_generation && gen != d->ino_generation)
				continue;
		}
		found = d;
		break;
	}
	if (!found) {
		struct pd_dso *same;

		found = dso_new(m, name, kind);
		if (!found)
			return NULL;
		/* a DSO without a build id inherits the header's for its name */
		for (same = found->hnext; same; same = same->hnext) {
			if (!strcmp(same->name, name) && same->has_build_id) {
				memcpy(found->build_id, same->build_id, sizeof(found->build_id));
				found->build_id_size = same->build_id_size;
				found->has_build_id = true;
				break;
			}
		}
	}
	if (id_empty(found->maj, found->min, found->ino, found->ino_generation)) {
		found->maj = maj;
		found->min = min;
		found->ino = ino;
		found->ino_generation = gen;
	}
	return found;
}

static void dso_set_build_id(struct pd_dso *d, const uint8_t *id, size_t size)
{
	if (size > sizeof(d->build_id))
		size = sizeof(d->build_id);
	memcpy(d->build_id, id, size);
	d->build_id_size = (uint8_t)size;
	d->has_build_id = size > 0;
}

static void dso_free(struct pd_dso *d)
{
	pd_dwarf_free(d);
	pd_elf_srcfiles_free(d);
	pd_symtab_free(&d->syms);
	free(d->name);
	free(d->long_name);
	free(d->short_name);
	free(d->syms_path);
	free(d->runtime_path);
	free(d);
}

const char *pd_dso_short_name(const struct pd_dso *d)
{
	return d->short_name;
}

const char *pd_dso_name(const struct pd_dso *d)
{
	return d->name;
}

enum pd_dso_kind pd_dso_kind(const struct pd_dso *d)
{
	return d->kind;
}

const uint8_t *pd_dso_build_id(const struct pd_dso *d, size_t *size)
{
	*size = d->has_build_id ? d->build_id_size : 0;
	return d->has_build_id ? d->build_id : NULL;
}

/* ------------------------------------------------------------ maps */

static void as_put(struct aspace *as)
{
	if (as && --as->refs == 0) {
		if (as->uw.free)
			as->uw.free(as->uw.state);
		free(as->maps);
		free(as);
	}
}

static struct aspace *as_new(struct pd_machine *m)
{
	struct aspace *as = calloc(1, sizeof(*as));

	if (as) {
		as->refs = 1;
		as->stamp = ++m->seq;
	}
	return as;
}

/* The maps of `as` changed: what was resolved in it may be stale. */
static void as_changed(struct pd_machine *m, struct aspace *as)
{
	as->stamp = ++m->seq;
}

/* The kernel maps or the loaded DSOs changed: every frame may be stale. */
static void kernel_changed(struct pd_machine *m)
{
	m->kstamp = ++m->seq;
}

/* first map with end > addr */
static size_t as_lower(const struct aspace *as, uint64_t addr)
{
	size_t lo = 0, hi = as->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (as->maps[mid].end <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static struct map *as_find(struct aspace *as, uint64_t ip)
{
	size_t i;

	if (as->last < as->nr && as->maps[as->last].start <= ip && ip < as->maps[as->last].end)
		return &as->maps[as->last];
	i = as_lower(as, ip);
	if (i < as->nr && as->maps[i].start <= ip) {
		as->last = i;
		return &as->maps[i];
	}
	return NULL;
}

static int as_reserve(struct aspace *as, size_t extra)
{
	return pd_grow(&as->maps, &as->cap, as->nr + extra, sizeof(*as->maps), SIZE_MAX) ? 0 : -1;
}

/*
 * Insert a map, first cutting every map it overlaps: the parts before and
 * after survive as clones (the tail's pgoff moves with its start).
 */
static int as_insert(struct aspace *as, const struct map *nm)
{
	size_t i, j, k = 0;
	struct map pieces[3];

	if (nm->end <= nm->start)
		return 0;
	if (as_reserve(as, 3) < 0)
		return -1;
	i = as_lower(as, nm->start);
	j = i;
	while (j < as->nr && as->maps[j].start < nm->end)
		j++;
	if (i < j && as->maps[i].start < nm->start) {
		pieces[k] = as->maps[i];
		pieces[k++].end = nm->start;
	}
	pieces[k++] = *nm;
	if (i < j && as->maps[j - 1].end > nm->end) {
		pieces[k] = as->maps[j - 1];
		pieces[k].start = nm->end;
		pieces[k].pgoff += nm->end - as->maps[j - 1].start;
		k++;
	}
	memmove(&as->maps[i + k], &as->maps[j], (as->nr - j) * sizeof(struct map));
	memcpy(&as->maps[i], pieces, k * sizeof(struct map));
	as->nr = as->nr - (j - i) + k;
	as->last = i;
	return 0;
}

/* ------------------------------------------------------------ threads */

static struct thread *thread_find(struct pd_machine *m, int32_t tid)
{
	struct thread *t;

	if (m->last_thread && m->last_thread->tid == tid)
		return m->last_thread;
	for (t = m->th[pd_id_bucket(tid, m->th_nbuckets)]; t; t = t->hnext)
		if (t->tid == tid) {
			m->last_thread = t;
			return t;
		}
	return NULL;
}

static int comm_push(struct thread *t, const char *s, uint64_t time)
{
	if (t->nr_comms == t->cap_comms) {
		uint32_t cap = t->cap_comms ? t->cap_comms * 2 : 2;
		struct comm_ent *p = realloc(t->comms, cap * sizeof(*p));

		if (!p)
			return -1;
		t->comms = p;
		t->cap_comms = cap;
	}
	t->comms[t->nr_comms].time = time;
	t->comms[t->nr_comms].s = s;
	t->nr_comms++;
	return 0;
}

static void thread_free(struct thread *t)
{
	as_put(t->as);
	free(t->comms);
	free(t);
}

static void thread_remove(struct pd_machine *m, struct thread *victim)
{
	struct thread **pp = &m->th[pd_id_bucket(victim->tid, m->th_nbuckets)];

	for (; *pp; pp = &(*pp)->hnext) {
		if (*pp == victim) {
			*pp = victim->hnext;
			break;
		}
	}
	if (m->last_thread == victim)
		m->last_thread = NULL;
	m->nr_threads--;
	thread_free(victim);
}

static struct thread *thread_findnew(struct pd_machine *m, int32_t pid, int32_t tid);

/* A thread whose pid becomes known joins its process's address space. */
static void thread_set_pid(struct pd_machine *m, struct thread *t, int32_t pid)
{
	struct thread *leader;

	if (t->pid != -1 || pid == -1)
		return;
	t->pid = pid;
	if (pid == t->tid)
		return;
	leader = thread_findnew(m, pid, pid);
	if (leader && leader->as != t->as) {
		as_put(t->as);
		t->as = leader->as;
		t->as->refs++;
	}
}

static struct thread *thread_findnew(struct pd_machine *m, int32_t pid, int32_t tid)
{
	struct thread *t = thread_find(m, tid), *leader;
	char name[32];
	const char *s;
	size_t b;

	if (t) {
		thread_set_pid(m, t, pid);
		return t;
	}
	if (m->nr_threads >= m->th_nbuckets &&
	    pd_id_table_grow(&m->th, &m->th_nbuckets, offsetof(struct thread, hnext),
			     offsetof(struct thread, tid)) < 0)
		return NULL;
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->pid = pid;
	t->tid = tid;
	t->ppid = -1;
	snprintf(name, sizeof(name), ":%d", tid);
	s = intern(m, name);
	if (!s || comm_push(t, s, 0) < 0) {
		free(t->comms);
		free(t);
		return NULL;
	}
	b = pd_id_bucket(tid, m->th_nbuckets);
	t->hnext = m->th[b];
	m->th[b] = t;
	m->nr_threads++;
	m->st.threads++;
	if (pid == tid || pid == -1) {
		t->as = as_new(m);
	} else {
		/* threads share their process's address space */
		leader = thread_findnew(m, pid, pid);
		if (leader) {
			t->as = leader->as;
			t->as->refs++;
		} else {
			t->as = as_new(m);
		}
	}
	if (!t->as) {
		thread_remove(m, t);
		return NULL;
	}
	m->last_thread = t;
	return t;
}

/* A fresh thread in place of `old` (same tid), counted if `old` was. */
static struct thread *thread_renew(struct pd_machine *m, struct thread *old, int32_t pid,
				   int32_t tid)
{
	bool counted = old->counted;
	struct thread *t;

	thread_remove(m, old);
	t = thread_findnew(m, pid, tid);
	if (t)
		t->counted = counted;
	return t;
}

static int thread_set_comm(struct pd_machine *m, struct thread *t, const char *comm, uint64_t time)
{
	const char *s = intern(m, comm);

	if (!s)
		return -1;
	if (!t->comm_set) {
		/* the ":tid" placeholder is overwritten, not kept */
		t->comms[t->nr_comms - 1].s = s;
		t->comms[t->nr_comms - 1].time = time;
		t->comm_set = true;
		return 0;
	}
	return comm_push(t, s, time);
}

static const char *thread_comm_now(const struct thread *t)
{
	return t->comms[t->nr_comms - 1].s;
}

/* ------------------------------------------------------------ machine */

int pd_machine_new(const struct pd_sym_opts *opts, struct pd_machine **out)
{
	struct pd_machine *m = calloc(1, sizeof(*m));
	struct thread *idle;
	const char *env;
	char buf[PATH_MAX];
	int ret = PD_STATUS_NOMEM, err;

	*out = NULL;
	if (!m)
		return PD_STATUS_NOMEM;
	if (opts)
		m->env.opts = *opts;
	m->env.rootfd = -1;
	m->kstamp = ++m->seq;	/* versions are never 0 */
	m->th_nbuckets = 1024;
	m->dh_nbuckets = 1024;
	m->sh_nbuckets = 4096;
	m->th = calloc(m->th_nbuckets, sizeof(*m->th));
	m->dh = calloc(m->dh_nbuckets, sizeof(*m->dh));
	m->sh = calloc(m->sh_nbuckets, sizeof(*m->sh));
	if (!m->th || !m->dh || !m->sh)
		goto fail;
	if (m->env.opts.symfs && m->env.opts.symfs[0]) {
		char real[PATH_MAX];

		ret = PD_STATUS_IO;
		if (!realpath(m->env.opts.symfs, real))
			goto fail;
		m->env.rootfd = open(real, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (m->env.rootfd < 0)
			goto fail;
		ret = PD_STATUS_NOMEM;
		m->env.symfs = strdup(real);
		if (!m->env.symfs)
			goto fail;
	}
	if (m->env.opts.buildid_dir) {
		m->env.buildid_dir = strdup(m->env.opts.buildid_dir);
	} else if (m->env.symfs) {
		/* perf's default for --symfs; opened inside the root like the rest */
		m->env.buildid_dir = strdup("/.debug");
		m->env.buildid_under_root = true;
	} else if ((env = getenv("PERF_BUILDID_DIR")) && env[0]) {
		m->env.buildid_dir = strdup(env);
	} else if ((env = getenv("HOME")) && env[0]) {
		snprintf(buf, sizeof(buf), "%s/.debug", env);
		m->env.buildid_dir = strdup(buf);
	}
	/* perf creates the idle thread before reading anything */
	idle = thread_findnew(m, 0, 0);
	if (!idle || thread_set_comm(m, idle, "swapper", 0) < 0)
		goto fail;
	pd_elf_init();
	*out = m;
	return 0;
fail:
	/* the reason a root could not be opened outlives the cleanup */
	err = ret == PD_STATUS_NOMEM ? ENOMEM : errno;
	pd_machine_free(m);
	errno = err;
	return ret;
}

void pd_machine_free(struct pd_machine *m)
{
	size_t i;
	struct pd_dso *d, *dn;

	if (!m)
		return;
	for (i = 0; m->th && i < m->th_nbuckets; i++) {
		struct thread *t = m->th[i], *n;

		for (; t; t = n) {
			n = t->hnext;
			thread_free(t);
		}
	}
	pd_procs_free(&m->procs);
	for (i = 0; m->sh && i < m->sh_nbuckets; i++) {
		struct strent *e = m->sh[i], *n;

		for (; e; e = n) {
			n = e->next;
			free(e);
		}
	}
	for (d = m->dsos; d; d = dn) {
		dn = d->next;
		dso_free(d);
	}
	pd_kallsyms_prefetch_free(m->kallsyms_prefetch);
	pd_dwarf_copies_ahead_free(&m->env);
	free(m->kmaps.maps);
	free(m->th);
	free(m->dh);
	free(m->sh);
	free(m->env.symfs);
	free(m->env.buildid_dir);
	free(m->osrelease);
	free(m->arch);
	if (m->uw.free)
		m->uw.free(m->uw.state);
	if (m->env.rootfd >= 0)
		close(m->env.rootfd);
	free(m);
}

static struct pd_dso *kernel_dso(struct pd_machine *m, const char *name)
{
	struct pd_dso *d;

	if (m->kernel)
		return m->kernel;
	/* the first kernel DSO known, normally the header's build-id entry */
	for (d = m->dsos; d; d = d->next)
		if (d->kind == PD_DSO_KERNEL)
			return m->kernel = d;
	d = dso_findnew(m, name, PD_DSO_KERNEL, 0, 0, 0, 0);
	return m->kernel = d;
}

static bool is_vdso_name(const char *name)
{
	return !strcmp(name, "[vdso]") || !strcmp(name, "[vdso32]") || !strcmp(name, "[vdsox32]");
}

static int add_build_id(struct pd_machine *m, uint16_t cpumode, int32_t pid, const char *name,
			const uint8_t *id, size_t size)
{
	struct pd_dso *d;
	enum pd_dso_kind kind = PD_DSO_USER;

	/* which file a DSO is read from may change: so may every frame */
	kernel_changed(m);
	/* guests are a machine of their own: not modelled */
	if (cpumode == PD_CPUMODE_GUEST_KERNEL || cpumode == PD_CPUMODE_GUEST_USER)
		return 0;
	if (cpumode == PD_CPUMODE_KERNEL)
		kind = is_kernel_module_name(name) ? PD_DSO_MODULE : PD_DSO_KERNEL;
	else if (is_vdso_name(name))
		kind = PD_DSO_VDSO;
	else if (!strncmp(name, "/tmp/perf-", 10))
		kind = PD_DSO_JIT;
	d = dso_findnew(m, name, kind, 0, 0, 0, 0);
	if (!d)
		return -1;
	if (!d->has_build_id)
		dso_set_build_id(d, id, size);
	return 0;
}

static bool kernel_is_host(struct pd_machine *m, struct pd_dso *k);
static int open_kallsyms_copy(struct pd_machine *m, struct pd_dso *k, char *path, size_t size);

/*
 * A header whose build-id table lists this machine's kernel (perf record
 * lists the DSOs that have samples) will have its frames resolved from
 * the kernel's kallsyms copy in the build-id cache or /proc/kallsyms, as
 * load_kernel() chooses: they are read meanwhile.
 */
static void prefetch_kallsyms(struct pd_machine *m)
{
	char copy[PATH_MAX];
	struct pd_dso *d;
	int fd;

	if (m->kallsyms_prefetch || m->kernel || m->env.opts.kallsyms || m->env.symfs ||
	    m->env.opts.no_kernel)
		return;
	for (d = m->dsos; d; d = d->next)
		if (d->kind == PD_DSO_KERNEL)
			break;
	if (!d || d->load != PD_LOAD_NONE || !kernel_is_host(m, d))
		return;
	fd = open_kallsyms_copy(m, d, copy, sizeof(copy));
	if (fd >= 0)
		close(fd);
	m->kallsyms_prefetch = pd_kallsyms_prefetch_start(fd >= 0 ? copy : NULL, "/proc/kallsyms");
}

/*
 * The DWARF of the header's user DSOs will be read when their frames
 * get inline frames (unwound stacks: an event samples the user registers
 * and stack) or source lines: the decompressed copy of each one's debug
 * file that has compressed sections (libc6-dbg's, found by its build-id
 * link) is made meanwhile on a thread (pd_dwarf_copy_ahead()).
 */
static void prefetch_debug_copies(struct pd_machine *m, const struct pd_features *f)
{
	const uint64_t unwound = PD_SAMPLE_REGS_USER | PD_SAMPLE_STACK_USER;
	char path[PATH_MAX], hex[41];
	bool needed = m->env.opts.srcline;
	struct pd_dso *d;
	uint32_t i;
	int fd;

	for (i = 0; i < f->event_desc.nr && !needed; i++)
		needed = (f->event_desc.ev[i].attr.sample_type & unwound) == unwound &&
			 !m->env.opts.no_unwind && !m->env.opts.no_inline;
	for (d = m->dsos; d && needed; d = d->next) {
		if (d->kind != PD_DSO_USER || !d->has_build_id || d->load != PD_LOAD_NONE ||
		    d->build_id_size < 2)
			continue;
		pd_hex(d->build_id, d->build_id_size, hex);
		if (snprintf(path, sizeof(path), PD_DEBUG_BUILD_ID_LINK, hex, hex + 2) >=
		    (int)sizeof(path))
			continue;
		fd = pd_sym_open(&m->env, path, true);
		if (fd >= 0)
			pd_dwarf_copy_ahead(&m->env, fd);
	}
}

int pd_machine_add_features(struct pd_machine *m, const struct pd_features *f)
{
	uint32_t i;

	if (!f)
		return 0;
	if (f->osrelease && !m->osrelease)
		m->osrelease = strdup(f->osrelease);
	if (f->arch && !m->arch)
		m->arch = strdup(f->arch);
	for (i = 0; i < f->build_ids.nr; i++) {
		const struct pd_feat_build_id *b = &f->build_ids.ids[i];

		if (!b->filename)
			continue;
		if (add_build_id(m, b->misc & 7, b->pid, b->filename, b->id, b->size) < 0)
			return PD_STATUS_NOMEM;
	}
	prefetch_kallsyms(m);
	prefetch_debug_copies(m, f);
	return 0;
}

static bool is_anon(const char *f, uint32_t flags)
{
	return !strcmp(f, "//anon") || !strncmp(f, "/dev/zero", 9) ||
	       !strncmp(f, "/anon_hugepage", 14) || (flags & MAP_HUGETLB_BIT);
}

static bool is_no_dso(const char *f)
{
	return !strncmp(f, "[stack", 6) || !strncmp(f, "/SYSV", 5) || !strcmp(f, "[heap]");
}

static int kmaps_insert(struct pd_machine *m, const struct map *nm)
{
	size_t i;

	if (as_reserve(&m->kmaps, 1) < 0)
		return -1;
	/* kernel maps may overlap (perf does not cut them): keep start order */
	i = m->kmaps.nr;
	while (i > 0 && m->kmaps.maps[i - 1].start > nm->start) {
		m->kmaps.maps[i] = m->kmaps.maps[i - 1];
		i--;
	}
	m->kmaps.maps[i] = *nm;
	m->kmaps.nr++;
	return 0;
}

static struct map *kmaps_find(struct pd_machine *m, uint64_t ip)
{
	struct aspace *as = &m->kmaps;
	size_t lo = 0, hi = as->nr;

	if (as->last < as->nr && as->maps[as->last].start <= ip && ip < as->maps[as->last].end)
		return &as->maps[as->last];
	/* last map starting at or below ip, then earlier ones that still cover it */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (as->maps[mid].start <= ip)
			lo = mid + 1;
		else
			hi = mid;
	}
	while (lo > 0) {
		struct map *mp = &as->maps[--lo];

		if (ip < mp->end) {
			as->last = lo;
			return mp;
		}
		if (mp->dso->kind == PD_DSO_KERNEL)
			break;	/* the big map: nothing before it reaches further */
	}
	return NULL;
}

static struct map *kmaps_vmlinux(struct pd_machine *m)
{
	size_t i;

	for (i = 0; i < m->kmaps.nr; i++)
		if (m->kmaps.maps[i].dso == m->kernel && m->kernel)
			return &m->kmaps.maps[i];
	return NULL;
}

static void kmaps_sort(struct pd_machine *m)
{
	size_t i, j;

	for (i = 1; i < m->kmaps.nr; i++) {
		struct map x = m->kmaps.maps[i];

		for (j = i; j > 0 && m->kmaps.maps[j - 1].start > x.start; j--)
			m->kmaps.maps[j] = m->kmaps.maps[j - 1];
		m->kmaps.maps[j] = x;
	}
	m->kmaps.last = 0;
}

static int kernel_mmap(struct pd_machine *m, const struct pd_rec_mmap *mm)
{
	static const char kname[] = "[kernel.kallsyms]";
	const char *f = mm->filename;
	struct map nm = { .start = mm->start, .end = mm->start + mm->len, .pgoff = 0 };

	kernel_changed(m);
	if (f[0] == '/' || (f[0] == '[' && strncmp(f, kname, sizeof(kname) - 2))) {
		char *mod = module_short_name(f);
		struct pd_dso *d;

		if (!mod)
			return -1;
		d = dso_findnew(m, mod, PD_DSO_MODULE, 0, 0, 0, 0);
		free(mod);
		if (!d)
			return -1;
		if (f[0] == '/') {
			free(d->long_name);
			d->long_name = strdup(f);
			if (!d->long_name)
				return -1;
		}
		if (mm->has_build_id)
			dso_set_build_id(d, mm->build_id, mm->build_id_size);
		nm.dso = d;
		return kmaps_insert(m, &nm);
	}
	if (!strncmp(f, kname, sizeof(kname) - 2)) {
		struct pd_dso *k = kernel_dso(m, kname);
		struct map *old;

		if (!k)
			return -1;
		if (strstr(k->long_name, "vmlinux")) {
			free(k->short_name);
			k->short_name = strdup("[kernel.vmlinux]");
		}
		if (mm->has_build_id)
			dso_set_build_id(k, mm->build_id, mm->build_id_size);
		if (mm->pgoff) {
			/* "[kernel.kallsyms]_text": perf's reference symbol follows the name */
			const char *sym = strchr(f, ']');

			m->ref_text = mm->pgoff;
			m->ref_sym = NULL;
			if (sym && !strcmp(sym + 1, "_text"))
				m->ref_sym = "_text";
			else if (sym && !strcmp(sym + 1, "_stext"))
				m->ref_sym = "_stext";
		}
		nm.dso = k;
		nm.identity = true;
		if (nm.start == 0 && nm.end == 0)
			nm.end = ~0ULL;
		old = kmaps_vmlinux(m);
		if (old) {
			*old = nm;
			kmaps_sort(m);
			return 0;
		}
		return kmaps_insert(m, &nm);
	}
	return 0;
}

/* The word size of a DSO's ELF file (perf's dso__type), read once. */
static uint8_t dso_word_type(struct pd_machine *m, struct pd_dso *d)
{
	unsigned char eh[EI_NIDENT + 4];
	uint16_t machine;
	int fd;

	if (d->word_type != PD_DSO_WORD_UNREAD)
		return d->word_type;
	d->word_type = PD_DSO_WORD_UNKNOWN;
	fd = pd_sym_open(&m->env, d->long_name, true);
	if (fd < 0)
		return d->word_type;
	if (pd_sym_pread_all(fd, eh, sizeof(eh), 0) && !memcmp(eh, ELFMAG, SELFMAG)) {
		machine = eh[EI_DATA] == ELFDATA2MSB ? (uint16_t)(eh[18] << 8 | eh[19]) :
						       (uint16_t)(eh[19] << 8 | eh[18]);
		if (eh[EI_CLASS] == ELFCLASS64)
			d->word_type = PD_DSO_WORD_64;
		else if (eh[EI_CLASS] == ELFCLASS32)
			d->word_type = machine == EM_X86_64 ? PD_DSO_WORD_X32 : PD_DSO_WORD_32;
	}
	close(fd);
	return d->word_type;
}

/*
 * perf's name for the vdso of a process (machine__findnew_vdso): a 32-bit
 * process on a 64-bit machine has another image, [vdso32] ([vdsox32] for
 * x32), whose build id perf records under that name.  The process's word
 * size is that of the first of its maps, by address, whose file is an ELF.
 */
static const char *vdso_name(struct pd_machine *m, const struct aspace *as)
{
	size_t i;

	for (i = 0; i < as->nr; i++) {
		struct pd_dso *d = as->maps[i].dso;

		if (!d || d->kind != PD_DSO_USER)
			continue;
		switch (dso_word_type(m, d)) {
		case PD_DSO_WORD_32:
			return "[vdso32]";
		case PD_DSO_WORD_X32:
			return "[vdsox32]";
		case PD_DSO_WORD_64:
			return "[vdso]";
		default:
			break;
		}
	}
	return "[vdso]";
}

static int user_mmap(struct pd_machine *m, const struct pd_record *rec)
{
	const struct pd_rec_mmap *mm = &rec->u.mmap;
	struct thread *t = thread_findnew(m, (int32_t)mm->pid, (int32_t)mm->tid);
	const char *f = mm->filename;
	uint32_t prot = mm->prot, flags = mm->flags;
	char jit[64];
	struct map nm = { .start = mm->start, .end = mm->start + mm->len, .pgoff = mm->pgoff };
	bool anon, nodso;
	enum pd_dso_kind kind = PD_DSO_USER;

	if (!t)
		return -1;
	if (rec->type == PD_REC_MMAP) {
		prot = (rec->misc & PD_MISC_MMAP_DATA) ? 0 : PROT_EXEC_BIT;
		flags = 0;
	}
	anon = is_anon(f, flags);
	nodso = is_no_dso(f);
	if (anon || nodso) {
		nm.identity = true;
		kind = PD_DSO_ANON;
		if (prot & PROT_EXEC_BIT) {
			/* executable anonymous memory: JIT code, described by a perf map */
			snprintf(jit, sizeof(jit), "/tmp/perf-%d.map", t->pid);
			f = jit;
			kind = PD_DSO_JIT;
		}
	} else if (!strcmp(f, "[vdso]")) {
		kind = PD_DSO_VDSO;
		nm.pgoff = 0;
		f = vdso_name(m, t->as);
	} else if (!strncmp(f, "/tmp/perf-", 10)) {
		kind = PD_DSO_JIT;
	}
	if (kind == PD_DSO_VDSO || rec->type == PD_REC_MMAP)
		nm.dso = dso_findnew(m, f, kind, 0, 0, 0, 0);
	else
		nm.dso = dso_findnew(m, f, kind, mm->has_build_id ? 0 : mm->maj,
				     mm->has_build_id ? 0 : mm->min,
				     mm->has_build_id ? 0 : mm->ino,
				     mm->has_build_id ? 0 : mm->ino_generation);
	if (!nm.dso)
		return -1;
	if (mm->has_build_id && mm->build_id_size)
		dso_set_build_id(nm.dso, mm->build_id, mm->build_id_size);
	m->st.maps_inserted++;
	as_changed(m, t->as);
	return as_insert(t->as, &nm);
}

static int do_fork(struct pd_machine *m, const struct pd_record *rec)
{
	const struct pd_rec_fork *fk = &rec->u.fork;
	int32_t pid = (int32_t)fk->pid, tid = (int32_t)fk->tid;
	int32_t ppid = (int32_t)fk->ppid, ptid = (int32_t)fk->ptid;
	struct thread *t, *parent;
	uint64_t time = fk->time;

	parent = thread_findnew(m, ppid, ptid);
	if (!parent)
		return -1;
	if (parent->pid != ppid) {
		/* a stale entry for that tid: start over, as perf does */
		parent = thread_renew(m, parent, ppid, ptid);
		if (!parent)
			return -1;
	}
	t = thread_find(m, tid);
	if (t && t == parent) {
		/*
		 * A thread forking itself: perf drops it and starts a fresh one
		 * with its name and none of its maps (same process, nothing is
		 * copied).  Every task outside the recorder's pid namespace
		 * comes as 0/0, so such a recording is full of these.
		 */
		const char *comm = parent->comm_set ? thread_comm_now(parent) : NULL;

		t = thread_renew(m, t, pid, tid);
		if (!t)
			return -1;
		if (comm && thread_set_comm(m, t, comm, time) < 0)
			return -1;
		t->ppid = ptid;
		return 0;
	}
	if (t)
		t = thread_renew(m, t, pid, tid);	/* tid reuse: a fresh thread */
	else
		t = thread_findnew(m, pid, tid);
	if (!t)
		return -1;
	parent = thread_find(m, ptid);
	if (!parent || parent == t)
		return 0;
	if (parent->comm_set && thread_set_comm(m, t, thread_comm_now(parent), time) < 0)
		return -1;
	t->ppid = parent->tid;
	if (parent->pid != t->pid && t->as != parent->as && !(rec->misc & PD_MISC_FORK_EXEC)) {
		/* a new process starts with a copy of its parent's maps */
		struct aspace *as = t->as;
		size_t i;

		as_changed(m, as);
		if (parent->as->nr == 0) {
			/* nothing to copy */
		} else if (as->nr == 0) {
			if (as_reserve(as, parent->as->nr) < 0)
				return -1;
			memcpy(as->maps, parent->as->maps, parent->as->nr * sizeof(struct map));
			as->nr = parent->as->nr;
			as->last = 0;
		} else {
			for (i = 0; i < parent->as->nr; i++)
				if (as_insert(as, &parent->as->maps[i]) < 0)
					return -1;
		}
	}
	return 0;
}

static void invalidate_cache(struct pd_machine *m, struct pd_dso *d);

static int do_ksymbol(struct pd_machine *m, const struct pd_rec_ksymbol *ks)
{
	struct map *mp = kmaps_find(m, ks->addr);
	struct pd_dso *d;
	struct map nm;

	kernel_changed(m);
	if (ks->flags & 1) {	/* PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER */
		if (mp && mp->dso->kind == PD_DSO_KSYMBOL) {
			size_t i = (size_t)(mp - m->kmaps.maps);

			memmove(mp, mp + 1, (m->kmaps.nr - i - 1) * sizeof(*mp));
			m->kmaps.nr--;
			m->kmaps.last = 0;
		}
		return 0;
	}
	if (mp) {
		/* perf adds it to the covering map's DSO, at that map's start */
		uint64_t at = mp->identity ? mp->start : mp->pgoff;

		invalidate_cache(m, mp->dso);
		return pd_symtab_insert(&mp->dso->syms, at, at + ks->len, PD_STB_GLOBAL, PD_STT_FUNC,
					ks->name, strlen(ks->name)) ? 0 : -1;
	}
	d = dso_findnew(m, ks->name, PD_DSO_KSYMBOL, 0, 0, 0, 0);
	if (!d)
		return -1;
	if (!strncmp(ks->name, "bpf_trampoline_", 15) || !strncmp(ks->name, "bpf_dispatcher_", 15))
		d->long_name[0] = '\0';
	free(d->short_name);
	d->short_name = strdup(ks->name);
	if (!d->short_name)
		return -1;
	/* an existing one (registered again) changes its names and symbols */
	invalidate_cache(m, d);
	if (!pd_symtab_insert(&d->syms, 0, ks->len, PD_STB_GLOBAL, PD_STT_FUNC, ks->name,
			      strlen(ks->name)))
		return -1;
	nm.start = ks->addr;
	nm.end = ks->addr + ks->len;
	nm.pgoff = 0;
	nm.dso = d;
	nm.identity = false;
	return kmaps_insert(m, &nm);
}

static int machine_update(struct pd_machine *m, const struct pd_record *rec)
{
	uint8_t cpumode = rec->misc & 7;
	struct thread *t;

	if (!rec->decoded && rec->type != PD_REC_SAMPLE)
		return 0;
	switch (rec->type) {
	case PD_REC_COMM:
		t = thread_findnew(m, (int32_t)rec->u.comm.pid, (int32_t)rec->u.comm.tid);
		if (!t)
			return -1;
		return thread_set_comm(m, t, rec->u.comm.comm, rec->sid.time);
	case PD_REC_FORK:
		return do_fork(m, rec);
	case PD_REC_EXIT:
		t = thread_find(m, (int32_t)rec->u.fork.tid);
		if (t) {
			t->exited = true;
			t->exit_time = rec->u.fork.time;
		}
		return 0;
	case PD_REC_MMAP:
	case PD_REC_MMAP2:
		if (cpumode == PD_CPUMODE_KERNEL)
			return kernel_mmap(m, &rec->u.mmap);
		if (cpumode == PD_CPUMODE_GUEST_KERNEL || cpumode == PD_CPUMODE_GUEST_USER)
			return 0;
		return user_mmap(m, rec);
	case PD_REC_KSYMBOL:
		return do_ksymbol(m, &rec->u.ksymbol);
	case PD_REC_HEADER_BUILD_ID:
		return add_build_id(m, rec->u.build_id.cpumode, rec->u.build_id.pid,
				    rec->u.build_id.filename, rec->u.build_id.build_id,
				    rec->u.build_id.build_id_size);
	case PD_REC_SAMPLE:
		if (!rec->decoded)
			return 0;
		if (rec->u.sample.sample_type & PD_SAMPLE_TID)
			t = thread_findnew(m, (int32_t)rec->u.sample.pid, (int32_t)rec->u.sample.tid);
		else
			t = thread_findnew(m, -1, -1);
		return t ? 0 : -1;
	default:
		return 0;
	}
}

/* ------------------------------------------------------------ processes */

/* A tid counted in its process the first time it shows up with a pid. */
static int proc_thread_seen(struct pd_machine *m, int32_t pid, int32_t tid)
{
	struct thread *t = thread_find(m, tid);
	struct pd_proc *p;

	if (!t || t->counted || pid == -1)
		return 0;
	t->counted = true;
	p = pd_procs_get(&m->procs, pid);
	if (!p)
		return -1;
	p->pub.threads++;
	return 0;
}

/*
 * The process table after the threads took `rec`: by the record's own
 * pid and tid (the thread found by tid may belong to an older process).
 * A thread naming itself does not rename its process; a process's names
 * are those of its main thread, as perf keeps them.
 */
static int procs_update(struct pd_machine *m, const struct pd_record *rec)
{
	const struct pd_sample *s = &rec->u.sample;
	int32_t pid, tid;
	struct pd_proc *p;
	struct thread *t;

	switch (rec->type) {
	case PD_REC_COMM:
		pid = (int32_t)rec->u.comm.pid;
		tid = (int32_t)rec->u.comm.tid;
		if (proc_thread_seen(m, pid, tid) < 0)
			return -1;
		if (pid != tid)
			return 0;
		p = pd_procs_get(&m->procs, pid);
		return p ? pd_proc_add_comm(p, intern(m, rec->u.comm.comm)) : -1;
	case PD_REC_FORK:
		pid = (int32_t)rec->u.fork.pid;
		tid = (int32_t)rec->u.fork.tid;
		if (proc_thread_seen(m, pid, tid) < 0)
			return -1;
		if (pid != tid)
			return 0;
		p = pd_procs_get(&m->procs, pid);
		if (!p)
			return -1;
		p->pub.has_fork = true;
		p->pub.fork_time = rec->u.fork.time;
		p->pub.has_ppid = true;
		p->pub.ppid = (int32_t)rec->u.fork.ppid;
		/* the child runs under its parent's name until it execs */
		t = thread_find(m, tid);
		if (t && t->comm_set)
			return pd_proc_add_comm(p, thread_comm_now(t));
		return 0;
	case PD_REC_EXIT:
		if (rec->u.fork.pid != rec->u.fork.tid)
			return 0;
		p = pd_procs_get(&m->procs, (int32_t)rec->u.fork.pid);
		if (!p)
			return -1;
		p->pub.has_exit = true;
		p->pub.exit_time = rec->u.fork.time;
		return 0;
	case PD_REC_MMAP:
	case PD_REC_MMAP2:
		pid = (int32_t)rec->u.mmap.pid;
		if (pid == -1 || (rec->misc & PD_MISC_CPUMODE_MASK) != PD_CPUMODE_USER)
			return 0;
		if (proc_thread_seen(m, pid, (int32_t)rec->u.mmap.tid) < 0)
			return -1;
		p = pd_procs_get(&m->procs, pid);
		if (!p)
			return -1;
		p->pub.mmaps++;
		return 0;
	case PD_REC_SAMPLE:
		/* a sample without its attr has no event: nothing to charge it to */
		if (rec->event_index < 0)
			return 0;
		pid = -1;
		if (s->sample_type & PD_SAMPLE_TID) {
			pid = (int32_t)s->pid;
			if (proc_thread_seen(m, pid, (int32_t)s->tid) < 0)
				return -1;
		}
		return pd_procs_get(&m->procs, pid) ? 0 : -1;
	default:
		return 0;
	}
}

int pd_machine_process(struct pd_machine *m, const struct pd_record *rec)
{
	pd_sym_at_record(&m->env, rec);
	if (machine_update(m, rec) < 0)
		return PD_STATUS_NOMEM;
	if (!m->env.opts.processes || !rec->decoded)
		return 0;
	return procs_update(m, rec) < 0 ? PD_STATUS_NOMEM : 0;
}

int pd_machine_count_sample(struct pd_machine *m, const struct pd_record *rec, int event_index,
			    uint64_t period)
{
	const struct pd_sample *s = &rec->u.sample;
	struct pd_proc *p;

	if (!m->env.opts.processes)
		return 0;
	p = pd_procs_get(&m->procs, s->sample_type & PD_SAMPLE_TID ? (int32_t)s->pid : -1);
	return p && pd_proc_count(p, event_index, period) == 0 ? 0 : PD_STATUS_NOMEM;
}

int pd_machine_processes(struct pd_machine *m, pd_sym_process_fn fn, void *arg)
{
	struct pd_proc **v = pd_procs_sorted(&m->procs);
	size_t i;

	if (m->procs.nr && !v)
		return PD_STATUS_NOMEM;
	for (i = 0; i < m->procs.nr; i++) {
		struct pd_sym_process pr = v[i]->pub;
		struct thread *t;

		pr.comms = v[i]->comms;
		pr.counts = v[i]->counts;
		pr.nr_counts = v[i]->nr_counts;
		/* without a COMM of its own the process is named like perf names it */
		if (pr.nr_comms) {
			pr.comm = pr.comms[pr.nr_comms - 1];
		} else {
			t = thread_findnew(m, pr.pid, pr.pid);
			pr.comm = t ? thread_comm_now(t) : NULL;
		}
		if (!pr.has_ppid) {
			t = thread_find(m, pr.pid);
			if (t && t->ppid != -1) {
				pr.has_ppid = true;
				pr.ppid = t->ppid;
			}
		}
		fn(arg, &pr);
	}
	free(v);
	return 0;
}

/* ------------------------------------------------------------ loading */

static bool kernel_is_host(struct pd_machine *m, struct pd_dso *k)
{
	uint8_t id[20];
	struct utsname u;
	int n;

	if (!k->has_build_id) {
		/* no build id: the release must at least match */
		if (!m->osrelease)
			return true;
		return uname(&u) == 0 && !strcmp(u.release, m->osrelease);
	}
	n = pd_kernel_build_id(id, sizeof(id));
	return n > 0 && pd_build_id_equal(k->build_id, k->build_id_size, id, (size_t)n);
}

/* The kallsyms copy `perf record` put in its build-id cache for kernel k. */
static int open_kallsyms_copy(struct pd_machine *m, struct pd_dso *k, char *path, size_t size)
{
	char hex[41];
	int fd;

	if (!k->has_build_id || !m->env.buildid_dir)
		return -1;
	pd_hex(k->build_id, k->build_id_size, hex);
	snprintf(path, size, "%s/[kernel.kallsyms]/%s/kallsyms", m->env.buildid_dir, hex);
	fd = pd_sym_open(&m->env, path, false);
	if (fd < 0) {
		snprintf(path, size, "%s/[kernel.kallsyms]/%s", m->env.buildid_dir, hex);
		fd = pd_sym_open(&m->env, path, false);
	}
	return fd;
}

static int open_kallsyms(struct pd_machine *m, struct pd_dso *k, char *which, size_t wsz)
{
	if (m->env.opts.kallsyms) {
		snprintf(which, wsz, "%s", m->env.opts.kallsyms);
		return pd_sym_open(&m->env, m->env.opts.kallsyms, false);
	}
	if (m->env.symfs)
		return -1;	/* perf uses no local kallsyms with a symfs */
	if (kernel_is_host(m, k)) {
		snprintf(which, wsz, "/proc/kallsyms");
		return pd_sym_open(&m->env, "/proc/kallsyms", false);
	}
	/* another kernel's: the copy, however its addresses were laid out */
	return open_kallsyms_copy(m, k, which, wsz);
}

static struct map *kmaps_by_dso_name(struct pd_machine *m, const char *short_name)
{
	size_t i;

	for (i = 0; i < m->kmaps.nr; i++)
		if (m->kmaps.maps[i].dso->kind == PD_DSO_MODULE &&
		    !strcmp(m->kmaps.maps[i].dso->short_name, short_name))
			return &m->kmaps.maps[i];
	return NULL;
}

/* kallsyms split: module symbols to their module maps, the rest stays */
static void split_kallsyms(struct pd_machine *m, struct pd_symtab *t, uint64_t delta)
{
	uint32_t x = pd_symtab_first(t), next;

	for (; x; x = next) {
		const char *name = pd_symtab_name(t, x), *tab;
		struct pd_symn sn = t->n[x];

		next = pd_symtab_next(t, x);
		tab = strchr(name, '\t');
		if (tab) {
			struct map *mp = kmaps_by_dso_name(m, tab + 1);

			if (mp && mp->dso->load != PD_LOAD_DONE) {
				uint64_t s = sn.start - mp->start + mp->pgoff;

				pd_symtab_insert(&mp->dso->syms, s, s + (sn.end - sn.start), sn.bind,
						 sn.type, name, (size_t)(tab - name));
			}
			pd_symtab_erase(t, x);
			continue;
		}
		/* kernel relocated since: the same shift for every symbol keeps the order */
		t->n[x].start -= delta;
		t->n[x].end -= delta;
	}
}

/*
 * Whether a kallsyms copy, described by info, lays the kernel out as the
 * recording does: perf keeps the first copy it saves for a build id, which
 * may come from an earlier boot, where KASLR put the kernel and its
 * modules elsewhere.  The reference symbol must be at the address the
 * kernel map gives it, and every module the recording maps must have text
 * symbols in the copy, all inside that map (text only: since Linux 6.4 a
 * module's data lies apart from its text, while the map perf synthesizes
 * from /proc/modules starts at the text and spans the sizes of all).  A
 * recording without a reference address proves nothing.
 */
static bool copy_describes_recording(struct pd_machine *m, const struct pd_kallsyms_info *info)
{
	size_t i, j;

	if (!m->ref_text || !m->ref_sym || info->mods_overflow)
		return false;
	if (!strcmp(m->ref_sym, "_text") ? !info->have_text || info->text != m->ref_text :
					   !info->have_stext || info->stext != m->ref_text)
		return false;
	for (i = 0; i < m->kmaps.nr; i++) {
		const struct map *mp = &m->kmaps.maps[i];
		const struct pd_kallsyms_mod *mod = NULL;

		if (mp->dso->kind != PD_DSO_MODULE)
			continue;
		for (j = 0; j < info->nr_mods && !mod; j++)
			if (!strcmp(info->mods[j].name, mp->dso->short_name))
				mod = &info->mods[j];
		if (!mod || mod->lo < mp->start || mod->hi >= mp->end)
			return false;
	}
	return true;
}

/* A kallsyms file into t: the table read ahead when it is this file's, else read now. */
static long read_kallsyms(struct pd_machine *m, int fd, const char *which, struct pd_symtab *t,
			  struct pd_kallsyms_info *info, bool *fixed)
{
	long nr = -1;

	if (m->kallsyms_prefetch)
		nr = pd_kallsyms_prefetch_take(m->kallsyms_prefetch, which, t, info);
	*fixed = nr > 0;
	if (nr < 0)
		nr = pd_kallsyms_load(fd, t, info);
	return nr;
}

/*
 * The running kernel's symbols from its copy in the build-id cache rather
 * than from /proc/kallsyms, which the kernel formats anew on every read,
 * where the copy describes the recording; k->syms is empty then and stays
 * so otherwise.
 */
static bool load_host_copy(struct pd_machine *m, struct pd_dso *k, char *which, size_t wsz,
			   struct pd_kallsyms_info *info, bool *fixed)
{
	char path[PATH_MAX];
	long nr;
	int fd = open_kallsyms_copy(m, k, path, sizeof(path));

	if (fd < 0)
		return false;
	nr = read_kallsyms(m, fd, path, &k->syms, info, fixed);
	close(fd);
	if (nr > 0 && copy_describes_recording(m, info)) {
		snprintf(which, wsz, "%s", path);
		return true;
	}
	pd_symtab_free(&k->syms);
	pd_symtab_init(&k->syms);
	pd_kallsyms_info_free(info);
	return false;
}

static void load_kernel(struct pd_machine *m, struct pd_dso *k)
{
	char q[PATH_MAX + 3];
	char which[PATH_MAX] = "";
	struct pd_kallsyms_info info;
	uint64_t delta = 0;
	bool fixed = false;
	struct map *vm;
	uint32_t first, last;
	size_t i;
	long nr;
	int fd;

	memset(&info, 0, sizeof(info));
	if (m->env.opts.no_kernel)
		return;
	/* symbols a KSYMBOL record put in the kernel's DSO stay: no copy is tried then */
	if (m->env.opts.kallsyms || m->env.symfs || k->syms.nr || !kernel_is_host(m, k) ||
	    !load_host_copy(m, k, which, sizeof(which), &info, &fixed)) {
		fd = open_kallsyms(m, k, which, sizeof(which));
		if (fd < 0) {
			if (m->osrelease)
				pd_sym_diag(&m->env, k, PD_SYM_NO_KALLSYMS, true, "release=%s",
					    pd_sym_quote(q, sizeof(q), m->osrelease));
			else
				pd_sym_diag(&m->env, k, PD_SYM_NO_KALLSYMS, true, "release=unknown");
			goto out;
		}
		nr = read_kallsyms(m, fd, which, &k->syms, &info, &fixed);
		close(fd);
		if (nr <= 0) {
			pd_sym_diag(&m->env, k, PD_SYM_KALLSYMS_EMPTY, true, "file=%s",
				    pd_sym_quote(q, sizeof(q), which));
			goto out;
		}
	}
	if (m->ref_text && info.text)
		delta = info.text - m->ref_text;
	if (!fixed) {
		pd_symtab_fixup_end(&k->syms, true);
		pd_symtab_fixup_duplicate(&k->syms);
	}
	if (info.tab_names && !info.tab_syms.live) {
		split_kallsyms(m, &k->syms, delta);
	} else {
		/* read ahead: sealed, its module symbols taken out (sym_internal.h) */
		split_kallsyms(m, &info.tab_syms, 0);
		pd_symtab_shift(&k->syms, delta);
	}
	pd_symtab_shrink(&k->syms);
	for (i = 0; i < m->kmaps.nr; i++)
		if (m->kmaps.maps[i].dso->kind == PD_DSO_MODULE) {
			m->kmaps.maps[i].dso->load = PD_LOAD_DONE;
			pd_symtab_shrink(&m->kmaps.maps[i].dso->syms);
		}
	/* the kernel map now spans its symbols */
	vm = kmaps_vmlinux(m);
	first = pd_symtab_first(&k->syms);
	last = pd_symtab_last(&k->syms);
	if (vm && first && last) {
		vm->start = pd_symtab_start(&k->syms, first);
		vm->end = pd_symtab_end(&k->syms, last);
		kmaps_sort(m);
	}
out:
	pd_kallsyms_info_free(&info);
	/* whatever the thread read and was not taken */
	pd_kallsyms_prefetch_free(m->kallsyms_prefetch);
	m->kallsyms_prefetch = NULL;
}

static void load_vdso(struct pd_machine *m, struct pd_dso *d)
{
	char q[PATH_MAX + 3];
	char hex[41], path[PATH_MAX];
	unsigned long base;
	FILE *f;
	char line[512];

	if (d->has_build_id) {
		/* the recording machine's vdso, as perf record cached it */
		int fd;
		uint8_t *img;
		struct stat sb;

		if (!m->env.buildid_dir)
			return;
		pd_hex(d->build_id, d->build_id_size, hex);
		snprintf(path, sizeof(path), "%s/.build-id/%.2s/%s/vdso", m->env.buildid_dir, hex, hex + 2);
		fd = pd_sym_open(&m->env, path, m->env.buildid_under_root);
		if (fd < 0) {
			pd_sym_diag(&m->env, d, PD_SYM_NO_VDSO, true, "file=%s",
				    pd_sym_quote(q, sizeof(q), path));
			return;
		}
		if (fstat(fd, &sb) == 0 && sb.st_size > 0 && sb.st_size < (1 << 24)) {
			img = malloc((size_t)sb.st_size);
			if (img && pd_sym_pread_all(fd, img, (size_t)sb.st_size, 0))
				pd_elf_load_mem(d, img, (size_t)sb.st_size);
			free(img);
		}
		close(fd);
		free(d->syms_path);
		d->syms_path = strdup(path);
		d->syms_under_root = m->env.buildid_under_root;
		return;
	}
	/*
	 * No recorded copy: perf falls back to its own vdso, a file it writes
	 * to /tmp; under a symfs it looks for that file inside the root and
	 * finds nothing, so frames stay unresolved there too (and nothing of
	 * this machine leaks into a symfs resolution).
	 */
	if (m->env.symfs) {
		/* no file to name: perf's own copy is not looked for under the root */
		pd_sym_diag(&m->env, d, PD_SYM_NO_VDSO, true, "build_id=none symfs=%s",
			    pd_sym_quote(q, sizeof(q), m->env.symfs));
		return;
	}
	if (strcmp(d->name, "[vdso]")) {
		/* our own vdso is the 64-bit one: not the image of a 32-bit process */
		pd_sym_diag(&m->env, d, PD_SYM_NO_VDSO, true, "build_id=none");
		return;
	}
	base = getauxval(AT_SYSINFO_EHDR);
	if (!base)
		return;
	f = fopen("/proc/self/maps", "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		unsigned long s, e;

		if (!strstr(line, "[vdso]"))
			continue;
		if (sscanf(line, "%lx-%lx", &s, &e) == 2 && s == base && e > s)
			pd_elf_load_mem(d, (const void *)s, e - s);
		break;
	}
	fclose(f);
}

static void dso_load(struct pd_machine *m, struct pd_dso *d)
{
	char q[PATH_MAX + 3];
	int fd;

	d->load = PD_LOAD_DONE;
	switch (d->kind) {
	case PD_DSO_USER:
		pd_elf_load_dso(&m->env, d);
		break;
	case PD_DSO_KERNEL:
		load_kernel(m, d);
		break;
	case PD_DSO_MODULE:
		/* module symbols come with the kernel's kallsyms */
		if (m->kernel && m->kernel->load == PD_LOAD_NONE) {
			d->load = PD_LOAD_NONE;
			m->kernel->load = PD_LOAD_DONE;
			load_kernel(m, m->kernel);
			d->load = PD_LOAD_DONE;
		}
		break;
	case PD_DSO_VDSO:
		load_vdso(m, d);
		break;
	case PD_DSO_JIT:
		fd = pd_sym_open(&m->env, d->long_name, true);
		if (fd < 0) {
			pd_sym_diag(&m->env, d, PD_SYM_NO_PERF_MAP, true, "file=%s errno=%d",
				    pd_sym_quote(q, sizeof(q), d->long_name), errno);
			break;
		}
		if (pd_perfmap_load(fd, &d->syms) < 0)
			pd_sym_diag(&m->env, d, PD_SYM_NO_PERF_MAP, true, "file=%s",
				    pd_sym_quote(q, sizeof(q), d->long_name));
		close(fd);
		break;
	default:
		break;
	}
	pd_symtab_shrink(&d->syms);
	m->st.dsos_loaded++;
	m->st.symbols += d->syms.live;
}

/* ------------------------------------------------------------ resolving */

static inline uint32_t sym_lookup(struct pd_machine *m, const struct pd_dso *d, uint64_t addr)
{
	uint64_t h = pd_hash_u64(addr ^ (uint64_t)(uintptr_t)d) & ((1u << CACHE_BITS) - 1);
	struct cache_ent *c = &m->cache[h];

	if (c->dso == d && c->addr == addr) {
		m->st.cache_hits++;
		return c->sym;
	}
	m->st.cache_misses++;
	c->dso = d;
	c->addr = addr;
	c->sym = d->syms.live ? pd_symtab_find(&d->syms, addr) : 0;
	return c->sym;
}

static void invalidate_cache(struct pd_machine *m, struct pd_dso *d)
{
	size_t i;

	d->sym_gen++;
	for (i = 0; i < (1u << CACHE_BITS); i++)
		if (m->cache[i].dso == d)
			m->cache[i].dso = NULL;
}

/*
 * The map half of resolving: fills every field of *f but the symbol ones
 * and returns the DSO (loaded now if it was not), NULL without a map.
 * Inline in both of its callers, and resolve_in() in the loop of
 * pd_machine_resolve_ips(): perfsym resolves every frame of every sample
 * there, and a call per frame (or per half) cost more than the frame's
 * map search.
 */
static inline __attribute__((always_inline)) struct pd_dso *
resolve_map_in(struct pd_machine *m, struct thread *t, uint8_t cpumode, uint64_t ip,
	       struct pd_sym_frame *f)
{
	struct map *mp = NULL;
	struct pd_dso *d;
	bool user = false;

	memset(f, 0, sizeof(*f));
	f->ip = ip;
	f->addr = ip;
	f->cpumode = cpumode;
	if (cpumode == PD_CPUMODE_USER && t) {
		mp = as_find(t->as, ip);
		user = mp != NULL;
		/* a user-mode address in kernel space is looked up as kernel */
		if (!mp && ip >= KERNEL_START)
			cpumode = PD_CPUMODE_KERNEL;
	}
	if (cpumode == PD_CPUMODE_KERNEL) {
		mp = kmaps_find(m, ip);
		if (mp && mp->dso->load == PD_LOAD_NONE) {
			struct pd_dso *ld = mp->dso;
			size_t idx = (size_t)(mp - m->kmaps.maps);

			dso_load(m, ld);
			invalidate_cache(m, ld);
			kernel_changed(m);
			/* loading may have moved the map: find the same one again */
			mp = idx < m->kmaps.nr && m->kmaps.maps[idx].dso == ld ? &m->kmaps.maps[idx] : NULL;
			if (!mp) {
				size_t i;

				for (i = 0; i < m->kmaps.nr; i++)
					if (m->kmaps.maps[i].dso == ld)
						mp = &m->kmaps.maps[i];
			}
		}
	}
	if (!mp)
		return NULL;
	d = mp->dso;
	f->has_map = true;
	f->user_map = user;
	f->map_start = mp->start;
	f->map_end = mp->end;
	f->map_pgoff = mp->pgoff;
	f->addr = mp->identity ? ip : ip - mp->start + mp->pgoff;
	if (d->load == PD_LOAD_NONE) {
		dso_load(m, d);
		invalidate_cache(m, d);
		/*
		 * No frame resolved so far names a DSO before its load, and
		 * reading an ELF file's symbols changes no map: the frames
		 * resolved before stand (a system-wide profile loads a DSO
		 * every few thousand samples).  Other loads may move maps.
		 */
		if (d->kind != PD_DSO_USER)
			kernel_changed(m);
	}
	f->dso = d;
	f->dso_name = d->name;
	f->dso_short = d->short_name;
	f->dso_path = d->long_name;
	f->dso_kind = d->kind;
	return d;
}

/* The symbol half: the symbol fields of *f, mapped into d. */
static inline __attribute__((always_inline)) int
resolve_sym_in(struct pd_machine *m, const struct pd_dso *d, struct pd_sym_frame *f)
{
	uint32_t s = sym_lookup(m, d, f->addr);

	if (!s)
		return 0;
	f->sym = pd_symtab_name(&d->syms, s);
	f->sym_start = pd_symtab_start(&d->syms, s);
	f->sym_off = f->addr - f->sym_start;
	return 1;
}

int pd_machine_resolve_sym(struct pd_machine *m, struct pd_sym_frame *f)
{
	return resolve_sym_in(m, f->dso, f);
}

static inline __attribute__((always_inline)) int
resolve_in(struct pd_machine *m, struct thread *t, uint8_t cpumode, uint64_t ip,
	   struct pd_sym_frame *f)
{
	const struct pd_dso *d = resolve_map_in(m, t, cpumode, ip, f);

	return d ? resolve_sym_in(m, d, f) : 0;
}

uint64_t pd_machine_version(struct pd_machine *m, int32_t pid, int32_t tid, uint8_t cpumode)
{
	struct thread *t;

	if (cpumode != PD_CPUMODE_USER)
		return m->kstamp;
	t = thread_findnew(m, pid, tid);
	if (!t)
		return 0;
	/* a user address in kernel space is looked up in the kernel maps */
	if (t->as->kseen != m->kstamp) {
		t->as->kseen = m->kstamp;
		t->as->stamp = ++m->seq;
	}
	return t->as->stamp;
}

const struct pd_dso *pd_machine_resolve_map(struct pd_machine *m, int32_t pid, int32_t tid,
					    uint8_t cpumode, uint64_t ip, struct pd_sym_frame *f)
{
	return resolve_map_in(m, thread_findnew(m, pid, tid), cpumode, ip, f);
}

int pd_machine_resolve(struct pd_machine *m, int32_t pid, int32_t tid, uint8_t cpumode,
		       uint64_t ip, struct pd_sym_frame *f)
{
	struct thread *t = thread_findnew(m, pid, tid);

	return resolve_in(m, t, cpumode, ip, f);
}

void pd_machine_resolve_ips(struct pd_machine *m, int32_t pid, int32_t tid,
			    const struct pd_sym_ip *st, size_t n, struct pd_sym_frame *frames)
{
	struct thread *t = thread_findnew(m, pid, tid);
	size_t i;

	for (i = 0; i < n; i++) {
		resolve_in(m, t, st[i].cpumode, st[i].ip, &frames[i]);
		frames[i].unwound = st[i].unwound;
	}
}

const char *pd_machine_comm(struct pd_machine *m, int32_t pid, int32_t tid)
{
	struct thread *t = thread_findnew(m, pid, tid);

	return t ? thread_comm_now(t) : NULL;
}

const char *pd_machine_comm_at(struct pd_machine *m, int32_t tid, uint64_t time)
{
	struct thread *t = thread_find(m, tid);
	uint32_t i;

	if (!t)
		return NULL;
	for (i = t->nr_comms; i > 0; i--)
		if (t->comms[i - 1].time <= time)
			return t->comms[i - 1].s;
	return t->comms[0].s;
}

int pd_machine_thread(struct pd_machine *m, int32_t tid, struct pd_sym_thread *out)
{
	struct thread *t = thread_find(m, tid);

	if (!t)
		return -1;
	out->pid = t->pid;
	out->tid = t->tid;
	out->ppid = t->ppid;
	out->comm = thread_comm_now(t);
	out->comm_set = t->comm_set;
	out->exited = t->exited;
	out->exit_time = t->exit_time;
	out->nr_maps = t->as ? t->as->nr : 0;
	return 0;
}

int pd_machine_srcline(struct pd_machine *m, const struct pd_sym_frame *f,
		       struct pd_sym_srcline *out)
{
	char q[PATH_MAX + 3];
	struct pd_dso *d = (struct pd_dso *)(uintptr_t)f->dso;
	int err = 0, r;

	out->nr = 0;
	out->from_symtab = false;
	if (!m->env.opts.srcline)
		return -1;
	if (!d || !f->has_map)
		return 0;
	r = pd_dwarf_srcline(&m->env, d, f->addr, out, &err);
	if (err)
		pd_sym_diag(&m->env, d, PD_SYM_NO_DWARF_LINES, false, "file=%s",
			    pd_sym_quote(q, sizeof(q), d->syms_path ? d->syms_path : d->long_name));
	return r;
}

uint64_t pd_machine_diag_count(const struct pd_machine *m, enum pd_code code)
{
	unsigned int slot = (unsigned int)code - PD_SYM_DIAG_FIRST;

	return slot < PD_SYM_DIAG_NR ? m->env.counts[slot] : 0;
}

void pd_machine_stats(const struct pd_machine *m, struct pd_sym_stats *out)
{
	*out = m->st;
	out->notes = m->env.notes;
	out->threads = m->nr_threads;
	out->dsos = m->nr_dsos;
	if (m->uw.stats)
		m->uw.stats(m->uw.state, out);
}

/* ------------------------------------------------------------ unwinder support */

struct pd_uw_slot *pd_machine_unwinder(struct pd_machine *m)
{
	return &m->uw;
}

const char *pd_machine_arch(const struct pd_machine *m)
{
	return m->arch;
}

int pd_machine_uw_space(struct pd_machine *m, int32_t pid, int32_t tid, struct pd_uw_space *out)
{
	struct thread *t = thread_findnew(m, pid, tid);

	if (!t || !t->as)
		return -1;
	out->as = t->as;
	out->slot = &t->as->uw;
	out->pid = t->pid;
	out->stamp = pd_machine_version(m, pid, tid, PD_CPUMODE_USER);
	return 0;
}

bool pd_machine_uw_map(struct pd_machine *m, void *as, uint64_t addr, struct pd_uw_map *out)
{
	struct map *mp = as_find(as, addr);
	struct pd_dso *d;

	if (!mp || mp->identity)
		return false;
	d = mp->dso;
	if (d->load == PD_LOAD_NONE) {
		/* the unwinder reads the file symbols are loaded from */
		dso_load(m, d);
		invalidate_cache(m, d);
		kernel_changed(m);
	}
	out->start = mp->start;
	out->end = mp->end;
	out->pgoff = mp->pgoff;
	out->dso = d;
	return true;
}

bool pd_machine_uw_mapped(void *as, uint64_t addr)
{
	return as_find(as, addr) != NULL;
}

bool pd_machine_uw_dso_low(void *as, const struct pd_dso *d, uint64_t *low)
{
	struct aspace *a = as;
	size_t i;

	/* sorted by start: the first map of the DSO is its lowest */
	for (i = 0; i < a->nr; i++) {
		if (a->maps[i].dso == d && !a->maps[i].identity) {
			*low = a->maps[i].start;
			return true;
		}
	}
	return false;
}

bool pd_machine_uw_dso_base(void *as, const struct pd_dso *d, uint64_t *base)
{
	struct aspace *a = as;
	bool found = false;
	size_t i;

	for (i = 0; i < a->nr; i++) {
		const struct map *mp = &a->maps[i];

		if (mp->dso != d || mp->identity || mp->start < mp->pgoff)
			continue;
		if (!found || mp->start - mp->pgoff < *base)
			*base = mp->start - mp->pgoff;
		found = true;
	}
	return found;
}

bool pd_machine_uw_any_image(struct pd_machine *m, void *as)
{
	struct aspace *a = as;
	size_t i;

	for (i = 0; i < a->nr; i++) {
		struct pd_dso *d = a->maps[i].dso;

		if (a->maps[i].identity || (d->kind != PD_DSO_USER && d->kind != PD_DSO_VDSO))
			continue;
		if (d->load == PD_LOAD_NONE) {
			dso_load(m, d);
			invalidate_cache(m, d);
			kernel_changed(m);
		}
		if (d->runtime_path)
			return true;
		/*
		 * perf reads the 64-bit vdso from the build-id cache or, without
		 * a copy there, its own: a process whose files are all gone (a
		 * program run from a sealed memfd) is unwound, its sampled ip
		 * the one frame
		 */
		if (d->kind == PD_DSO_VDSO &&
		    (d->syms_path || (!m->env.symfs && !strcmp(d->name, "[vdso]"))))
			return true;
	}
	return false;
}
