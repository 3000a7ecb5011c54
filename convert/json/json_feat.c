// SPDX-License-Identifier: MIT
/*
 * json_feat.c - header, attrs and features of to-json --full, as jansson
 * values.  They are small and rare, so readability wins over speed here.
 * Numbers follow the rule of json_full.c: hex strings for addresses,
 * masks and flags; numbers below 2^53, decimal strings above.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "json/json_conv.h"
#include "json/json_feat.h"
#include "../common/fmt_num.h"
#include "../common/utf8.h"

json_t *json_u64(uint64_t v)
{
	char buf[24];

	if (v < (1ULL << 53))
		return json_integer((json_int_t)v);
	snprintf(buf, sizeof(buf), "%" PRIu64, v);
	return json_string(buf);
}

static json_t *jx(uint64_t v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "0x%" PRIx64, v);
	return json_string(buf);
}

json_t *json_text(const char *s)
{
	json_t *v;
	char *t;

	if (!s)
		return json_null();
	v = json_string(s);
	if (v)
		return v;
	/* not UTF-8: each stray byte becomes U+FFFD, the rule of every output */
	t = utf8_repair(s, strlen(s));
	v = t ? json_string(t) : NULL;
	free(t);
	return v ? v : json_null();
}

static json_t *js(const char *s)
{
	return json_text(s);
}

void json_put(json_t *o, const char *k, json_t *v)
{
	json_object_set_new(o, k, v ? v : json_null());
}

char *json_base64(const uint8_t *p, size_t n)
{
	static const char b64[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	char *out = malloc((n + 2) / 3 * 4 + 1), *o = out;
	size_t i;

	if (!out)
		return NULL;
	for (i = 0; i + 3 <= n; i += 3) {
		uint32_t v = (uint32_t)p[i] << 16 | (uint32_t)p[i + 1] << 8 | p[i + 2];

		*o++ = b64[v >> 18];
		*o++ = b64[(v >> 12) & 63];
		*o++ = b64[(v >> 6) & 63];
		*o++ = b64[v & 63];
	}
	if (n - i) {
		uint32_t v = (uint32_t)p[i] << 16 | (n - i == 2 ? (uint32_t)p[i + 1] << 8 : 0);

		*o++ = b64[v >> 18];
		*o++ = b64[(v >> 12) & 63];
		*o++ = n - i == 2 ? b64[(v >> 6) & 63] : '=';
		*o++ = '=';
	}
	*o = '\0';
	return out;
}

static json_t *jb64(const uint8_t *p, size_t n)
{
	char *s = json_base64(p, n);
	json_t *v = s ? json_string(s) : json_null();

	free(s);
	return v;
}

static json_t *jhexbytes(const uint8_t *p, size_t n)
{
	char buf[2 * 64 + 1];

	if (n > 64)
		n = 64;
	buf[fmt_hex_bytes(buf, p, n)] = '\0';
	return json_string(buf);
}

static json_t *str_list(const struct pd_str_list *l)
{
	json_t *a = json_array();
	uint32_t i;

	for (i = 0; l->s && i < l->nr; i++)
		json_array_append_new(a, js(l->s[i]));
	return a;
}

static json_t *u32_list(const uint32_t *v, uint32_t nr)
{
	json_t *a = json_array();
	uint32_t i;

	for (i = 0; v && i < nr; i++)
		json_array_append_new(a, json_integer(v[i]));
	return a;
}

static json_t *kv_list(const struct pd_kv_list *l)
{
	json_t *a = json_array();
	uint32_t i;

	for (i = 0; l->kv && i < l->nr; i++)
		json_array_append_new(a, json_pack("{s:o,s:o}", "key", js(l->kv[i].key),
						   "value", js(l->kv[i].value)));
	return a;
}

static json_t *bits(uint64_t v, const char *(*name)(unsigned int bit))
{
	json_t *a = json_array();
	unsigned int b;

	for (b = 0; b < 64; b++) {
		const char *n;
		char buf[16];

		if (!(v & (1ULL << b)))
			continue;
		n = name(b);
		if (!n) {
			snprintf(buf, sizeof(buf), "bit%u", b);
			n = buf;
		}
		json_array_append_new(a, json_string(n));
	}
	return a;
}

json_t *json_attr(const struct pd_attr *a)
{
	json_t *o = json_object();
	const char *tn = pd_attr_type_name(a->type);
	json_t *fl = json_array();
	unsigned int b;

	json_put(o, "type", json_integer(a->type));
	json_put(o, "type_name", tn ? json_string(tn) : json_null());
	json_put(o, "size", json_integer(a->size));
	json_put(o, "config", jx(a->config));
	json_put(o, (a->flags & PD_ATTR_FREQ) ? "sample_freq" : "sample_period", json_u64(a->sample_period));
	json_put(o, "sample_type", jx(a->sample_type));
	json_put(o, "sample_type_names", bits(a->sample_type, pd_sample_bit_name));
	json_put(o, "read_format", jx(a->read_format));
	json_put(o, "read_format_names", bits(a->read_format, pd_read_format_bit_name));
	json_put(o, "flags", jx(a->flags));
	for (b = 0; b < 64; b++) {
		const char *n;
		char buf[16];

		if (b == PD_ATTR_PRECISE_IP_SHIFT || b == PD_ATTR_PRECISE_IP_SHIFT + 1)
			continue;	/* a 2-bit value: "precise_ip" below */
		if (!(a->flags & (1ULL << b)))
			continue;
		n = pd_attr_flag_name(b);
		if (!n) {
			snprintf(buf, sizeof(buf), "bit%u", b);
			n = buf;
		}
		json_array_append_new(fl, json_string(n));
	}
	json_put(o, "flag_names", fl);
	json_put(o, "precise_ip", json_integer(pd_attr_precise_ip(a)));
	json_put(o, "wakeup", json_integer(a->wakeup_events));
	json_put(o, "bp_type", json_integer(a->bp_type));
	json_put(o, "config1", jx(a->config1));
	json_put(o, "config2", jx(a->config2));
	json_put(o, "branch_sample_type", jx(a->branch_sample_type));
	json_put(o, "branch_sample_type_names", bits(a->branch_sample_type, pd_branch_sample_bit_name));
	json_put(o, "sample_regs_user", jx(a->sample_regs_user));
	json_put(o, "sample_stack_user", json_integer(a->sample_stack_user));
	json_put(o, "clockid", json_integer(a->clockid));
	json_put(o, "sample_regs_intr", jx(a->sample_regs_intr));
	json_put(o, "aux_watermark", json_integer(a->aux_watermark));
	json_put(o, "sample_max_stack", json_integer(a->sample_max_stack));
	json_put(o, "reserved_2", json_integer(a->reserved_2));
	json_put(o, "aux_sample_size", json_integer(a->aux_sample_size));
	json_put(o, "aux_action", jx(a->aux_action));
	json_put(o, "sig_data", jx(a->sig_data));
	json_put(o, "config3", jx(a->config3));
	json_put(o, "config4", jx(a->config4));
	return o;
}

static json_t *build_ids(const struct pd_feat_build_ids *b)
{
	json_t *o = json_object(), *a = json_array();
	uint32_t i;

	json_put(o, "legacy", json_boolean(b->legacy));
	json_put(o, "perf612_padding", json_boolean(b->perf612_padding));
	for (i = 0; b->ids && i < b->nr; i++) {
		const struct pd_feat_build_id *e = &b->ids[i];
		const char *cm = pd_cpumode_name(e->misc & 7);

		json_array_append_new(a, json_pack("{s:o,s:o,s:o,s:i,s:o,s:o,s:o}",
			"misc", jx(e->misc), "cpumode", cm ? json_string(cm) : json_integer(e->misc & 7),
			"pid", json_integer(e->pid), "size", e->size,
			"build_id", jhexbytes(e->id, e->size <= 20 ? e->size : 20),
			"filename", js(e->filename), "offset", json_u64(e->offset)));
	}
	json_put(o, "entries", a);
	return o;
}

static json_t *event_desc(const struct pd_feat_event_desc *d, bool brief)
{
	json_t *o = json_object(), *a = json_array();
	uint32_t i, k;

	json_put(o, "attr_size", json_integer(d->attr_size));
	for (i = 0; d->ev && i < d->nr; i++) {
		json_t *ids = json_array();

		for (k = 0; d->ev[i].ids && k < d->ev[i].nr_ids; k++)
			json_array_append_new(ids, json_u64(d->ev[i].ids[k]));
		/* a brief form leaves the attr to the file's attr list */
		json_array_append_new(a, brief ?
			json_pack("{s:o,s:o}", "name", js(d->ev[i].name), "ids", ids) :
			json_pack("{s:o,s:o,s:o}", "name", js(d->ev[i].name),
				  "attr", json_attr(&d->ev[i].attr), "ids", ids));
	}
	json_put(o, "events", a);
	return o;
}

static json_t *cpu_topology(const struct pd_feat_cpu_topology *t)
{
	json_t *o = json_object();

	json_put(o, "core_siblings", str_list(&t->core_siblings));
	json_put(o, "thread_siblings", str_list(&t->thread_siblings));
	json_put(o, "has_cpu_ids", json_boolean(t->has_cpu_ids));
	if (t->has_cpu_ids) {
		json_put(o, "core_id", u32_list(t->core_id, t->nr_cpus));
		json_put(o, "socket_id", u32_list(t->socket_id, t->nr_cpus));
	}
	json_put(o, "has_dies", json_boolean(t->has_dies));
	if (t->has_dies) {
		json_put(o, "die_siblings", str_list(&t->die_siblings));
		json_put(o, "die_id", u32_list(t->die_id, t->nr_cpus));
	}
	json_put(o, "nr_cpus_guessed", json_boolean(t->nr_cpus_guessed));
	return o;
}

json_t *json_feature_value(const struct pd_features *f, unsigned int id, bool brief)
{
	json_t *a, *o;
	uint32_t i, k;

	switch (id) {
	case PD_FEAT_TRACING_DATA:
		o = json_object();
		json_put(o, "size", json_u64(f->tracing_data.size));
		json_put(o, "magic_ok", json_boolean(f->tracing_data.magic_ok));
		json_put(o, "version", js(f->tracing_data.version));
		return o;
	case PD_FEAT_BUILD_ID:
		return build_ids(&f->build_ids);
	case PD_FEAT_HOSTNAME:
		return js(f->hostname);
	case PD_FEAT_OSRELEASE:
		return js(f->osrelease);
	case PD_FEAT_VERSION:
		return js(f->version);
	case PD_FEAT_ARCH:
		return js(f->arch);
	case PD_FEAT_NRCPUS:
		return json_pack("{s:I,s:I}", "online", (json_int_t)f->nrcpus.online, "avail",
				 (json_int_t)f->nrcpus.avail);
	case PD_FEAT_CPUDESC:
		return js(f->cpudesc);
	case PD_FEAT_CPUID:
		return js(f->cpuid);
	case PD_FEAT_TOTAL_MEM:
		return json_u64(f->total_mem);
	case PD_FEAT_CMDLINE:
		return str_list(&f->cmdline);
	case PD_FEAT_EVENT_DESC:
		return event_desc(&f->event_desc, brief);
	case PD_FEAT_CPU_TOPOLOGY:
		return cpu_topology(&f->cpu_topology);
	case PD_FEAT_NUMA_TOPOLOGY:
		a = json_array();
		for (i = 0; f->numa_topology.nodes && i < f->numa_topology.nr; i++) {
			const struct pd_feat_numa_node *n = &f->numa_topology.nodes[i];

			json_array_append_new(a, json_pack("{s:I,s:o,s:o,s:o}", "node", (json_int_t)n->node,
				"mem_total", json_u64(n->mem_total), "mem_free", json_u64(n->mem_free),
				"cpus", js(n->cpus)));
		}
		return a;
	case PD_FEAT_BRANCH_STACK:
		return json_boolean(f->branch_stack);
	case PD_FEAT_PMU_MAPPINGS:
		a = json_array();
		for (i = 0; f->pmu_mappings.pmus && i < f->pmu_mappings.nr; i++)
			json_array_append_new(a, json_pack("{s:I,s:o}", "type",
				(json_int_t)f->pmu_mappings.pmus[i].type, "name", js(f->pmu_mappings.pmus[i].name)));
		return a;
	case PD_FEAT_GROUP_DESC:
		a = json_array();
		for (i = 0; f->group_desc.groups && i < f->group_desc.nr; i++) {
			const struct pd_feat_group *g = &f->group_desc.groups[i];

			json_array_append_new(a, json_pack("{s:o,s:I,s:I}", "name", js(g->name),
				"leader_idx", (json_int_t)g->leader_idx, "nr_members", (json_int_t)g->nr_members));
		}
		return a;
	case PD_FEAT_AUXTRACE:
		o = json_object();
		a = json_array();
		json_put(o, "simpleperf", json_boolean(f->auxtrace.simpleperf));
		for (i = 0; f->auxtrace.entries && i < f->auxtrace.nr; i++)
			json_array_append_new(a, json_pack("{s:o,s:o}", "file_offset",
				json_u64(f->auxtrace.entries[i].file_offset), "size",
				json_u64(f->auxtrace.entries[i].size)));
		json_put(o, "entries", a);
		return o;
	case PD_FEAT_STAT:
		return json_boolean(f->stat);
	case PD_FEAT_CACHE:
		o = json_object();
		a = json_array();
		json_put(o, "version", json_integer(f->cache.version));
		for (i = 0; f->cache.levels && i < f->cache.nr; i++) {
			const struct pd_feat_cache_level *l = &f->cache.levels[i];

			json_array_append_new(a, json_pack("{s:I,s:I,s:I,s:I,s:o,s:o,s:o}",
				"level", (json_int_t)l->level, "line_size", (json_int_t)l->line_size,
				"sets", (json_int_t)l->sets, "ways", (json_int_t)l->ways, "type", js(l->type), "size", js(l->size),
				"map", js(l->map)));
		}
		json_put(o, "levels", a);
		return o;
	case PD_FEAT_SAMPLE_TIME:
		return json_pack("{s:o,s:o}", "first", json_u64(f->sample_time.first), "last",
				 json_u64(f->sample_time.last));
	case PD_FEAT_MEM_TOPOLOGY:
		o = json_object();
		a = json_array();
		json_put(o, "version", json_u64(f->mem_topology.version));
		json_put(o, "block_size", json_u64(f->mem_topology.block_size));
		for (i = 0; f->mem_topology.nodes && i < f->mem_topology.nr; i++) {
			const struct pd_feat_mem_node *n = &f->mem_topology.nodes[i];
			json_t *bm = json_array();
			uint64_t w;

			for (w = 0; n->bitmap && w < (n->nbits + 63) / 64; w++)
				json_array_append_new(bm, jx(n->bitmap[w]));
			json_array_append_new(a, json_pack("{s:o,s:o,s:o}", "node_id",
				json_u64(n->node_id), "nbits", json_u64(n->nbits), "bitmap", bm));
		}
		json_put(o, "nodes", a);
		return o;
	case PD_FEAT_CLOCKID:
		return json_u64(f->clockid_res_ns);
	case PD_FEAT_DIR_FORMAT:
		return json_u64(f->dir_format);
	case PD_FEAT_BPF_PROG_INFO:
		o = json_object();
		a = json_array();
		json_put(o, "skipped_swapped", json_boolean(f->bpf_prog_info.skipped_swapped));
		for (i = 0; f->bpf_prog_info.progs && i < f->bpf_prog_info.nr; i++) {
			const struct pd_feat_bpf_prog *p = &f->bpf_prog_info.progs[i];

			json_array_append_new(a, json_pack("{s:I,s:I,s:o,s:o}", "info_len",
				(json_int_t)p->info_len, "data_len", (json_int_t)p->data_len, "arrays", jx(p->arrays),
				"offset", json_u64(p->offset)));
		}
		json_put(o, "progs", a);
		return o;
	case PD_FEAT_BPF_BTF:
		o = json_object();
		a = json_array();
		json_put(o, "skipped_swapped", json_boolean(f->bpf_btf.skipped_swapped));
		for (i = 0; f->bpf_btf.btfs && i < f->bpf_btf.nr; i++)
			json_array_append_new(a, json_pack("{s:I,s:I,s:o}", "id",
				(json_int_t)f->bpf_btf.btfs[i].id, "data_size",
				(json_int_t)f->bpf_btf.btfs[i].data_size,
				"offset", json_u64(f->bpf_btf.btfs[i].offset)));
		json_put(o, "btfs", a);
		return o;
	case PD_FEAT_COMPRESSED:
		return json_pack("{s:I,s:I,s:I,s:I,s:I}", "version", (json_int_t)f->compressed.version,
				 "type", (json_int_t)f->compressed.type, "level",
				 (json_int_t)f->compressed.level, "ratio", (json_int_t)f->compressed.ratio,
				 "mmap_len", (json_int_t)f->compressed.mmap_len);
	case PD_FEAT_CPU_PMU_CAPS:
		return kv_list(&f->cpu_pmu_caps);
	case PD_FEAT_CLOCK_DATA:
		return json_pack("{s:I,s:I,s:o,s:o}", "version", (json_int_t)f->clock_data.version,
				 "clockid", (json_int_t)f->clock_data.clockid, "tod_ns", json_u64(f->clock_data.tod_ns),
				 "clockid_ns", json_u64(f->clock_data.clockid_ns));
	case PD_FEAT_HYBRID_TOPOLOGY:
		a = json_array();
		for (i = 0; f->hybrid_topology.nodes && i < f->hybrid_topology.nr; i++)
			json_array_append_new(a, json_pack("{s:o,s:o}", "pmu_name",
				js(f->hybrid_topology.nodes[i].pmu_name), "cpus",
				js(f->hybrid_topology.nodes[i].cpus)));
		return a;
	case PD_FEAT_PMU_CAPS:
		a = json_array();
		for (i = 0; f->pmu_caps.pmus && i < f->pmu_caps.nr; i++)
			json_array_append_new(a, json_pack("{s:o,s:o}", "pmu_name",
				js(f->pmu_caps.pmus[i].pmu_name), "caps",
				kv_list(&f->pmu_caps.pmus[i].caps)));
		return a;
	case PD_FEAT_CPU_DOMAIN_INFO:
		o = json_object();
		a = json_array();
		json_put(o, "schedstat_version", json_integer(f->cpu_domain_info.schedstat_version));
		json_put(o, "max_sched_domains", json_integer(f->cpu_domain_info.max_sched_domains));
		for (i = 0; f->cpu_domain_info.cpus && i < f->cpu_domain_info.nr; i++) {
			const struct pd_feat_domain_cpu *c = &f->cpu_domain_info.cpus[i];
			json_t *d = json_array();

			for (k = 0; c->domains && k < c->nr_domains; k++)
				json_array_append_new(d, json_pack("{s:I,s:o,s:o,s:o}", "domain",
					(json_int_t)c->domains[k].domain, "name", js(c->domains[k].name),
					"cpumask", js(c->domains[k].cpumask), "cpulist",
					js(c->domains[k].cpulist)));
			json_array_append_new(a, json_pack("{s:I,s:o}", "cpu", (json_int_t)c->cpu,
							   "domains", d));
		}
		json_put(o, "cpus", a);
		return o;
	case PD_FEAT_E_MACHINE:
		return json_pack("{s:I,s:o}", "e_machine", (json_int_t)f->e_machine.e_machine, "e_flags",
				 jx(f->e_machine.e_flags));
	case PD_FEAT_CLN_SIZE:
		return f->cln_size.has_value ? json_u64(f->cln_size.value) : json_null();
	case PD_FEAT_SP_FILE:
	case PD_FEAT_SP_FILE2: {
		const struct pd_feat_sp_files *sf = id == PD_FEAT_SP_FILE ? &f->sp_file :
						    &f->sp_file2;

		a = json_array();
		for (i = 0; sf->files && i < sf->nr; i++) {
			const struct pd_feat_sp_file *e = &sf->files[i];
			json_t *syms = json_array(), *dex = json_array();

			for (k = 0; !brief && e->symbols && k < e->nr_symbols; k++)
				json_array_append_new(syms, json_pack("{s:o,s:I,s:o}", "vaddr",
					jx(e->symbols[k].vaddr), "len", (json_int_t)e->symbols[k].len, "name",
					js(e->symbols[k].name)));
			for (k = 0; e->dex_offsets && k < e->nr_dex_offsets; k++)
				json_array_append_new(dex, jx(e->dex_offsets[k]));
			/* symbol tables can be long: a brief form only counts them */
			if (brief) {
				json_decref(syms);
				syms = json_integer(e->nr_symbols);
			}
			o = json_pack("{s:o,s:I,s:o,s:o,s:o}", "path", js(e->path), "type", (json_int_t)e->type,
				      "min_vaddr", jx(e->min_vaddr), brief ? "nr_symbols" : "symbols",
				      syms, "dex_offsets", dex);
			if (e->has_min_vaddr_offset)
				json_put(o, "min_vaddr_offset", jx(e->min_vaddr_offset));
			json_array_append_new(a, o);
		}
		return a;
	}
	case PD_FEAT_SP_META_INFO:
		return kv_list(&f->sp_meta_info);
	case PD_FEAT_SP_DEBUG_UNWIND:
		a = json_array();
		for (i = 0; f->sp_debug_unwind.paths && i < f->sp_debug_unwind.nr; i++)
			json_array_append_new(a, json_pack("{s:o,s:o}", "path",
				js(f->sp_debug_unwind.paths[i]), "size",
				json_u64(f->sp_debug_unwind.sizes ? f->sp_debug_unwind.sizes[i] : 0)));
		return a;
	default:
		return NULL;	/* kept as bytes only */
	}
}

json_t *json_feature(const struct pd_features *f, unsigned int id, const uint8_t *payload,
		     size_t len, bool known_id)
{
	const struct pd_feat_raw *raw = known_id ? &f->raw[id] : NULL;
	json_t *o = json_object(), *v = NULL;
	char buf[24];
	bool decoded = raw && raw->present && raw->decoded;

	if (!payload && raw) {
		payload = raw->data;
		len = raw->len;
	}
	json_put(o, "id", json_integer(id));
	json_put(o, "name", json_string(tool_feature_name(id, buf, sizeof(buf))));
	if (raw && raw->present)
		json_put(o, "offset", json_u64(raw->offset));
	json_put(o, "size", json_u64(len));
	json_put(o, "decoded", json_boolean(decoded));
	if (decoded)
		v = json_feature_value(f, id, false);
	if (v)
		json_put(o, "value", v);
	/* what has no typed form stays available byte for byte */
	if (!v || !decoded)
		json_put(o, "raw", jb64(payload, payload ? len : 0));
	return o;
}

static json_t *section(const struct pd_section *s)
{
	return json_pack("{s:o,s:o}", "offset", json_u64(s->offset), "size", json_u64(s->size));
}

json_t *json_source(const struct pd_header *h, const char *input)
{
	json_t *src = json_object();

	json_put(src, "path", js(input));
	json_put(src, "mode", json_string(cli_mode_name(h->mode)));
	json_put(src, "byte_order", json_string(h->big_endian ? "big" : "little"));
	json_put(src, "swapped", json_boolean(h->swapped));
	json_put(src, "size", json_u64(h->file_size));
	json_put(src, "spooled", json_boolean(h->spooled));
	if (h->mode == PD_MODE_DIR)
		json_put(src, "streams", json_integer(h->nr_streams));
	return src;
}

json_t *json_header(const struct pd_header *h)
{
	json_t *hdr = json_object();
	size_t i;

	json_put(hdr, "magic", jx(h->magic));
	json_put(hdr, "header_size", json_u64(h->header_size));
	if (h->mode != PD_MODE_PIPE) {
		json_t *bm = json_array();

		json_put(hdr, "attr_size", json_u64(h->attr_size));
		json_put(hdr, "attrs", section(&h->attrs));
		json_put(hdr, "data", section(&h->data));
		json_put(hdr, "event_types", section(&h->event_types));
		for (i = 0; i < 4; i++)
			json_array_append_new(bm, jx(h->features[i]));
		json_put(hdr, "feature_bitmap", h->has_feature_bitmap ? bm : (json_decref(bm), json_null()));
	}
	return hdr;
}

json_t *json_event(const struct pd_event *ev, size_t idx)
{
	json_t *ids = json_array();
	size_t k;

	for (k = 0; ev->ids && k < ev->nr_ids; k++)
		json_array_append_new(ids, json_u64(ev->ids[k]));
	return json_pack("{s:i,s:o,s:o,s:i,s:o,s:o}", "index", (int)idx, "name", js(ev->name),
			 "file_offset", json_u64(ev->file_offset), "size_on_disk",
			 (int)ev->attr_size_on_disk, "attr", json_attr(&ev->attr), "ids", ids);
}

json_t *json_file_description(struct pd_reader *r, const char *input)
{
	const struct pd_header *h = pd_reader_header(r);
	const struct pd_features *f = pd_reader_features(r);
	json_t *d = json_object(), *attrs = json_array(), *feats = json_array();
	unsigned int id;
	size_t i;

	json_put(d, "schema_version", json_integer(JSON_FULL_SCHEMA_VERSION));
	json_put(d, "generator", json_pack("{s:s,s:s}", "name", "perfconv", "version", pd_version()));
	json_put(d, "source", json_source(h, input));
	json_put(d, "header", json_header(h));
	/* pipe mode: the attrs and features arrive later as records */
	for (i = 0; i < pd_reader_nr_events(r); i++)
		json_array_append_new(attrs, json_event(pd_reader_event(r, i), i));
	json_put(d, "attrs", attrs);
	for (id = 0; id < PD_FEAT_BITS; id++)
		if (pd_features_has(f, id))
			json_array_append_new(feats, json_feature(f, id, NULL, 0, true));
	json_put(d, "features", feats);
	return d;
}

/* perf's register names (arch/x86 and arch/arm64 perf_regs.h) */
static const char *const x86_regs[] = {
	"AX", "BX", "CX", "DX", "SI", "DI", "BP", "SP", "IP", "FLAGS", "CS", "SS",
	"DS", "ES", "FS", "GS", "R8", "R9", "R10", "R11", "R12", "R13", "R14", "R15",
	"SSP",
};

static const char *const arm64_regs[] = {
	"x0", "x1", "x2", "x3", "x4", "x5", "x6", "x7", "x8", "x9", "x10", "x11", "x12",
	"x13", "x14", "x15", "x16", "x17", "x18", "x19", "x20", "x21", "x22", "x23",
	"x24", "x25", "x26", "x27", "x28", "x29", "lr", "sp", "pc",
};

const char *json_reg_name(const char *arch, uint64_t abi, unsigned int bit, char *buf,
			  size_t size)
{
	if (arch && (!strcmp(arch, "x86_64") || !strcmp(arch, "x86") ||
		     (arch[0] == 'i' && !strcmp(arch + 2, "86")))) {
		if (bit < sizeof(x86_regs) / sizeof(x86_regs[0]))
			return x86_regs[bit];
		/* XMM registers take two slots each from bit 32 on */
		if (bit >= 32 && bit < 64) {
			snprintf(buf, size, "XMM%u%s", (bit - 32) / 2, bit & 1 ? "_hi" : "");
			return buf;
		}
	} else if (arch && (!strcmp(arch, "aarch64") || !strcmp(arch, "arm64"))) {
		if (bit < sizeof(arm64_regs) / sizeof(arm64_regs[0]))
			return arm64_regs[bit];
	}
	snprintf(buf, size, "r%u", bit);
	return buf;
}
