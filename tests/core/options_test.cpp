// Option parsing and game specs (DESIGN.md §2): defaults, canonical values, presets, errors.
#include <gtest/gtest.h>

#include "core/error.h"
#include "core/options.h"
#include "core/registry.h"
#include "games/register.h"

namespace plateau {
namespace {

std::vector<OptionSpec> schema() {
  return {OptionSpec::integer("size", 5, 1, 9, "board size"),
          OptionSpec::choice("mode", "fast", {"fast", "slow"}, "speed")};
}
std::vector<OptionPreset> presets() { return {{"careful", {{"mode", "slow"}}, "slow play"}}; }

std::string error_of(const std::string& text) {
  try {
    parse_options(text, schema(), presets(), "demo");
  } catch (const OptionError& e) {
    return e.what();
  }
  return "no error";
}

TEST(Options, DefaultsFillMissingValues) {
  auto v = parse_options("", schema(), presets(), "demo");
  EXPECT_EQ(v.items(), (std::vector<std::pair<std::string, std::string>>{{"size", "5"},
                                                                          {"mode", "fast"}}));
  EXPECT_EQ(format_options(v, schema()), "");
}

TEST(Options, ValuesAreNormalised) {
  auto v = parse_options(" size = 07 , MODE=Slow", schema(), presets(), "demo");
  EXPECT_EQ(v.get("size"), "7");
  EXPECT_EQ(v.get_int("size"), 7);
  EXPECT_EQ(v.get("mode"), "slow");
  EXPECT_EQ(format_options(v, schema()), "size=7,mode=slow");
}

TEST(Options, PresetSetsValuesAndExplicitOptionsWin) {
  EXPECT_EQ(parse_options("careful", schema(), presets(), "demo").get("mode"), "slow");
  EXPECT_EQ(parse_options("mode=fast,careful", schema(), presets(), "demo").get("mode"), "fast");
  EXPECT_EQ(parse_options("careful,mode=fast", schema(), presets(), "demo").get("mode"), "fast");
}

TEST(Options, ErrorsNameTheProblemAndWhatIsAccepted) {
  EXPECT_EQ(error_of("colour=red"), "unknown option 'colour' for demo; options are: size, mode");
  EXPECT_EQ(error_of("size=10"), "bad value '10' for option size: expected an integer 1..9");
  EXPECT_EQ(error_of("size=x"), "bad value 'x' for option size: expected an integer 1..9");
  EXPECT_EQ(error_of("size="), "bad value '' for option size: expected an integer 1..9");
  EXPECT_EQ(error_of("mode=medium"),
            "bad value 'medium' for option mode: expected one of fast, slow");
  EXPECT_EQ(error_of("size=3,size=4"), "option size is given twice");
  EXPECT_EQ(error_of("wild"),
            "'wild' is neither name=value nor a preset of demo; presets are: careful");
  EXPECT_EQ(error_of("size=3,,mode=fast"), "empty option in 'size=3,,mode=fast'");
}

TEST(Registry, MakeGameFromSpec) {
  register_builtin_games();
  EXPECT_EQ(make_game("bohnduell")->spec(), "bohnduell");
  EXPECT_EQ(make_game(" BohnDuell( supply = 12 ) ")->spec(), "bohnduell(supply=12)");
  EXPECT_EQ(make_game("bohnduell(supply=20)")->spec(), "bohnduell");
  EXPECT_EQ(make_game("bohnduell(bsw)")->spec(), "bohnduell");
}

TEST(Registry, BadSpecsSayWhatIsWrong) {
  register_builtin_games();
  auto error = [](const std::string& spec) {
    try {
      make_game(spec);
    } catch (const OptionError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(error("chess").substr(0, 34), "unknown game 'chess'; games are: b");
  EXPECT_EQ(error("bohnduell(supply=12"),
            "bad game spec 'bohnduell(supply=12': expected name(option=value,...) ending with ')'");
  EXPECT_EQ(error("bohnduell)"), "bad game spec 'bohnduell)': ')' without '('");
  EXPECT_EQ(error("bohnduell((supply=1))"), "bad game spec 'bohnduell((supply=1))': nested parentheses");
}

}  // namespace
}  // namespace plateau
