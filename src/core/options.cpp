#include "core/options.h"

#include <algorithm>
#include <charconv>

#include "core/error.h"
#include "core/text.h"

namespace plateau {

const char* option_type_name(OptionType type) {
  switch (type) {
    case OptionType::kInt:
      return "int";
    case OptionType::kDecimal:
      return "decimal";
    case OptionType::kEnum:
      return "enum";
    case OptionType::kBool:
      return "bool";
  }
  return "enum";
}

OptionSpec OptionSpec::integer(std::string name, int default_value, int min, int max,
                               std::string help) {
  OptionSpec spec;
  spec.name = name;
  spec.type = OptionType::kInt;
  spec.min = min;
  spec.max = max;
  spec.default_value = std::to_string(default_value);
  spec.help = std::move(help);
  spec.accepted = "an integer " + std::to_string(min) + ".." + std::to_string(max);
  spec.normalize = [name, min, max](std::string_view text) {
    std::string_view t = trim(text);
    int value = 0;
    auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), value);
    if (t.empty() || ec != std::errc() || end != t.data() + t.size() || value < min ||
        value > max) {
      throw OptionError("bad value '" + std::string(t) + "' for option " + name +
                        ": expected an integer " + std::to_string(min) + ".." +
                        std::to_string(max));
    }
    return std::to_string(value);
  };
  return spec;
}

OptionSpec OptionSpec::choice(std::string name, std::string default_value,
                              std::vector<std::string> choices, std::string help) {
  OptionSpec spec;
  spec.name = name;
  spec.choices = choices;
  spec.default_value = std::move(default_value);
  spec.help = std::move(help);
  spec.accepted = join(choices, "|");
  spec.normalize = [name, choices](std::string_view text) {
    std::string t = to_lower(trim(text));
    for (const auto& c : choices) {
      if (to_lower(c) == t) return c;
    }
    throw OptionError("bad value '" + std::string(trim(text)) + "' for option " + name +
                      ": expected one of " + join(choices, ", "));
  };
  return spec;
}

OptionSpec OptionSpec::boolean(std::string name, bool default_on, std::string off, std::string on,
                               std::string help) {
  std::string default_value = default_on ? on : off;
  OptionSpec spec = choice(std::move(name), std::move(default_value),
                           {std::move(off), std::move(on)}, std::move(help));
  spec.type = OptionType::kBool;
  return spec;
}

const std::string& OptionValues::get(std::string_view name) const {
  for (const auto& [k, v] : values_) {
    if (k == name) return v;
  }
  throw OptionError("no option named '" + std::string(name) + "'");
}

int OptionValues::get_int(std::string_view name) const {
  const std::string& text = get(name);
  int value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) {
    throw OptionError("option " + std::string(name) + " is not an integer: " + text);
  }
  return value;
}

namespace {

std::vector<std::string> option_names(const std::vector<OptionSpec>& schema) {
  std::vector<std::string> names;
  for (const auto& s : schema) names.push_back(s.name);
  return names;
}

}  // namespace

OptionValues parse_options(std::string_view text, const std::vector<OptionSpec>& schema,
                           const std::vector<OptionPreset>& presets, std::string_view game) {
  std::map<std::string, std::string> chosen;
  std::vector<std::string> explicitly_set;
  for (std::string_view item : split(text, ',')) {
    item = trim(item);
    if (item.empty()) {
      if (trim(text).empty()) break;
      throw OptionError("empty option in '" + std::string(text) + "'");
    }
    auto eq = item.find('=');
    if (eq == std::string_view::npos) {
      std::string word = to_lower(item);
      auto preset = std::find_if(presets.begin(), presets.end(),
                                 [&](const OptionPreset& p) { return to_lower(p.name) == word; });
      if (preset == presets.end()) {
        std::vector<std::string> names;
        for (const auto& p : presets) names.push_back(p.name);
        throw OptionError("'" + std::string(item) + "' is neither name=value nor a preset of " +
                          std::string(game) +
                          (names.empty() ? std::string(" (it has no presets)")
                                         : "; presets are: " + join(names, ", ")));
      }
      for (const auto& [k, v] : preset->values) {
        if (std::find(explicitly_set.begin(), explicitly_set.end(), k) == explicitly_set.end()) {
          chosen[k] = v;
        }
      }
      continue;
    }
    std::string name = to_lower(trim(item.substr(0, eq)));
    std::string_view value = trim(item.substr(eq + 1));
    auto spec = std::find_if(schema.begin(), schema.end(),
                             [&](const OptionSpec& s) { return s.name == name; });
    if (spec == schema.end()) {
      throw OptionError("unknown option '" + name + "' for " + std::string(game) +
                        (schema.empty() ? std::string(" (it has no options)")
                                        : "; options are: " + join(option_names(schema), ", ")));
    }
    if (std::find(explicitly_set.begin(), explicitly_set.end(), name) != explicitly_set.end()) {
      throw OptionError("option " + name + " is given twice");
    }
    explicitly_set.push_back(name);
    chosen[name] = spec->normalize(value);
  }
  std::vector<std::pair<std::string, std::string>> ordered;
  for (const auto& s : schema) {
    auto it = chosen.find(s.name);
    ordered.emplace_back(s.name, it == chosen.end() ? s.default_value : it->second);
  }
  return OptionValues(std::move(ordered));
}

std::string format_options(const OptionValues& values, const std::vector<OptionSpec>& schema) {
  std::vector<std::string> parts;
  for (const auto& s : schema) {
    const std::string& v = values.get(s.name);
    if (v != s.default_value) parts.push_back(s.name + "=" + v);
  }
  return join(parts, ",");
}

}  // namespace plateau
