// SPDX-License-Identifier: GPL-2.0
/*
 * hf_debugtest: a throw-away module that commits, on demand, the bugs the
 * debug line must catch, so tools/debug-kernel/selftest/check-harness.sh
 * can prove the VM harness fails on each kind of report. Never loaded in
 * normal runs. Write one or more words to
 * /sys/kernel/debug/hf_debugtest/trigger:
 *   leak     allocate 1 KiB four times and lose the pointers (kmemleak;
 *            four, as a stale copy of the last one may linger on a stack)
 *   uaf      read a freed allocation (KASAN use-after-free)
 *   ubsan    shift a 32-bit value by 32 (UBSAN shift-out-of-bounds; the
 *            count is the module parameter "shift")
 *   lockdep  take two locks in both orders (lockdep circular dependency)
 *   atomic   call might_sleep() under a spinlock (DEBUG_ATOMIC_SLEEP)
 *   warn     WARN() once, which taints the kernel and goes on
 */
#include <linux/debugfs.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/uaccess.h>

static struct dentry *hf_dt_dir;
static DEFINE_MUTEX(hf_dt_lock_a);
static DEFINE_MUTEX(hf_dt_lock_b);
static DEFINE_SPINLOCK(hf_dt_spin);
static void *hf_dt_lost;

static void hf_dt_leak(void)
{
	int i;

	for (i = 0; i < 4; i++) {
		char *p = kmalloc(1024, GFP_KERNEL);

		if (!p)
			return;
		memset(p, 0xa5, 1024);
		/* Published, then forgotten: the last reference is gone. */
		WRITE_ONCE(hf_dt_lost, p);
		WRITE_ONCE(hf_dt_lost, NULL);
	}
	pr_info("hf_debugtest: leaked 4 x 1024 bytes\n");
}

static void hf_dt_uaf(void)
{
	char *p = kmalloc(64, GFP_KERNEL);

	if (!p)
		return;
	kfree(p);
	OPTIMIZER_HIDE_VAR(p);
	pr_info("hf_debugtest: read after free: %d\n", READ_ONCE(p[8]));
}

/* A parameter, so no compiler or checker folds the shift at build time. */
static unsigned int hf_dt_shift = 32;
module_param_named(shift, hf_dt_shift, uint, 0600);
MODULE_PARM_DESC(shift, "shift count for the ubsan trigger (default 32)");

static void hf_dt_ubsan(void)
{
	u32 one = 1;

	pr_info("hf_debugtest: 1 << %u = %u\n", hf_dt_shift, one << hf_dt_shift);
}

static void hf_dt_lockdep(void)
{
	mutex_lock(&hf_dt_lock_a);
	mutex_lock(&hf_dt_lock_b);
	mutex_unlock(&hf_dt_lock_b);
	mutex_unlock(&hf_dt_lock_a);

	mutex_lock(&hf_dt_lock_b);
	mutex_lock(&hf_dt_lock_a);
	mutex_unlock(&hf_dt_lock_a);
	mutex_unlock(&hf_dt_lock_b);
	pr_info("hf_debugtest: took two locks in both orders\n");
}

static void hf_dt_atomic(void)
{
	spin_lock(&hf_dt_spin);
	might_sleep();
	spin_unlock(&hf_dt_spin);
}

static void hf_dt_warn(void)
{
	WARN(1, "hf_debugtest: a warning on demand\n");
}

static ssize_t hf_dt_write(struct file *file, const char __user *ubuf,
			   size_t len, loff_t *ppos)
{
	char buf[64], *cur, *word;

	if (len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';

	cur = buf;
	while ((word = strsep(&cur, " \t\n"))) {
		if (!*word)
			continue;
		if (!strcmp(word, "leak"))
			hf_dt_leak();
		else if (!strcmp(word, "uaf"))
			hf_dt_uaf();
		else if (!strcmp(word, "ubsan"))
			hf_dt_ubsan();
		else if (!strcmp(word, "lockdep"))
			hf_dt_lockdep();
		else if (!strcmp(word, "atomic"))
			hf_dt_atomic();
		else if (!strcmp(word, "warn"))
			hf_dt_warn();
		else
			return -EINVAL;
	}
	return len;
}

static const struct file_operations hf_dt_fops = {
	.owner = THIS_MODULE,
	.write = hf_dt_write,
	.llseek = noop_llseek,
};

static int __init hf_dt_init(void)
{
	hf_dt_dir = debugfs_create_dir("hf_debugtest", NULL);
	debugfs_create_file("trigger", 0200, hf_dt_dir, NULL, &hf_dt_fops);
	return 0;
}

static void __exit hf_dt_exit(void)
{
	debugfs_remove_recursive(hf_dt_dir);
}

module_init(hf_dt_init);
module_exit(hf_dt_exit);
MODULE_DESCRIPTION("hyperframe debug-line harness test: bugs on demand");
MODULE_LICENSE("GPL");
