/* SPDX-License-Identifier: MIT */
/* test_suites.h - registration functions of the CUnit suites. */
#ifndef PD_TEST_SUITES_H
#define PD_TEST_SUITES_H

#include <stdbool.h>

int pd_test_register_feature(void);
int pd_test_register_record(void);
int pd_test_register_sample(void);
int pd_test_register_reader(void);
int pd_test_register_corpus(void);
int pd_test_register_swap(void);
int pd_test_register_json(void);
int pd_test_register_writer(void);
int pd_test_register_symbols(void);
int pd_test_register_proto(void);
int pd_test_register_batch_pipe(void);
int pd_test_register_fmt_num(void);
int pd_test_register_select(void);
int pd_test_register_proto_schema(void);
int pd_test_register_visit(void);
int pd_test_register_utf8(void);
int pd_test_register_json_str(void);
int pd_test_register_out_buf(void);
int pd_test_register_diag_json(void);
int pd_test_register_json_value(void);

#endif /* PD_TEST_SUITES_H */
