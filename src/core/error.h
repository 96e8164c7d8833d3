#pragma once
// Errors thrown at the boundaries of the rules layer (parsing user input, options, records).
// Hot paths never throw: they take moves that came from legal_moves() or parse_move().
#include <stdexcept>
#include <string>

namespace plateau {

// A move, step or position that the rules reject. The message names the problem in words a
// player can act on, e.g. "H2 is not legal: bowl A2 holds 3 balls, a harvest needs exactly 2".
class RuleError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// An unknown game name or a bad option (name, value or range). The message lists what is
// accepted, e.g. "unknown option 'suply' for bohnduell; options are: supply, short_supply, ...".
class OptionError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A game record that cannot be read or replayed. line() is 1-based (0 when not tied to a line);
// what() already starts with "line N: ".
class RecordError : public std::runtime_error {
 public:
  RecordError(int line, const std::string& message)
      : std::runtime_error(line > 0 ? "line " + std::to_string(line) + ": " + message : message),
        line_(line) {}
  int line() const { return line_; }

 private:
  int line_;
};

}  // namespace plateau
