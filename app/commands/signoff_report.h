// The sign-off report in its three forms (docs/signoff.md): Markdown for a reviewer, JSON with
// every figure, and the SVG figures the Markdown shows. Each carries the reproducibility stamp
// (tb::reproducibility_stamp: configuration, seed, command, source revision, tool versions).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/commands/signoff.h"

namespace hxemu::app {

// The figure files, always all of them (one with no data says so), so a folder reused for a
// second report holds no figure of the first.
const std::vector<std::string>& signoff_figure_names();

// (file name, SVG document) for every name of signoff_figure_names, in that order.
std::vector<std::pair<std::string, std::string>> signoff_figures(const SignoffPlan& plan, const SignoffResult& r);

std::string signoff_markdown(const SignoffPlan& plan, const SignoffResult& r);
nlohmann::json signoff_json(const SignoffPlan& plan, const SignoffResult& r);

// Shared by the two: the run lengths of the saturation sweeps, in words.
std::string saturation_run_lengths(const SignoffPlan& plan);

}  // namespace hxemu::app
