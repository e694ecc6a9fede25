// Stand-ins for yosys, nextpnr-ice40 and icepack: shell scripts that write
// log lines the way the real tools do, sleep between them, and leave the
// products run_ice40 reads. Tests put their folder first on PATH to exercise
// the flow's progress lines and its scripts in a fraction of a second.
#pragma once

#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace polydat::fpga::test_tools {

struct FakeTiming {
  double step_s = 0.15;  // sleep between log lines
  bool yosys_stalls = false;  // a planted fault: Yosys writes its first header, then nothing
};

inline void write_script(const std::filesystem::path& p, const std::string& body) {
  std::ofstream(p, std::ios::binary | std::ios::trunc) << "#!/bin/sh\nPATH=/usr/bin:/bin\n" << body;
  ::chmod(p.c_str(), 0755);
}

// Writes yosys, nextpnr-ice40 and icepack into `bin`. The products are
// fixed: 10 LUTs, 5 flip-flops, 2 carries; 17 logic cells; 80 MHz achieved
// (or the Fmax list in $FAKE_FMAX, one a run).
// Yosys appends its arguments and synth.ys to `calls.log` in the run folder.
inline void write_fake_tools(const std::filesystem::path& bin, const FakeTiming& t = {}) {
  std::filesystem::create_directories(bin);
  const std::string nap = "sleep " + std::to_string(t.step_s) + "\n";
  std::string yosys =
      "echo \"yosys $*\" >> calls.log\ncat synth.ys >> calls.log\n"
      "netlist=$(sed -n 's/.* -json \\([^ ]*\\).*/\\1/p' synth.ys | head -n 1)\n"
      "top=$(sed -n 's/.* -top \\([^ ]*\\).*/\\1/p' synth.ys | head -n 1)\n"
      "echo '1. Executing Verilog-2005 frontend: top.sv'\n" + nap +
      "echo '2. Executing SYNTH_ICE40 pass.'\n" + nap;
  if (t.yosys_stalls)
    yosys += "sleep " + std::to_string(t.step_s * 6) + "\n";
  else
    yosys += "echo '2.1. Executing HIERARCHY pass (managing design hierarchy).'\n" + nap +
             "echo 'some detail of the pass'\n" + nap +
             "echo '2.40.1. Executing ABC.'\n" + nap + "echo '2.49. Executing JSON backend.'\n";
  yosys +=
      "printf '{\"design\": {\"num_cells_by_type\": {\"SB_LUT4\": 10, \"SB_DFFE\": 5, \"SB_CARRY\": 2}}}' > yosys_stat.json\n"
      "printf '{\"modules\": {\"%s\": {\"ports\": {}}}}' \"$top\" > \"$netlist\"\n"
      "echo 'End of script.'\n";
  write_script(bin / "yosys", yosys);
  write_script(bin / "nextpnr-ice40",
               "while [ $# -gt 0 ]; do case \"$1\" in --asc) asc=$2; shift;; --report) report=$2; shift;; esac; shift; done\n"
               // $FAKE_FMAX "50 70 60": run n (counted in the file $FAKE_COUNTER) achieves the n-th, then the last.
               "fmax=80.0\n"
               "if [ -n \"$FAKE_FMAX\" ]; then\n"
               "  n=$(cat \"$FAKE_COUNTER\" 2>/dev/null || echo 0); n=$((n + 1)); echo $n > \"$FAKE_COUNTER\"\n"
               "  fmax=$(echo $FAKE_FMAX | cut -d ' ' -f $n)\n"
               "  [ -n \"$fmax\" ] || fmax=$(echo $FAKE_FMAX | awk '{print $NF}')\n"
               "fi\n"
               "echo 'Info: Packing constants..'\n" + nap +
               "echo 'Info: Running simulated annealing placer for refinement.'\n" +
               "echo 'Info:   at iteration #1: temp = 0.000000, timing cost = 180, wirelen = 680'\n" + nap +
               "echo 'Info: Routing..'\n"
               "echo 'Info:            |   (re-)routed arcs  |   delta    | remaining|       time spent     |'\n"
               "echo 'Info:       1000 |      106        763 |  106   763 |       218|       0.27       0.27|'\n" + nap +
               "printf '{\"fmax\": {\"clk\": {\"achieved\": %s, \"constraint\": 12}}, "
               "\"utilization\": {\"ICESTORM_LC\": {\"available\": 5280, \"used\": 17}}, \"critical_paths\": []}' \"$fmax\" > \"$report\"\n"
               "echo \"fake asc, Fmax $fmax\" > \"$asc\"\n");
  write_script(bin / "icepack", "printf 'fake bitstream' > \"$2\"\n");
}

}  // namespace polydat::fpga::test_tools
