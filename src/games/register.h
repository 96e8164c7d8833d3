#pragma once
// Registers every built-in game with the core registry. Adding a game = one line in
// register.cpp (DESIGN.md §1).
namespace plateau {

// Idempotent: safe to call from every entry point (CLI, server, tests).
void register_builtin_games();

}  // namespace plateau
