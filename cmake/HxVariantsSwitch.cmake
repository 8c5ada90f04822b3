# Tree-switch variants: every radix in HX_SWITCH_RADICES with every VC count of the routers (a
# system's switches and routers share one VC-class table).
set(HX_SWITCH_RADICES "4;8;16" CACHE STRING "radices of the switch variants")

string(APPEND HX_REGISTRY_EXTRA_HEADERS "#include \"sysc/switch_model.h\"\n")
set(entries "")
string(REPLACE ";" "," HX_SWITCH_RADICES_TEXT "${HX_SWITCH_RADICES}")
string(REPLACE ";" "," HX_ROUTER_VCS_TEXT "${HX_ROUTER_VCS}")
foreach(k ${HX_SWITCH_RADICES})
  foreach(v ${HX_ROUTER_VCS})
    set(prefix Vhx_switch_k${k}_v${v}_w${HX_FLIT_BITS})
    hx_add_model(${prefix} TOP hx_switch
                 PARAMS K=${k} V=${v} D=${HX_BUFFER_SLOTS} W=${HX_FLIT_BITS})
    string(APPEND HX_REGISTRY_INCLUDES "#include \"${prefix}.h\"\n#include \"${prefix}___024root.h\"\n")
    string(APPEND entries
      "  {{\"switch\", ${k}, ${v}, ${HX_FLIT_BITS}, ${HX_BUFFER_SLOTS}}, [] {\n"
      "     return std::unique_ptr<SwitchBlock>(new SwitchModel<${prefix}>(\n"
      "         ${k}, ${v}, ${HX_FLIT_BITS}, ${HX_BUFFER_SLOTS})); }},\n")
  endforeach()
endforeach()

string(APPEND HX_REGISTRY_EXTRA_CODE "
namespace {
struct SwitchEntry {
  ModelVariant variant;
  std::unique_ptr<SwitchBlock> (*make)();
};
const SwitchEntry kSwitches[] = {
${entries}};
}  // namespace

std::vector<ModelVariant> switch_variants() {
  std::vector<ModelVariant> out;
  for (const auto& e : kSwitches) out.push_back(e.variant);
  return out;
}

std::unique_ptr<SwitchBlock> make_switch(int radix, int vcs, int flit_bits) {
  for (const auto& e : kSwitches) {
    if (e.variant.ports == radix && e.variant.vcs == vcs && e.variant.flit_bits == flit_bits) {
      return e.make();
    }
  }
  std::ostringstream os;
  os << \"no switch model with radix=\" << radix << \" vcs=\" << vcs << \" flit_bits=\" << flit_bits
     << \"; this build provides radix in {${HX_SWITCH_RADICES_TEXT}} with vcs in {${HX_ROUTER_VCS_TEXT}}, \"
     << \"flit_bits=${HX_FLIT_BITS} (rebuild with -DHX_SWITCH_RADICES=... for others)\";
  throw std::invalid_argument(os.str());
}
")
