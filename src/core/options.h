#pragma once
// Game options: the schema a game declares (names, accepted values, defaults) and the validated
// values a game is created with. Text form (DESIGN.md §2): `name=value,name=value`, inside a game
// spec `phutball(handicap=2)`. A bare word names a preset (a ruleset or option set such as
// `winningways`) and sets several options at once; explicit options after it override it.
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace plateau {

// What kind of value an option takes, so that forms (the browser's lobby, /api/games) can offer
// the right control: a number in [min, max] by `step`, one of `choices`, or a switch whose
// two canonical words are choices[0] (off) and choices[1] (on).
enum class OptionType { kInt, kDecimal, kEnum, kBool };

// The wire name of a type: "int", "decimal", "enum", "bool" (/api/games, docs/PROTOCOL.md).
const char* option_type_name(OptionType type);

struct OptionSpec {
  std::string name;
  OptionType type = OptionType::kEnum;
  // kInt and kDecimal: the accepted range and the spacing of accepted values (1 for kInt).
  double min = 0;
  double max = 0;
  double step = 1;
  // kEnum: every accepted value, canonical spelling; kBool: {off word, on word}.
  std::vector<std::string> choices;
  std::string default_value;  // canonical text
  std::string help;           // one line, for `plateau games` and `help`
  std::string accepted;       // human description of the accepted values, e.g. "1..63"
  // Returns the canonical text of a value, or throws OptionError saying what is accepted.
  std::function<std::string(std::string_view)> normalize;

  // An integer option in [min, max].
  static OptionSpec integer(std::string name, int default_value, int min, int max,
                            std::string help);
  // An option taking one of `choices` (case-insensitive input, canonical as listed).
  static OptionSpec choice(std::string name, std::string default_value,
                           std::vector<std::string> choices, std::string help);
  // A switch: choice() of {off, on} typed kBool; the default is `on` when `default_on`.
  static OptionSpec boolean(std::string name, bool default_on, std::string off, std::string on,
                            std::string help);
};

// A named preset: a set of option values (e.g. phutball `winningways`).
struct OptionPreset {
  std::string name;
  std::map<std::string, std::string> values;
  std::string help;
};

// Validated option values of one game, every schema option present, canonical text.
class OptionValues {
 public:
  OptionValues() = default;
  explicit OptionValues(std::vector<std::pair<std::string, std::string>> ordered)
      : values_(std::move(ordered)) {}

  // The canonical text of option `name`; throws OptionError if the game has no such option.
  const std::string& get(std::string_view name) const;
  // get() as an integer; throws OptionError if it is not one.
  int get_int(std::string_view name) const;
  // Values in schema order.
  const std::vector<std::pair<std::string, std::string>>& items() const { return values_; }

  friend bool operator==(const OptionValues&, const OptionValues&) = default;

 private:
  std::vector<std::pair<std::string, std::string>> values_;
};

// Parses `name=value,name=value,preset` against `schema` and `presets`, fills defaults.
// Whitespace around names and values is ignored. Throws OptionError naming the bad item and
// listing what is accepted (unknown option, bad value, option given twice, unknown preset).
OptionValues parse_options(std::string_view text, const std::vector<OptionSpec>& schema,
                           const std::vector<OptionPreset>& presets, std::string_view game);

// The non-default options as `name=value,...` in schema order ("" when all are defaults).
std::string format_options(const OptionValues& values, const std::vector<OptionSpec>& schema);

}  // namespace plateau
