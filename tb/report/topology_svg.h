// The network as it is built, drawn as a standalone SVG (docs/network-picture.md): HammingMesh,
// torus, HyperX and mesh as the grid of boards with their routers, row trees on the right and
// column trees below; the fat tree as endpoints under leaves under spines; the Dragonfly as a
// ring of groups; a multi-dimensional platform as a row of NPUs with one band per dimension.
// Every link is one drawn line (both directions of a connection share it, coloured by the busier
// one), coloured by utilisation on a viridis scale with a colour bar, its width by link class,
// and a tooltip naming both ends and both directions' figures.
//
// Element classes a checker can rely on: one circle.router per router (accelerator), one
// rect.switch per switch, one rect.endpoint per terminal drawn as a block of its own (fat tree and
// Dragonfly; elsewhere a terminal link is a short stub off its router), and one path.link per
// bidirectional connection, with the link class as a second class ("link board", "link cable",
// "link terminal") and data-link="id of the a->b direction".
//
// Deterministic: the same system and figures give a byte-identical document.
#pragma once

#include <string>
#include <vector>

#include "sysc/system/system.h"
#include "sysc/system/system_config.h"

namespace hxemu::tb {

struct TopologyPictureOptions {
  // Top of the colour scale in flits per cycle. 0 (the default): the smallest of 0.1, 0.2, 0.25,
  // 0.5 and 1 (a link's full rate) that holds the busiest link, so the busiest links are bright
  // even when a long run averages them down. Utilisations above it take the top colour.
  double scale_max = 0;
  // What the colours are, under the colour bar ("flits/cycle over the measurement window").
  std::string value_note = "flits/cycle, busier direction";
};

// link_utilisation: per directed link id (flits/cycle, 0..1); empty draws the structure only.
std::string render_topology(const sysc::System& sys, const std::vector<double>& link_utilisation,
                            const std::string& title, const TopologyPictureOptions& opt = {});

// The same for a configuration, on a System built only to be drawn (no simulation models run):
// `rails` terminals per accelerator as the run had (its link ids depend on it), e.g. 1 for
// synthetic traffic, the NIC count for NIC traffic and collectives.
std::string render_topology(const sysc::SystemConfig& cfg, int rails, const std::vector<double>& link_utilisation,
                            const std::string& title, const TopologyPictureOptions& opt = {});

}  // namespace hxemu::tb
