// hxemu describe --config F [--json FILE]: the system a configuration builds, and the memory the
// process holds once it is built (with one synthetic-traffic endpoint per accelerator).
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
  };
  auto o = std::make_shared<Opts>();
  auto* sub = app.add_subcommand("describe", "print the system a configuration builds");
  add_config_options(sub, o->config, o->sets);
  sub->add_option("--json", o->json, "also write the description as JSON to FILE");
  sub->callback([o, &action] {
    action = [o] {
      const auto cfg = sysc::load_system_config(o->config, o->sets);
      tb::OutputFiles files;
      files.add("--json", o->json);
      tb::TrafficSystem ts(cfg);
      // Measured right after building, before the route statistics (which allocate little).
      const tb::ProcessMemory mem = tb::process_memory();
      const auto d = tb::describe_system(ts.sys(), &mem);
      fmt::print("{}", d.text);
      if (!o->json.empty()) {
        nlohmann::json j = d.json;
        j["stamp"] = tb::reproducibility_stamp(cfg, 0, g_command_line);
        files.put(o->json, j.dump(2) + "\n");
      }
      files.commit();
      return 0;
    };
  });
}

}  // namespace hxemu::cli
