# NIC variants (rtl/nic/hx_nic.sv), included by HxVariants.cmake. One variant per VC count of the
# router's local port; the RX buffer slots per VC are HX_BUFFER_SLOTS like every other block.
# Appends to HX_REGISTRY_EXTRA_HEADERS / HX_REGISTRY_EXTRA_CODE the factory declared in
# sysc/nic.h: make_nic(vcs, flit_bits) and nic_variants().
set(HX_NIC_VCS "${HX_ROUTER_VCS}" CACHE STRING "VCs of the NIC variants (the router's local port)")
set(HX_NIC_MAX_PACKET_FLITS 64 CACHE STRING "largest packet length in flits a NIC can send (MAXP)")
set(HX_NIC_NODES 4096 CACHE STRING "largest node count the NIC's per-node tables cover (NODES)")

set(hx_nic_entries "")
foreach(v ${HX_NIC_VCS})
  set(prefix Vhx_nic_v${v}_w${HX_FLIT_BITS})
  hx_add_model(${prefix} TOP hx_nic
               PARAMS V=${v} D=${HX_BUFFER_SLOTS} W=${HX_FLIT_BITS}
                      MAXP=${HX_NIC_MAX_PACKET_FLITS} NODES=${HX_NIC_NODES})
  string(APPEND HX_REGISTRY_EXTRA_HEADERS "#include \"${prefix}.h\"\n#include \"${prefix}___024root.h\"\n")
  string(APPEND hx_nic_entries
    "  {{\"nic\", 1, ${v}, ${HX_FLIT_BITS}, ${HX_BUFFER_SLOTS}}, [] {\n"
    "     return std::unique_ptr<NicBlock>(new NicModel<${prefix}>(\n"
    "         ${v}, ${HX_FLIT_BITS}, ${HX_BUFFER_SLOTS}, ${HX_NIC_MAX_PACKET_FLITS}, ${HX_NIC_NODES})); }},\n")
endforeach()

string(APPEND HX_REGISTRY_EXTRA_HEADERS "#include \"sysc/nic_model.h\"\n")
string(APPEND HX_REGISTRY_EXTRA_CODE "
// ---- NIC variants (cmake/HxVariantsNic.cmake) ----
namespace {
struct NicEntry {
  ModelVariant variant;
  std::unique_ptr<NicBlock> (*make)();
};
const NicEntry kNicVariants[] = {
${hx_nic_entries}};
}  // namespace

std::vector<ModelVariant> nic_variants() {
  std::vector<ModelVariant> out;
  for (const auto& e : kNicVariants) out.push_back(e.variant);
  return out;
}

std::unique_ptr<NicBlock> make_nic(int vcs, int flit_bits) {
  for (const auto& e : kNicVariants) {
    if (e.variant.vcs == vcs && e.variant.flit_bits == flit_bits) return e.make();
  }
  std::ostringstream os;
  os << \"no NIC model with vcs=\" << vcs << \" flit_bits=\" << flit_bits
     << \"; this build provides: \" << describe(nic_variants())
     << \" (rebuild with -DHX_NIC_VCS=... / -DHX_FLIT_BITS=... for others)\";
  throw std::invalid_argument(os.str());
}
")
