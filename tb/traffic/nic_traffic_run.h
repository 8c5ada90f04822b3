// One measured point of synthetic traffic through the real NICs: every accelerator's host posts
// one-packet messages to each of its NICs (one per rail) at the offered load per NIC, and checks
// every packet's bytes where it lands (tb/traffic/nic_traffic_host.h). The phases, the saturation
// rule and the figures are those of run_traffic (tb/traffic/traffic_run.h), per NIC instead of per
// node; at the end every message posted must have landed exactly once with the right bytes, and
// every message completed to its receiving host in order.
//
// What differs from synthetic endpoints: the source queue is in host memory and a message enters
// the network through the NIC's command queue, transmit slots, DMA reads and packetiser; packet
// latency counts from the message's creation to its last byte in the destination's memory, network
// latency from the put's posting. There is no zero-load model of that path here, so saturation is
// judged on throughput and the drain limit only, and the throughput only after a warm-up at least
// as long as the shortest packet latency measured (judge_saturation).
#pragma once

#include "sysc/harness/harness.h"
#include "sysc/system/system_config.h"
#include "tb/progress.h"
#include "tb/traffic/traffic_run.h"

namespace hxemu::tb {

// `rails`: NICs per accelerator (the topology may have fewer: a fat tree has one per plane).
// `windows` (optional): per-link counters over time windows of the whole run, as for run_traffic.
TrafficRunResult run_nic_traffic(const sysc::SystemConfig& sys_cfg, const TrafficRunConfig& cfg,
                                 int rails = 4, sysc::HarnessFactory harness = sysc::make_plain_harness,
                                 Progress* progress = nullptr, LinkWindows* windows = nullptr);

}  // namespace hxemu::tb
