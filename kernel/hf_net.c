// SPDX-License-Identifier: GPL-2.0
/*
 * hf_net.c - per-network-namespace state: created when a namespace comes
 * up (or the module loads) and freed with it, with its counters in
 * /proc/net/hyperframe and a periodic reclaim of idle peers. A socket
 * holds a reference on its namespace, so the port table is empty by the
 * time it goes; peers are torn down here.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/proc_fs.h>
#include <linux/random.h>
#include <linux/seq_file.h>

#include "hf_genl.h"
#include "hf_mem.h"
#include "hf_net.h"
#include "hf_peer.h"

#define HF_GC_INTERVAL	HZ

unsigned int hf_net_id __read_mostly;

const char *const hf_stat_names[HF_STAT_MAX] = {
	[HF_STAT_TX_MSGS]		= "tx_msgs",
	[HF_STAT_TX_BYTES]		= "tx_bytes",
	[HF_STAT_TX_SEGS]		= "tx_segs",
	[HF_STAT_TX_FRAMES]		= "tx_frames",
	[HF_STAT_TX_ACKS]		= "tx_acks",
	[HF_STAT_TX_RETRANSMITS]	= "tx_retransmits",
	[HF_STAT_TX_RTO]		= "tx_rto",
	[HF_STAT_TX_RTO_SPURIOUS]	= "tx_rto_spurious",
	[HF_STAT_TX_XMIT_ERRORS]	= "tx_xmit_errors",
	[HF_STAT_TX_MSGS_FAILED]	= "tx_msgs_failed",
	[HF_STAT_TX_MSGS_DELIVERED]	= "tx_msgs_delivered",
	[HF_STAT_TX_RESETS]		= "tx_resets",
	[HF_STAT_TX_CHALLENGES]		= "tx_challenges",
	[HF_STAT_TX_EPOCHS]		= "tx_epochs",
	[HF_STAT_TX_SPURIOUS]		= "tx_spurious_retransmits",
	[HF_STAT_TX_REORDER_WAITS]	= "tx_reorder_waits",
	[HF_STAT_TX_REPAIRS_LOST]	= "tx_repairs_lost",
	[HF_STAT_TX_WINDOW_RESENDS]	= "tx_window_resends",
	[HF_STAT_TX_DATA_SKBS]		= "tx_data_skbs",
	[HF_STAT_TX_SW_SEGMENTED]	= "tx_sw_segmented",
	[HF_STAT_TX_FRAME_SKBS]		= "tx_frame_skbs",
	[HF_STAT_TX_CARRIERS_SPLIT]	= "tx_carriers_split",
	[HF_STAT_TX_FRAME_GROWS]	= "tx_frame_grows",
	[HF_STAT_TX_FRAME_SHRINKS]	= "tx_frame_shrinks",
	[HF_STAT_TX_RATE_CUTS]		= "tx_rate_cuts",
	[HF_STAT_TX_CREDIT_STALLS]	= "tx_credit_stalls",
	[HF_STAT_TX_PACING_DELAYS]	= "tx_pacing_delays",
	[HF_STAT_TX_PACE_WAITS]		= "tx_pace_waits",
	[HF_STAT_TX_CREDIT_INVALID]	= "tx_credit_invalid",
	[HF_STAT_TX_CREDIT_PROBES]	= "tx_credit_probes",
	[HF_STAT_TX_RATE_HINTS]		= "tx_rate_hints",
	[HF_STAT_TX_PUSH_DEFERRALS]	= "tx_push_deferrals",
	[HF_STAT_TX_MEM_WAITS]		= "tx_mem_waits",
	[HF_STAT_TX_MSGS_ORPHANED]	= "tx_msgs_orphaned",
	[HF_STAT_TX_BACKOFF_ANSWERED_US] = "tx_backoff_answered_us",
	[HF_STAT_RX_SEGS]		= "rx_segs",
	[HF_STAT_RX_DATA_SKBS]		= "rx_data_skbs",
	[HF_STAT_RX_LINEARIZED_TRAINS]	= "rx_linearized_trains",
	[HF_STAT_RX_PACKED_TRAINS]	= "rx_packed_trains",
	[HF_STAT_RX_PACKED_SPLIT]	= "rx_packed_split",
	[HF_STAT_RX_CARRIERS]		= "rx_carriers",
	[HF_STAT_RX_CSUM_LOCAL]		= "rx_csum_local",
	[HF_STAT_RX_GRO_TRAINS]		= "rx_gro_trains",
	[HF_STAT_RX_GRO_SEGS]		= "rx_gro_segs",
	[HF_STAT_RX_EPOCHS]		= "rx_epochs",
	[HF_STAT_RX_CHALLENGES]		= "rx_challenges",
	[HF_STAT_RX_LOST_REPLIES]	= "rx_lost_replies",
	[HF_STAT_RX_ACKS]		= "rx_acks",
	[HF_STAT_RX_MSGS]		= "rx_msgs",
	[HF_STAT_RX_BYTES]		= "rx_bytes",
	[HF_STAT_RX_DUPLICATES]		= "rx_duplicates",
	[HF_STAT_RX_MSGS_NO_PORT]	= "rx_msgs_no_port",
	[HF_STAT_RX_MSGS_OTHER_DEV]	= "rx_msgs_other_dev",
	[HF_STAT_RX_MSGS_FILTERED]	= "rx_msgs_filtered",
	[HF_STAT_RX_MSGS_TOO_BIG]	= "rx_msgs_too_big",
	[HF_STAT_RX_MSGS_NO_MEMORY]	= "rx_msgs_no_memory",
	[HF_STAT_RX_CREDIT_OVER]	= "rx_credit_over",
	[HF_STAT_RX_MSGS_EXPIRED]	= "rx_msgs_expired",
	[HF_STAT_PEERS_EVICTED]		= "peers_evicted",
	[HF_STAT_DROP_MALFORMED]	= "drop_malformed",
	[HF_STAT_DROP_CSUM]		= "drop_csum",
	[HF_STAT_DROP_BEYOND]		= "drop_beyond_window",
	[HF_STAT_DROP_MSG_WINDOW]	= "drop_msg_window",
	[HF_STAT_DROP_DISAGREE]		= "drop_disagree",
	[HF_STAT_DROP_SEG_SIZE]		= "drop_seg_size",
	[HF_STAT_DROP_NO_PEER]		= "drop_no_peer",
	[HF_STAT_DROP_PEER_LIMIT]	= "drop_peer_limit",
	[HF_STAT_DROP_EPOCH]		= "drop_epoch",
	[HF_STAT_DROP_STALE_EPOCH]	= "drop_stale_epoch",
	[HF_STAT_DROP_UNPROVEN]		= "drop_unproven",
	[HF_STAT_DROP_FORGED]		= "drop_forged",
	[HF_STAT_DROP_NO_STATE]		= "drop_no_state",
	[HF_STAT_DROP_OVER_CREDIT]	= "drop_over_credit",
	[HF_STAT_DROP_ACK_INVALID]	= "drop_ack_invalid",
	[HF_STAT_DROP_RCVBUF]		= "drop_rcvbuf",
	[HF_STAT_DROP_MEMORY]		= "drop_memory",
	[HF_STAT_DROP_MEM_LIMIT]	= "drop_mem_limit",
	[HF_STAT_DROP_OTHERHOST]	= "drop_otherhost",
	[HF_STAT_EVENTS_DROPPED]	= "events_dropped",
};

static int hf_proc_show(struct seq_file *seq, void *v)
{
	struct hf_net *hn = hf_net(seq_file_single_net(seq));
	unsigned int i;

	for (i = 0; i < HF_STAT_MAX; i++)
		seq_printf(seq, "%s %lld\n", hf_stat_names[i],
			   (s64)atomic64_read(&hn->stats.v[i]));
	for (i = HF_WERR_OK + 1; i < HF_WERR_MAX; i++)
		seq_printf(seq, "drop_malformed_%s %lld\n", hf_wire_err_name(i),
			   (s64)atomic64_read(&hn->stats.malformed[i]));
	seq_printf(seq, "peers %u\n", READ_ONCE(hn->npeers));
	seq_printf(seq, "rx_mem_bytes %lld\n", (s64)atomic64_read(&hn->rx_mem));
	seq_printf(seq, "rx_mem_reserved_bytes %lld\n",
		   (s64)atomic64_read(&hn->rx_reserved));
	/* Module-wide: all namespaces together (hf_mem.c). */
	seq_printf(seq, "mem_bytes %ld\n", hf_mem_allocated() << PAGE_SHIFT);
	return 0;
}

static void hf_net_gc(struct work_struct *work)
{
	struct hf_net *hn = container_of(to_delayed_work(work), struct hf_net,
					 gc);

	hf_peer_gc(hn->net);
	schedule_delayed_work(&hn->gc, HF_GC_INTERVAL);
}

static int __net_init hf_net_init(struct net *net)
{
	struct hf_net *hn = hf_net(net);

	hn->net = net;
	hf_config_init(net, &hn->config);
	get_random_bytes(&hn->cookie_key, sizeof(hn->cookie_key));
	get_random_bytes(&hn->peer_key, sizeof(hn->peer_key));
	INIT_LIST_HEAD(&hn->evicted);
	INIT_WORK(&hn->evict_work, hf_peer_evicted_work);
	spin_lock_init(&hn->ports_lock);
	hash_init(hn->ports);
	hn->next_ephemeral = HF_EPHEMERAL_MIN +
		get_random_u32_below(HF_EPHEMERAL_MAX - HF_EPHEMERAL_MIN + 1);
	spin_lock_init(&hn->peers_lock);
	hash_init(hn->peers);
	spin_lock_init(&hn->devs_lock);
	INIT_DELAYED_WORK(&hn->gc, hf_net_gc);

	if (!proc_create_net_single("hyperframe", 0444, net->proc_net,
				    hf_proc_show, NULL))
		return -ENOMEM;
	schedule_delayed_work(&hn->gc, HF_GC_INTERVAL);
	return 0;
}

static void __net_exit hf_net_exit(struct net *net)
{
	struct hf_net *hn = hf_net(net);

	remove_proc_entry("hyperframe", net->proc_net);
	cancel_delayed_work_sync(&hn->gc);
	/* No device is left to bring a frame: nothing is evicted after this. */
	flush_work(&hn->evict_work);
	hf_peer_flush_net(net);
}

static struct pernet_operations hf_net_ops = {
	.init	= hf_net_init,
	.exit	= hf_net_exit,
	.id	= &hf_net_id,
	.size	= sizeof(struct hf_net),
};

/**
 * hf_net_register() - create the state of every existing namespace and
 * of each one created from now on
 *
 * Return: 0 or a negative errno from register_pernet_subsys().
 */
int __init hf_net_register(void)
{
	return register_pernet_subsys(&hf_net_ops);
}

/**
 * hf_net_unregister() - undo hf_net_register()
 */
void hf_net_unregister(void)
{
	unregister_pernet_subsys(&hf_net_ops);
}
