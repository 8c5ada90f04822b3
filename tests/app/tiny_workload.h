// A text workload (ASTRA-sim 1.0 / LIBRA format) small enough to train on in seconds: two layers,
// tensor groups of 2, four communication steps, one of them repeated. Shared by the train, explore
// and signoff tests.
#pragma once

namespace hxemu::test {

inline constexpr const char* kTinyWorkload =
    "HYBRID_DATA_MODEL model_parallel_NPU_group: 2\n"
    "2\n"
    "l0 -1 100 ALLREDUCE 4096 100 NONE 0 200 ALLREDUCE 8192 0\n"
    "l1 -1 150 NONE 0 150 ALLGATHER 2048 300 ALLREDUCE 8192 0\n";

}  // namespace hxemu::test
