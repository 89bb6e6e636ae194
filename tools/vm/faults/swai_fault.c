// SPDX-License-Identifier: GPL-2.0-only
/*
 * swai_fault.ko - a deliberately broken module, used only to prove that
 * tools/vm/swai-vm fails a run whose kernel oopses or warns (tools/vm/faults/
 * run-tests.sh).  Never loaded outside that test.
 */
#include <linux/bug.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/string.h>

static char *mode = "oops";
module_param(mode, charp, 0444);
MODULE_PARM_DESC(mode, "how to fail at load: oops, warn or none");

static int __init swai_fault_init(void)
{
	if (!strcmp(mode, "oops")) {
		int *volatile p = NULL;

		pr_info("swai_fault: dereferencing NULL on purpose\n");
		return *p;
	}
	WARN(!strcmp(mode, "warn"), "swai_fault: warning on purpose\n");
	return 0;
}

static void __exit swai_fault_exit(void)
{
}

module_init(swai_fault_init);
module_exit(swai_fault_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Deliberately broken module for testing the swai VM runner");
