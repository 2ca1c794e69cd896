// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rdma_mcm_example: the smallest kernel ULP on rdma_mcm's API, built out of
 * tree against the SDK that rdma-mcm-dkms installs (README.md, "Writing a
 * kernel ULP against rdma_mcm"). At load it opens a context on the RDMA
 * device of the address @src and joins @group as a full member, without a
 * QP; it logs JOINED when the join completes. At unload it leaves and
 * closes the context.
 *
 *   modprobe rdma_mcm_example src=192.0.2.2 group=239.1.1.1
 */

#include <linux/inet.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/socket.h>
#include <net/net_namespace.h>
#include <rdma/rdma_mcm.h>

static char *src;
module_param(src, charp, 0444);
MODULE_PARM_DESC(src, "source address of the RDMA port to join on (IPv4 or IPv6)");

static char *group;
module_param(group, charp, 0444);
MODULE_PARM_DESC(group, "multicast group to join (IPv4 or IPv6)");

static struct rdma_mcm_ctx *example_ctx;
static u32 example_handle;

static void example_joined(void *priv, const struct rdma_mcm_join_info *info)
{
	pr_info("rdma_mcm_example: JOINED %pISc (handle %u, qkey 0x%x)\n",
		&info->group, info->handle, info->qkey);
}

static void example_error(void *priv, u32 handle, void *context, int status)
{
	pr_warn("rdma_mcm_example: membership %u failed: %d\n", handle, status);
}

static void example_device_removed(void *priv)
{
	/* no verbs objects of its own: nothing to release */
	pr_info("rdma_mcm_example: the device went away\n");
}

static const struct rdma_mcm_ops example_ops = {
	.owner = THIS_MODULE,
	.joined = example_joined,
	.error = example_error,
	.device_removed = example_device_removed,
};

static int example_parse(const char *text, struct sockaddr_storage *ss)
{
	if (!text)
		return -EINVAL;
	return inet_pton_with_scope(&init_net, AF_UNSPEC, text, NULL, ss);
}

static int __init example_init(void)
{
	struct sockaddr_storage src_addr, group_addr;
	struct rdma_mcm_ctx *ctx;
	int ret;

	ret = example_parse(src, &src_addr);
	if (ret) {
		pr_err("rdma_mcm_example: src=%s is not an address\n", src ?: "");
		return ret;
	}
	ret = example_parse(group, &group_addr);
	if (ret) {
		pr_err("rdma_mcm_example: group=%s is not an address\n",
		       group ?: "");
		return ret;
	}

	ctx = rdma_mcm_open(&init_net, (struct sockaddr *)&src_addr,
			    &example_ops, NULL);
	if (IS_ERR(ctx)) {
		pr_err("rdma_mcm_example: no context on %s: %ld\n", src,
		       PTR_ERR(ctx));
		return PTR_ERR(ctx);
	}
	ret = rdma_mcm_join(ctx, (struct sockaddr *)&group_addr,
			    RDMA_MCM_FULLMEMBER, NULL, NULL, &example_handle);
	if (ret) {
		pr_err("rdma_mcm_example: joining %s failed: %d\n", group, ret);
		goto err_close;
	}
	example_ctx = ctx;
	pr_info("rdma_mcm_example: joining %s from %s (handle %u)\n", group,
		src, example_handle);
	return 0;

err_close:
	rdma_mcm_close(ctx);
	return ret;
}

static void __exit example_exit(void)
{
	int ret;

	ret = rdma_mcm_leave(example_ctx, example_handle);
	rdma_mcm_close(example_ctx);
	pr_info("rdma_mcm_example: left %s (%d)\n", group, ret);
}

module_init(example_init);
module_exit(example_exit);

MODULE_DESCRIPTION("Example kernel ULP joining a multicast group through rdma_mcm");
MODULE_AUTHOR("The rdma_mcm developers");
MODULE_LICENSE("Dual BSD/GPL");
