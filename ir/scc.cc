// The only file that includes Boost.Graph (it is costly to compile).
#include "ir/scc.h"

#include <algorithm>
#include <optional>
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/strong_components.hpp>

namespace polydat::ir {

std::vector<std::vector<ObjectId>> strong_components(const CategoryIr& ir, std::span<const ObjectId> nodes,
                                                     const EdgeFilter& keep) {
  // Nodes are sorted by id, so a node's index is found by binary search: no
  // array over the whole graph per call (a graph may hold thousands of functions).
  auto local = [&](ObjectId o) -> std::optional<size_t> {
    auto it = std::lower_bound(nodes.begin(), nodes.end(), o);
    if (it == nodes.end() || *it != o) return std::nullopt;
    return static_cast<size_t>(it - nodes.begin());
  };

  using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS>;
  Graph g(nodes.size());
  for (size_t i = 0; i < nodes.size(); ++i) {
    for (MorphismId m : ir.out_edges(nodes[i])) {
      const Morphism& mm = ir.morphism(m);
      const auto t = local(mm.target);
      if (t && (!keep || keep(mm))) boost::add_edge(i, *t, g);
    }
  }
  // Boost's DFS is iterative (BOOST_RECURSIVE_DFS is not defined): deep graphs are safe.
  std::vector<int> comp(nodes.size());
  const int n = boost::strong_components(
      g, boost::make_iterator_property_map(comp.begin(), boost::get(boost::vertex_index, g)));
  std::vector<std::vector<ObjectId>> out(static_cast<size_t>(n));
  for (size_t i = 0; i < nodes.size(); ++i) out[static_cast<size_t>(comp[i])].push_back(nodes[i]);
  for (auto& c : out) std::sort(c.begin(), c.end());
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.front() < b.front(); });
  return out;
}

std::vector<std::vector<ObjectId>> sccs(const CategoryIr& ir, FuncId f) {
  return strong_components(ir, ir.objects_of(f));
}

}  // namespace polydat::ir
