// command_help (command.h): the `help` list of every text transport, one entry per command form.
// Data only, kept apart from the parser so that adding a command's line does not grow it.
#include "server/command.h"

namespace plateau::server {

const std::vector<std::pair<std::string, std::string>>& command_help() {
  static const std::vector<std::pair<std::string, std::string>> kHelp = {
      {"register NAME PASSWORD", "create an account and log in"},
      {"login NAME PASSWORD", "log in"},
      {"guest", "log in as a guest (unrated games only)"},
      {"resume TOKEN", "log in again with the resume token of an earlier login"},
      {"logout | quit", "log out (revoking your resume token) | close the connection"},
      {"who", "users online"},
      {"games", "the games this server plays"},
      {"help [GAME]", "this list, or a game's seats and options"},
      {"tables [GAME]", "open tables and boards"},
      {"standings GAME", "ratings of a game"},
      {"limit [N|accept|reject]",
       "challenges you accept: all, none, or at most N open boards started by others"},
      {"notify [every|digest|off]",
       "mail about your games while you are not connected: each event, a daily list, or none"},
      {"vacation [DAYS|off]",
       "pause your correspondence time (nag/forfeit) for DAYS days (14 a year), or end it"},
      {"/open GAME [NAME=VALUE ...]", "open a new table and go to it"},
      {"/table [GAME] N", "go to table N"},
      {"/join [SEAT]", "take a seat (the next free one, or SEAT) at the current table"},
      {"/join cpu:LEVEL SEAT", "put a computer player (e.g. cpu:random) in SEAT"},
      {"/leave", "leave your seat (during a game the seat stays yours)"},
      {"/option NAME=VALUE", "set a game or table option before the start (clock=...)"},
      {"/start | /startnosave", "start a rated | unrated game"},
      {"/watch [BOARD]", "watch the current table or a board"},
      {"/say TEXT", "talk at the current table"},
      {"/reset", "clear a finished table for a new game"},
      {"/info [BOARD]", "the table's game, options, seats and clock"},
      {"/invite [BOARD] NAME", "let NAME reach the table even when it is invisible"},
      {"GAME challenge [-NAME=VALUE ...] USER1 USER2", "start a board (pbmserv style)"},
      {"move [BOARD] MOVE[#n]", "make a move (#n: the ply you think you make)"},
      {"queue [BOARD] MOVE[#n]", "play MOVE automatically when your turn comes"},
      {"resign [BOARD]", "resign (before any move: decline the challenge)"},
      {"propose | undo [BOARD]", "offer a draw | ask to take back the last move"},
      {"accept | reject [BOARD]", "answer a draw or undo request"},
      {"show [BOARD[#n]]", "the board page (as it stood after ply n)"},
      {"chat [BOARD] TEXT", "add a comment to a board"},
      {"analyse [GAME] BOARD[#n] [LEVEL]",
       "a computer's evaluation, best move and line (after ply n; level 1-5, default 3)"},
      {"steps [BOARD] [STEP ...]", "the legal next steps after STEPs (and the move they make)"},
      {"resync [GAME] BOARD SEQ", "the board's events after SEQ, then watch it"},
      {"preview BOARD MOVE ...", "the board after MOVEs, without playing them"},
      {"preview new 2 [-NAME=VALUE ...] MOVE ...", "a new board after MOVEs (e.g. -handicap=2)"},
      {"submit BOARD MOVE[#n] | confirm BOARD", "preview a move | play the move submitted"},
      {"history [USER]", "finished games (yours, or USER's)"},
      {"subscribe BOARD | unsubscribe BOARD|all", "get a board's pages by mail | stop"},
      {"change password OLD NEW", "a new password"},
      {"change address ADDRESS", "where your mail goes"},
      {"signoff", "close your account (finished games keep your name)"},
  };
  return kHelp;
}

}  // namespace plateau::server
