#include <fmt/core.h>
int main() { fmt::print("no benchmarks yet\n"); }
