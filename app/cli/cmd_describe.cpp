// hxemu describe --config F [--json FILE] [--check-deadlock]: the system a configuration builds,
// its cost (sysc/system/network_cost.h: a "cost" section in the text and the JSON, and in the
// stamp), the memory the process holds once it is built (with one synthetic-traffic endpoint per
// accelerator) and, when asked, whether its channel-dependency graph is acyclic (exit status 1 when
// it is not).
#include <fmt/core.h>

#include "sysc/system/system_config.h"
#include "app/cli/commands.h"
#include "app/commands/describe.h"
#include "tb/report_io.h"
#include "tb/traffic_system.h"

namespace hxemu::cli {

void add_describe(CLI::App& app, Action& action) {
  struct Opts {
    std::string config, json;
    std::vector<std::string> sets;
    bool check_deadlock = false;
  };
  auto o = std::make_shared<Opts>();
  auto* sub = app.add_subcommand("describe", "print the system a configuration builds");
  add_config_options(sub, o->config, o->sets);
  sub->add_option("--json", o->json, "also write the description as JSON to FILE");
  sub->add_flag("--check-deadlock", o->check_deadlock,
                "build the channel-dependency graph (channel = directed router/switch link x VC "
                "class) of every route the routers may choose (adaptive ones included) and check it "
                "is acyclic; exit status 1 when a cycle is found, which is printed");
  sub->callback([o, &action] {
    action = [o] {
      const auto cfg = sysc::load_system_config(o->config, o->sets);
      tb::OutputFiles files;
      files.add("--json", o->json);
      tb::TrafficSystem ts(cfg);
      // Measured right after building, before the route statistics (which allocate little).
      const tb::ProcessMemory mem = tb::process_memory();
      auto d = tb::describe_system(ts.sys(), &mem);
      bool deadlock_free = true;
      if (o->check_deadlock) {
        const auto report = sysc::check_deadlock(ts.sys(), {}, 0);   // every core
        tb::add_deadlock_check(ts.sys(), report, d);
        deadlock_free = report.ok && report.acyclic;
      }
      fmt::print("{}", d.text);
      if (!o->json.empty()) {
        nlohmann::json j = d.json;
        j["stamp"] = tb::reproducibility_stamp(cfg, 0, g_command_line);
        files.put(o->json, j.dump(2) + "\n");
      }
      files.commit();
      return deadlock_free ? 0 : 1;
    };
  });
}

}  // namespace hxemu::cli
