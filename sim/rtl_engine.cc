#include "sim/rtl_engine.h"

#include "rtl/emit_sv.h"

namespace polydat::sim {

RtlEngine::RtlEngine(const hls::Design& design, const std::optional<std::string>& sv) : design_(design) {
  rtl::Module m = rtl::emit_module(design_);
  module_ = std::move(m.name);
  sv_ = sv ? *sv : std::move(m.text);
}

}  // namespace polydat::sim
