// SPDX-License-Identifier: GPL-2.0
/*
 * hf_genl_qdisc.c - HF_CMD_QDISC_GET and HF_CMD_QDISC_SET of the
 * "hyperframe" family: read and change the hfq qdisc at the root of a
 * device of the caller's namespace (uapi/linux/hyperframe.h).
 *
 * Design notes:
 * 1. hfq's settings are here and in TCA_OPTIONS (tc with the q_hfq.so
 *    plugin, hf_hfq.c note 5): hfctl needs no tc plugin.
 * 2. Everything runs under RTNL, which keeps the device and its root qdisc
 *    from changing while they are read or written; the qdisc's own state
 *    is read and written under its tree lock by hf_hfq.c.
 * 3. A device belongs to one namespace, so changing its qdisc needs
 *    CAP_NET_ADMIN only over that namespace (GENL_UNS_ADMIN_PERM), as tc.
 * 4. Every value has a policy range (hf_hfq.c's, which tc's TCA_OPTIONS
 *    share); a SET with any value out of range is refused whole before it
 *    runs. Nothing is clamped. The rate's range (HFQ_RATE_MIN..
 *    HFQ_RATE_MAX) has a hole a policy cannot say, 0 for unpaced: it is
 *    checked in the doit (hf_hfq_rate_check()), before anything changes.
 */
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <net/genetlink.h>
#include <net/sock.h>
#include <net/sch_generic.h>

#include "hf_genl.h"
#include "hf_hfq.h"

const struct nla_policy hf_qdisc_get_policy[HF_QDISC_A_MAX + 1] = {
	[HF_QDISC_A_IFINDEX] = NLA_POLICY_MIN(NLA_U32, 1),
};

#define HF_QDISC_POLICY(A, f, range)					\
	[HF_QDISC_A_##A] = NLA_POLICY_FULL_RANGE(NLA_U32, &(range)),
const struct nla_policy hf_qdisc_set_policy[HF_QDISC_A_MAX + 1] = {
	[HF_QDISC_A_IFINDEX] = NLA_POLICY_MIN(NLA_U32, 1),
	[HF_QDISC_A_HANDLE] = {
		.type = NLA_REJECT,
		.reject_message = "the handle is read-only",
	},
	[HF_QDISC_A_RATE] = { .type = NLA_U64 },
	HFQ_U32_SETTINGS(HF_QDISC_POLICY)
	[HF_QDISC_A_MEMORY] = {
		.type = NLA_REJECT,
		.reject_message = "memory is read-only",
	},
};

#undef HF_QDISC_POLICY

static int hf_qdisc_fill(struct sk_buff *skb, int ifindex,
			 const struct hfq_state *st)
{
	const u64 *counter = (const u64 *)&st->xstats;
	unsigned int i;

	if (nla_put_u32(skb, HF_QDISC_A_IFINDEX, ifindex) ||
	    nla_put_u32(skb, HF_QDISC_A_HANDLE, st->handle) ||
	    nla_put_u64_64bit(skb, HF_QDISC_A_RATE, st->cfg.rate,
			      HF_QDISC_A_PAD) ||
	    nla_put_u32(skb, HF_QDISC_A_LIMIT, st->cfg.limit) ||
	    nla_put_u32(skb, HF_QDISC_A_FLOW_LIMIT, st->cfg.flow_limit) ||
	    nla_put_u32(skb, HF_QDISC_A_CONTROL_LIMIT, st->cfg.control_limit) ||
	    nla_put_u32(skb, HF_QDISC_A_QUANTUM, st->cfg.quantum) ||
	    nla_put_u32(skb, HF_QDISC_A_OTHER_SHARE, st->cfg.other_share) ||
	    nla_put_u32(skb, HF_QDISC_A_HORIZON_MS, st->cfg.horizon_ms) ||
	    nla_put_u32(skb, HF_QDISC_A_FLOWS, st->flows) ||
	    nla_put_u32(skb, HF_QDISC_A_QLEN_CONTROL, st->qlen[0]) ||
	    nla_put_u32(skb, HF_QDISC_A_QLEN_DATA, st->qlen[1]) ||
	    nla_put_u32(skb, HF_QDISC_A_QLEN_OTHER, st->qlen[2]) ||
	    nla_put_u32(skb, HF_QDISC_A_BACKLOG, st->backlog) ||
	    nla_put_u32(skb, HF_QDISC_A_MEMORY_LIMIT, st->cfg.memory_limit) ||
	    nla_put_u32(skb, HF_QDISC_A_MEMORY, st->memory))
		return -EMSGSIZE;
	for (i = 0; i < HFQ_NR_COUNTERS; i++)
		if (hf_genl_counter_put(skb, HF_QDISC_A_COUNTER,
					hfq_counter_names[i], counter[i]))
			return -EMSGSIZE;
	return 0;
}

/* The hfq at the root of the device @info names; RTNL held. */
static struct Qdisc *hf_qdisc_lookup(struct genl_info *info)
{
	struct net_device *dev;
	struct Qdisc *sch;

	if (GENL_REQ_ATTR_CHECK(info, HF_QDISC_A_IFINDEX))
		return ERR_PTR(-EINVAL);
	dev = __dev_get_by_index(genl_info_net(info),
				 nla_get_u32(info->attrs[HF_QDISC_A_IFINDEX]));
	if (!dev) {
		NL_SET_BAD_ATTR(info->extack, info->attrs[HF_QDISC_A_IFINDEX]);
		NL_SET_ERR_MSG(info->extack, "no such device");
		return ERR_PTR(-ENODEV);
	}
	sch = hf_hfq_root(dev);
	if (!sch) {
		NL_SET_ERR_MSG(info->extack,
			       "the root qdisc of the device is not hfq");
		return ERR_PTR(-ENOENT);
	}
	return sch;
}

int hf_qdisc_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct hfq_state st;
	struct sk_buff *msg;
	struct Qdisc *sch;
	void *hdr;

	rtnl_lock();
	sch = hf_qdisc_lookup(info);
	if (IS_ERR(sch)) {
		rtnl_unlock();
		return PTR_ERR(sch);
	}
	hf_hfq_read(sch, &st);
	rtnl_unlock();

	msg = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = genlmsg_put_reply(msg, info, &hf_genl_family, 0,
				HF_CMD_QDISC_GET);
	if (!hdr ||
	    hf_qdisc_fill(msg, nla_get_u32(info->attrs[HF_QDISC_A_IFINDEX]),
			  &st)) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
}

/* Resumes at the cb->args[0]th device of the namespace. */
int hf_qdisc_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct net *net = sock_net(skb->sk);
	struct net_device *dev;
	struct hfq_state st;
	struct Qdisc *sch;
	long idx = 0;
	int err = 0;
	void *hdr;

	rtnl_lock();
	for_each_netdev(net, dev) {
		if (idx++ < cb->args[0])
			continue;
		sch = hf_hfq_root(dev);
		if (!sch) {
			cb->args[0] = idx;
			continue;
		}
		hf_hfq_read(sch, &st);
		hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
				  cb->nlh->nlmsg_seq, &hf_genl_family,
				  NLM_F_MULTI, HF_CMD_QDISC_GET);
		if (!hdr) {
			err = -EMSGSIZE;
			break;
		}
		if (hf_qdisc_fill(skb, dev->ifindex, &st)) {
			genlmsg_cancel(skb, hdr);
			err = -EMSGSIZE;
			break;
		}
		genlmsg_end(skb, hdr);
		cb->args[0] = idx;
	}
	rtnl_unlock();
	/* A full message continues in the next part; an empty one fails. */
	if (err && !skb->len)
		return err;
	return skb->len;
}

int hf_qdisc_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr **tb = info->attrs;
	struct hfq_state st;
	struct Qdisc *sch;
	int err;

	if (tb[HF_QDISC_A_RATE]) {
		err = hf_hfq_rate_check(tb[HF_QDISC_A_RATE], info->extack);
		if (err)
			return err;
	}

	rtnl_lock();
	sch = hf_qdisc_lookup(info);
	if (IS_ERR(sch)) {
		rtnl_unlock();
		return PTR_ERR(sch);
	}
	hf_hfq_read(sch, &st);
	if (tb[HF_QDISC_A_RATE])
		st.cfg.rate = nla_get_u64(tb[HF_QDISC_A_RATE]);
#define HF_QDISC_SET(A, f, range)					\
	hf_genl_u32_opt(tb, HF_QDISC_A_##A, &st.cfg.f);
	HFQ_U32_SETTINGS(HF_QDISC_SET)
#undef HF_QDISC_SET
	hf_hfq_config(sch, &st.cfg);
	rtnl_unlock();
	return 0;
}
