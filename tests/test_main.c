// SPDX-License-Identifier: MIT
/*
 * test_main.c - CUnit runner for every suite of the project.
 *
 * Usage: unit-tests [-s] [-r SUITE]
 *   -s        silent: print failures and the summary only
 *   -r SUITE  run only the suite with that name
 * Exit status 0 when every test passed, 1 otherwise.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <CUnit/Basic.h>

#include "test_suites.h"

static int (*const registrations[])(void) = {
	pd_test_register_feature,
	pd_test_register_record,
	pd_test_register_sample,
	pd_test_register_reader,
	pd_test_register_corpus,
	pd_test_register_swap,
	pd_test_register_json,
	pd_test_register_writer,
	pd_test_register_symbols,
	pd_test_register_proto,
	pd_test_register_batch_pipe,
	pd_test_register_fmt_num,
	pd_test_register_select,
	pd_test_register_proto_schema,
	pd_test_register_visit,
	pd_test_register_utf8,
	pd_test_register_json_str,
	pd_test_register_out_buf,
	pd_test_register_diag_json,
	pd_test_register_json_value,
};

int main(int argc, char **argv)
{
	const char *only = NULL;
	bool silent = false;
	unsigned int failures;
	size_t i;
	int opt;

	while ((opt = getopt(argc, argv, "sr:")) != -1) {
		switch (opt) {
		case 's':
			silent = true;
			break;
		case 'r':
			only = optarg;
			break;
		default:
			fprintf(stderr, "usage: %s [-s] [-r SUITE]\n", argv[0]);
			return 2;
		}
	}
	if (CU_initialize_registry() != CUE_SUCCESS)
		return 1;
	for (i = 0; i < sizeof(registrations) / sizeof(registrations[0]); i++) {
		if (registrations[i]() != CUE_SUCCESS) {
			fprintf(stderr, "suite registration failed: %s\n", CU_get_error_msg());
			CU_cleanup_registry();
			return 1;
		}
	}
	CU_basic_set_mode(silent ? CU_BRM_SILENT : CU_BRM_NORMAL);
	if (only) {
		CU_pSuite s = CU_get_suite(only);

		if (!s) {
			fprintf(stderr, "no suite named %s\n", only);
			CU_cleanup_registry();
			return 2;
		}
		CU_basic_run_suite(s);
	} else {
		CU_basic_run_tests();
	}
	failures = CU_get_number_of_failures() + CU_get_number_of_tests_failed();
	if (CU_get_number_of_failure_records())
		failures++;
	CU_cleanup_registry();
	return failures ? 1 : 0;
}
