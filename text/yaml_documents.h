// Where each YAML document of a text begins: a workload or board file holds
// one, and the second one's place is what its error points at.
#pragma once

#include <yaml-cpp/yaml.h>

#include <string>
#include <vector>

namespace polydat::text {

// The marks of the first `most` document starts (yaml-cpp's parser, event by event: YAML::LoadAll
// loops forever on some garbage in yaml-cpp 0.7). Throws what yaml-cpp throws on a syntax error.
std::vector<YAML::Mark> document_starts(const std::string& text, int most = 2);

}  // namespace polydat::text
