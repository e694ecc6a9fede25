#include "text/yaml_documents.h"

#include <yaml-cpp/eventhandler.h>

#include <sstream>

namespace polydat::text {

namespace {
// Notes where each document begins, and nothing else.
class DocumentStarts : public YAML::EventHandler {
 public:
  std::vector<YAML::Mark> marks;
  void OnDocumentStart(const YAML::Mark& mark) override { marks.push_back(mark); }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
  void OnAlias(const YAML::Mark&, YAML::anchor_t) override {}
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t, const std::string&) override {}
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {}
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {}
  void OnMapEnd() override {}
};
}  // namespace

std::vector<YAML::Mark> document_starts(const std::string& text, int most) {
  std::istringstream in(text);
  YAML::Parser parser(in);
  DocumentStarts starts;
  for (int i = 0; i < most && parser.HandleNextDocument(starts); ++i) {
  }
  return starts.marks;
}

}  // namespace polydat::text
