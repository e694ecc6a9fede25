// polydat boards [NAME]: the bundled board files, what a user picks a board by, as text or JSON.
#include <fmt/core.h>

#include <nlohmann/json.hpp>

#include "cli/board_flow.h"
#include "cli/commands.h"

namespace polydat::cli {

namespace {

using Json = nlohmann::ordered_json;

std::string polarity(const boards::Pin& p) { return p.pin + (p.active_low ? " (active low)" : " (active high)"); }

std::string joined(const std::vector<std::string>& items, const std::string& sep) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) out += (i ? sep : "") + items[i];
  return out;
}

Json pin_json(const boards::Pin& p) { return {{"pin", p.pin}, {"active_low", p.active_low}}; }

Json board_json(const boards::Board& b) {
  Json leds = Json::array();
  for (const boards::Pin& p : b.leds) leds.push_back(pin_json(p));
  return {{"name", b.name},
          {"title", b.title},
          {"device", b.device},
          {"package", b.package},
          {"clock", {{"pin", b.clock.pin}, {"mhz", b.clock_mhz}, {"pll", b.pll_input == boards::PllInput::Pad ? "pad" : "core"}}},
          {"uart", {{"tx", b.uart_tx.pin}, {"rx", b.uart_rx.pin}, {"baud", b.baud}}},
          {"leds", leds},
          {"reset_button", b.reset_button ? pin_json(*b.reset_button) : Json(nullptr)},
          {"programmer", {{"command", b.program}, {"usb", b.usb_ids}}},
          {"source", b.source},
          {"note", b.note}};
}

// One board, every field its file holds.
void print_board(const boards::Board& b) {
  std::vector<std::string> leds;
  for (size_t i = 0; i < b.leds.size(); ++i) leds.push_back(polarity(b.leds[i]) + (i == 0 ? ", the heartbeat" : ""));
  fmt::print("{}: {}\n", b.name, b.title);
  fmt::print("  device      {}, package {}\n", b.device, b.package);
  fmt::print("  clock       pin {}, {} MHz (PLL: {})\n", b.clock.pin, b.clock_mhz,
             b.pll_input == boards::PllInput::Pad ? "SB_PLL40_PAD" : "SB_PLL40_CORE");
  fmt::print("  uart        tx {}, rx {}, {} baud\n", b.uart_tx.pin, b.uart_rx.pin, b.baud);
  fmt::print("  leds        {}\n", joined(leds, "; "));
  fmt::print("  reset       {}\n", b.reset_button ? polarity(*b.reset_button) : std::string("none"));
  fmt::print("  programmer  {} (attached: USB {})\n", b.program, joined(b.usb_ids, " or "));
  fmt::print("  source      {}\n", b.source);
  if (!b.note.empty()) fmt::print("  note        {}\n", b.note);
}

// The bundled boards, one line each: what --board takes and what a user chooses by.
void print_table(const std::vector<boards::Board>& all) {
  const std::vector<std::string> head{"board", "device", "package", "clock", "uart tx/rx", "heartbeat", "reset", "title"};
  std::vector<std::vector<std::string>> rows{head};
  for (const boards::Board& b : all)
    rows.push_back({b.name, b.device, b.package, fmt::format("{} MHz ({})", b.clock_mhz, b.clock.pin),
                    b.uart_tx.pin + " / " + b.uart_rx.pin, b.leds.front().pin,
                    b.reset_button ? b.reset_button->pin : "none", b.title});
  std::vector<size_t> width(head.size(), 0);
  for (const auto& r : rows)
    for (size_t i = 0; i < r.size(); ++i) width[i] = std::max(width[i], r[i].size());
  for (const auto& r : rows) {
    std::string line;
    for (size_t i = 0; i + 1 < r.size(); ++i) line += fmt::format("{:<{}}  ", r[i], width[i]);
    fmt::print("{}{}\n", line, r.back());
  }
  fmt::print("\n{} boards; `polydat boards NAME` shows one, and --board NAME (or a board file, .yaml) picks it\n",
             all.size());
}

}  // namespace

int boards_command(const BoardsArgs& args) {
  if (!args.name.empty()) {
    auto b = load_board(args.name);
    if (!b) return board_failure(args.name);
    if (args.format == "json") fmt::print("{}\n", board_json(*b).dump(2));
    else print_board(*b);
    return kOk;
  }
  std::vector<boards::Board> all;
  for (const std::string& name : boards::board_names()) {
    auto b = load_board(name);
    if (!b) return kUserError;  // a bundled file that does not load: the suite's to catch
    all.push_back(*b);
  }
  if (args.format == "json") {
    Json out = Json::array();
    for (const boards::Board& b : all) out.push_back(board_json(b));
    fmt::print("{}\n", out.dump(2));
    return kOk;
  }
  print_table(all);
  return kOk;
}

}  // namespace polydat::cli
