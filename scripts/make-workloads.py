#!/usr/bin/env python3
"""Writes the shipped training workloads (configs/workloads/*.txt) in the ASTRA-sim 1.0 / LIBRA text
format, from published layer shapes scaled down so that one iteration emulates in minutes on 64-256
accelerators. Every number below is derived here, so the files can be regenerated and checked:

  compute time = FLOPs / ACCEL_FLOPS (one scaled accelerator: 25 TFLOP/s sustained), in ns
  activation bytes = tokens x width x 2 (fp16); weight-gradient bytes = parameters x 2 (fp16)

GPT-3 (Brown et al. 2020): transformer blocks of attention (Q, K, V, scores, softmax, output
projection "concat") and a 4x-wide MLP (W1, W2), Megatron tensor parallelism: LIBRA's GPT-3 workload
has the same layer list and collectives (activation allreduce after concat and W2 forward and after
Q and W1 backward, allgather in concat's input gradient, weight-gradient allreduce of a block's
attention at Q and of its MLP at W1). Scaled: 2 blocks, width 512 (published 12,288), 256 tokens
per micro-batch, tensor groups of 4.

ResNet-50 (He et al. 2016): stem convolution, four stages of bottleneck blocks (0.22 M, 1.22 M,
7.10 M, 14.96 M parameters), the classifier (2.05 M); forward GFLOPs per image 0.118, 0.68, 1.03,
1.47, 0.81, 0.004. Data parallel; every layer's weight gradient is allreduced. Scaled: parameters /16,
one image per accelerator.

DLRM (Naumov et al. 2019): embedding tables sharded over the accelerators (alltoall of the looked-up
vectors forward and of their gradients backward), a bottom MLP 512-256-64 and a top MLP 512-512-256-1
replicated (weight gradients allreduced). Scaled: 512 samples per accelerator, 8 tables of dimension
64 per accelerator (alltoall of 512 x 8 x 64 x 2 B = 512 KiB).
"""
import os
import sys

ACCEL_FLOPS = 25e12


def ns(flops):
    return max(1, round(flops / ACCEL_FLOPS * 1e9))


def r4(b):
    """Bytes rounded to a multiple of 1 KiB (the emulated collectives take 32-bit elements)."""
    return max(1024, int(round(b / 1024)) * 1024)


def line(name, fwd, fwd_c, ig, ig_c, wg, wg_c, update=0):
    parts = [name, "-1"]
    for t, c in ((fwd, fwd_c), (ig, ig_c), (wg, wg_c)):
        kind, size = c if c else ("NONE", 0)
        parts += [str(t), kind, str(size)]
    parts.append(str(update))
    return " ".join(parts)


def gpt3():
    blocks, d, tokens, tp = 2, 512, 256, 4
    act = tokens * d * 2
    attn_w = r4(4 * d * d * 2 / tp)
    mlp_w = r4(8 * d * d * 2 / tp)
    proj = ns(2 * tokens * d * d / tp)
    scores = ns(2 * tokens * tokens * d / tp)
    mlp = ns(2 * tokens * d * 4 * d / tp)
    small = ns(5 * tokens * d)
    out = [f"HYBRID_TRANSFORMER model_parallel_NPU_group: {tp}", str(9 * blocks)]
    for b in range(1, blocks + 1):
        out += [
            line(f"Q{b}", proj, None, proj, ("ALLREDUCE", act), proj, ("ALLREDUCE", attn_w)),
            line(f"K{b}", proj, None, proj, None, proj, None),
            line(f"V{b}", proj, None, proj, None, proj, None),
            line(f"QK{b}", scores, None, scores, None, scores, None),
            line(f"softmax{b}", small, None, small, None, small, None),
            line(f"concat{b}", proj, ("ALLREDUCE", act), proj, ("ALLGATHER", act // tp), proj, None),
            line(f"X{b}W1b1", mlp, None, mlp, ("ALLREDUCE", act), mlp, ("ALLREDUCE", mlp_w)),
            line(f"X{b}W2b2", mlp, ("ALLREDUCE", act), mlp, None, mlp, None),
            line(f"layerNorm{b}", small, None, small, None, small, None),
        ]
    return out


def resnet50():
    stages = [("conv1", 9408, 0.118e9), ("layer1", 215808, 0.68e9), ("layer2", 1219584, 1.03e9),
              ("layer3", 7098368, 1.47e9), ("layer4", 14964736, 0.81e9), ("fc", 2049000, 0.004e9)]
    out = ["DATA", str(len(stages))]
    for name, params, flops in stages:
        # backward: input gradient and weight gradient each about the forward's FLOPs
        out.append(line(name, ns(flops), None, ns(flops), None, ns(flops), ("ALLREDUCE", r4(params * 2 / 16))))
    return out


def dlrm():
    samples, tables, dim = 512, 8, 64
    emb = samples * tables * dim * 2
    bottom = 512 * 256 + 256 * 64
    top = 512 * 512 + 512 * 256 + 256
    out = ["DATA", "4"]
    out.append(line("bottom_mlp", ns(2 * samples * bottom), None, ns(2 * samples * bottom), None,
                    ns(2 * samples * bottom), ("ALLREDUCE", r4(bottom * 2))))
    # lookups are memory-bound: 2 x bytes read at 1 TB/s
    out.append(line("embeddings", round(2 * emb / 1e12 * 1e9), ("ALLTOALL", emb), round(2 * emb / 1e12 * 1e9),
                    ("ALLTOALL", emb), 1, None))
    out.append(line("interaction", ns(2 * samples * tables * tables * dim), None,
                    ns(2 * samples * tables * tables * dim), None, 1, None))
    out.append(line("top_mlp", ns(2 * samples * top), None, ns(2 * samples * top), None, ns(2 * samples * top),
                    ("ALLREDUCE", r4(top * 2))))
    return out


def main():
    folder = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "configs", "workloads")
    for name, lines in (("gpt3-like", gpt3()), ("resnet50-like", resnet50()), ("dlrm-like", dlrm())):
        with open(os.path.join(folder, name + ".txt"), "w") as f:
            f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
