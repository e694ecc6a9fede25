// A small XML reader for the report tests: elements, attributes and text, with
// the five named entities and character references decoded. It shares nothing
// with difftest/report.cc, so a report read back through it is an independent
// check of the writer (xmllint checks well-formedness and the schema).
#pragma once

#include <cctype>
#include <cstdint>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace polydat::xmltest {

struct Element {
  std::string name;
  std::map<std::string, std::string> attributes;
  std::vector<std::unique_ptr<Element>> children;
  std::string text;  // the character data directly inside, concatenated

  std::vector<const Element*> all(const std::string& child) const {
    std::vector<const Element*> out;
    for (const auto& c : children)
      if (c->name == child) out.push_back(c.get());
    return out;
  }
  const Element* first(const std::string& child) const {
    auto v = all(child);
    return v.empty() ? nullptr : v.front();
  }
  std::string attr(const std::string& a) const {
    auto it = attributes.find(a);
    if (it == attributes.end()) throw std::runtime_error("<" + name + "> has no attribute " + a);
    return it->second;
  }
};

class Reader {
 public:
  explicit Reader(std::string text) : s_(std::move(text)) {}

  std::unique_ptr<Element> document() {
    skip_space();
    if (s_.compare(i_, 5, "<?xml") == 0) i_ = find("?>") + 2;
    skip_space();
    auto root = element();
    skip_space();
    if (i_ != s_.size()) fail("text after the root element");
    return root;
  }

 private:
  std::string s_;
  size_t i_ = 0;

  [[noreturn]] void fail(const std::string& why) const {
    throw std::runtime_error("xml: " + why + " at offset " + std::to_string(i_));
  }
  size_t find(const char* what) const {
    const size_t at = s_.find(what, i_);
    if (at == std::string::npos) fail(std::string("no '") + what + "'");
    return at;
  }
  void skip_space() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\n' || s_[i_] == '\t' || s_[i_] == '\r')) ++i_;
  }
  std::string name() {
    const size_t start = i_;
    while (i_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[i_])) || s_[i_] == '-' || s_[i_] == '_' ||
                              s_[i_] == ':' || s_[i_] == '.'))
      ++i_;
    if (i_ == start) fail("a name expected");
    return s_.substr(start, i_ - start);
  }
  static void append_utf8(std::string& out, uint32_t cp) {
    if (cp < 0x80) out += char(cp);
    else if (cp < 0x800) out += {char(0xC0 | cp >> 6), char(0x80 | (cp & 0x3F))};
    else if (cp < 0x10000) out += {char(0xE0 | cp >> 12), char(0x80 | ((cp >> 6) & 0x3F)), char(0x80 | (cp & 0x3F))};
    else
      out += {char(0xF0 | cp >> 18), char(0x80 | ((cp >> 12) & 0x3F)), char(0x80 | ((cp >> 6) & 0x3F)),
              char(0x80 | (cp & 0x3F))};
  }
  // Character data up to `stop`, entities decoded; a raw '<' or '&' not starting an entity is an error.
  std::string chars(char stop) {
    std::string out;
    while (i_ < s_.size() && s_[i_] != stop) {
      if (s_[i_] == '<') fail("a raw '<' in text or an attribute");
      if (s_[i_] != '&') {
        out += s_[i_++];
        continue;
      }
      const size_t semi = s_.find(';', i_);
      if (semi == std::string::npos) fail("an unterminated entity");
      const std::string e = s_.substr(i_ + 1, semi - i_ - 1);
      static const std::map<std::string, char> named{{"amp", '&'}, {"lt", '<'}, {"gt", '>'}, {"quot", '"'}, {"apos", '\''}};
      if (auto n = named.find(e); n != named.end()) out += n->second;
      else if (e.size() > 1 && e[0] == '#') append_utf8(out, std::stoul(e.substr(e[1] == 'x' ? 2 : 1), nullptr, e[1] == 'x' ? 16 : 10));
      else fail("an unknown entity &" + e + ";");
      i_ = semi + 1;
    }
    return out;
  }
  std::unique_ptr<Element> element() {
    if (s_[i_] != '<') fail("'<' expected");
    ++i_;
    auto e = std::make_unique<Element>();
    e->name = name();
    for (;;) {
      skip_space();
      if (s_.compare(i_, 2, "/>") == 0) {
        i_ += 2;
        return e;
      }
      if (s_[i_] == '>') break;
      const std::string a = name();
      if (s_[i_] != '=' || (s_[i_ + 1] != '"' && s_[i_ + 1] != '\'')) fail("=\"value\" expected after " + a);
      const char quote = s_[i_ + 1];
      i_ += 2;
      if (e->attributes.count(a)) fail("attribute " + a + " twice");
      e->attributes[a] = chars(quote);
      ++i_;
    }
    ++i_;
    for (;;) {
      e->text += chars('<');
      if (i_ >= s_.size()) fail("</" + e->name + "> missing");
      if (s_.compare(i_, 2, "</") == 0) {
        i_ += 2;
        if (name() != e->name) fail("</" + e->name + "> expected");
        skip_space();
        if (s_[i_] != '>') fail("'>' expected");
        ++i_;
        return e;
      }
      e->children.push_back(element());
    }
  }
};

inline std::unique_ptr<Element> parse(const std::string& text) { return Reader(text).document(); }

}  // namespace polydat::xmltest
