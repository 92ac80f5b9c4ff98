/* SPDX-License-Identifier: ISC */
/*
 * context.c: the device part read from a fake sysfs and mountinfo (a
 * partition, so the queue and the size are its disk's), and the real
 * machine's context for the source tree.
 */
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "context.h"
#include "t_report.h"

static void
t_write(const char *root, const char *rel, const char *text)
{
	char	 path[1024], dir[1024], *s;
	FILE	*f;

	snprintf(path, sizeof path, "%s/%s", root, rel);
	snprintf(dir, sizeof dir, "%s", path);
	for (s = dir + strlen(root) + 1; (s = strchr(s, '/')) != NULL; s++) {
		*s = '\0';
		mkdir(dir, 0755);
		*s = '/';
	}
	assert_non_null(f = fopen(path, "w"));
	fputs(text, f);
	fclose(f);
}

static void
test_fake_tree(void **state)
{
	struct report_context	 ctx;
	char			*root, link[1024], target[1024];

	(void)state;
	root = t_tmpdir();
	t_write(root, "sys/devices/pci0/nvme/block/nvme1n1/nvme1n1p2/partition",
	    "2\n");
	t_write(root, "sys/devices/pci0/nvme/block/nvme1n1/queue/scheduler",
	    "mq-deadline kyber [none]\n");
	t_write(root, "sys/devices/pci0/nvme/block/nvme1n1/queue/rotational",
	    "0\n");
	t_write(root, "sys/devices/pci0/nvme/block/nvme1n1/queue/nr_requests",
	    "1023\n");
	t_write(root,
	    "sys/devices/pci0/nvme/block/nvme1n1/queue/read_ahead_kb", "128\n");
	t_write(root,
	    "sys/devices/pci0/nvme/block/nvme1n1/queue/logical_block_size",
	    "512\n");
	t_write(root,
	    "sys/devices/pci0/nvme/block/nvme1n1/queue/physical_block_size",
	    "4096\n");
	t_write(root, "sys/devices/pci0/nvme/block/nvme1n1/device/model",
	    "Amazon Elastic Block Store              \n");
	/* The disk's size in 512-byte sectors (100 GiB); the partition's. */
	t_write(root, "sys/devices/pci0/nvme/block/nvme1n1/size",
	    "209715200\n");
	t_write(root, "sys/devices/pci0/nvme/block/nvme1n1/nvme1n1p2/size",
	    "2048\n");
	t_write(root, "sys/dev/block/.keep", "");
	snprintf(link, sizeof link, "%s/sys/dev/block/259:3", root);
	snprintf(target, sizeof target,
	    "../../devices/pci0/nvme/block/nvme1n1/nvme1n1p2");
	assert_int_equal(symlink(target, link), 0);
	t_write(root, "proc/self/mountinfo",
	    "22 1 0:21 / /proc rw,relatime - proc proc rw\n"
	    "30 1 259:3 / /data rw,noatime shared:1 - ext4 /dev/nvme1n1p2 "
	    "rw,errors=remount-ro\n"
	    "31 1 259:4 / /other rw - xfs /dev/nvme1n1p3 rw\n");

	memset(&ctx, 0, sizeof ctx);
	ctx.rotational = -1;
	context_fill_devno(&ctx, makedev(259, 3), root);
	assert_string_equal(ctx.device, "nvme1n1");
	assert_string_equal(ctx.device_model, "Amazon Elastic Block Store");
	/* The volume under the partition: the whole disk. */
	assert_int_equal(ctx.device_size_bytes, 100ULL << 30);
	assert_string_equal(ctx.scheduler, "none");
	assert_int_equal(ctx.rotational, 0);
	assert_int_equal(ctx.nr_requests, 1023);
	assert_int_equal(ctx.read_ahead_kb, 128);
	assert_int_equal(ctx.logical_block, 512);
	assert_int_equal(ctx.physical_block, 4096);
	assert_string_equal(ctx.fstype, "ext4");
	assert_string_equal(ctx.mount_options, "rw,noatime");

	/* A device sysfs does not know: only what mountinfo says. */
	memset(&ctx, 0, sizeof ctx);
	ctx.rotational = -1;
	context_fill_devno(&ctx, makedev(259, 4), root);
	assert_string_equal(ctx.device, "");
	assert_string_equal(ctx.fstype, "xfs");
	assert_int_equal(ctx.rotational, -1);
	assert_int_equal(ctx.device_size_bytes, 0);
	t_rmdir(root);
	free(root);
}

static void
test_this_machine(void **state)
{
	struct report_context	ctx;
	struct stat		st;
	char			sys[128];
	const char		*top = getenv("TOP_SRCDIR");

	(void)state;
	if (top == NULL)
		top = TP_SRCDIR;
	context_fill(&ctx, top);
	assert_true(strncmp(ctx.kernel, "Linux ", 6) == 0);
	assert_true(ctx.hostname[0] != '\0');
	assert_true(ctx.fstype[0] != '\0');
	assert_int_equal(stat(top, &st), 0);
	snprintf(sys, sizeof sys, "/sys/dev/block/%u:%u", major(st.st_dev),
	    minor(st.st_dev));
	if (access(sys, F_OK) == 0) {
		assert_true(ctx.device[0] != '\0');
		assert_true(ctx.logical_block >= 512);
		assert_true(ctx.device_size_bytes > 0);
		assert_true(ctx.rotational == 0 || ctx.rotational == 1);
	}
	/* No path: the host only. */
	context_fill(&ctx, NULL);
	assert_string_equal(ctx.device, "");
	assert_string_equal(ctx.fstype, "");
	assert_true(ctx.kernel[0] != '\0');
	/* Not created yet: its directory's device. */
	context_fill(&ctx, "/tmp/tierprobe-does-not-exist/x.dat");
	assert_true(ctx.kernel[0] != '\0');
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fake_tree),
		cmocka_unit_test(test_this_machine),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
