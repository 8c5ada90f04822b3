// The SystemC composition of a System: one module per board (its routers and terminals) and one
// per tree (its switches), each stepping its verilated blocks in C++ on the rising clock edge --
// SystemC at board and tree granularity, links as C++ delay lines (docs/architecture.md).
//
// SystemC elaborates once per process, so the modules refer to their System through a pointer that
// can be re-bound to a freshly built System of the same configuration (a sweep runs many).
#pragma once

#include <systemc>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sysc/system/system.h"

namespace hxemu::sysc {

// A set of blocks of the current System stepped together on each rising edge.
class ScBlockGroup : public sc_core::sc_module {
 public:
  sc_core::sc_in<bool> clk;

  SC_HAS_PROCESS(ScBlockGroup);
  ScBlockGroup(sc_core::sc_module_name name, System* const* sys, std::vector<int> blocks);

  const std::vector<int>& blocks() const { return blocks_; }

 private:
  void on_rising_edge();

  System* const* sys_;
  std::vector<int> blocks_;
};

// A board: a x b accelerators (router + terminal each) and its on-board links.
class ScBoard : public ScBlockGroup {
 public:
  ScBoard(sc_core::sc_module_name name, System* const* sys, std::vector<int> blocks)
      : ScBlockGroup(name, sys, std::move(blocks)) {}
};

// A tree: its switches (one, or leaves and spines) and the links between them.
class ScTree : public ScBlockGroup {
 public:
  ScTree(sc_core::sc_module_name name, System* const* sys, std::vector<int> blocks)
      : ScBlockGroup(name, sys, std::move(blocks)) {}
};

// Top: the clock, the board and tree modules, and the cycle counter.
class ScSystem : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(ScSystem);
  // Elaborates modules for `sys`'s partitions. Call once per process.
  ScSystem(sc_core::sc_module_name name, System* sys);

  // Points every module at another System built from the same configuration.
  void rebind(System* sys);
  // Advances `cycles` clock cycles.
  void run(std::uint64_t cycles);

  int boards() const { return static_cast<int>(boards_.size()); }
  int trees() const { return static_cast<int>(trees_.size()); }

 private:
  void on_falling_edge();

  System* sys_;
  sc_core::sc_clock clock_;
  std::vector<std::unique_ptr<ScBoard>> boards_;
  std::vector<std::unique_ptr<ScTree>> trees_;
};

}  // namespace hxemu::sysc
