/* SPDX-License-Identifier: MIT */
/*
 * perfdata.h - libperfdata: a streaming reader of Linux perf.data files.
 * Include this header; it pulls in the others.
 */
#ifndef PERFDATA_PERFDATA_H
#define PERFDATA_PERFDATA_H

#include "perfdata/pd_consts.h"
#include "perfdata/pd_diag.h"
#include "perfdata/pd_attr.h"
#include "perfdata/pd_feature.h"
#include "perfdata/pd_record.h"
#include "perfdata/pd_reader.h"
#include "perfdata/pd_select.h"
#include "perfdata/pd_visit.h"
#include "perfdata/pd_sample_fields.h"
#include "perfdata/pd_members.h"

#endif /* PERFDATA_PERFDATA_H */
