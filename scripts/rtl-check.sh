#!/bin/sh
# Run one RTL top through all three tools: Verilator lint (-Wall), Icarus elaboration, Yosys synth.
