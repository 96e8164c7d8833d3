#include "gui/gui_strings.h"

#include <array>
#include <cctype>

namespace plateau::gui {

namespace {

struct Entry {
  Text key;
  const char* en;
  const char* fr;
};

// One row per Text, in the enum's order (checked by gui_model_test).
constexpr std::array kEntries = {
    Entry{Text::kPlayers, "PLAYERS", "JOUEURS"},
    Entry{Text::kHuman, "HUMAN", "HUMAIN"},
    Entry{Text::kCpuClassic, "CPU classic", "CPU classique"},
    Entry{Text::kCpuLevel, "CPU level", "CPU niveau"},
    Entry{Text::kCreate, "CREATE NETWORK GAME", "CRÉER UNE PARTIE RÉSEAU"},
    Entry{Text::kJoin, "JOIN GAME", "REJOINDRE"},
    Entry{Text::kPlay, "PLAY !", "JOUER !"},
    Entry{Text::kServer, "Server", "Serveur"},
    Entry{Text::kNoServer, "none: give one on the command line or pick one below",
          "aucun : en argument, ou choisissez-le ci-dessous"},
    Entry{Text::kLanServers, "Servers on the LAN", "Serveurs du réseau local"},
    Entry{Text::kLanNone, "none heard yet", "aucun pour l'instant"},
    Entry{Text::kPlayerN, "Player", "Joueur"},
    Entry{Text::kUpTo, "Up to", "Au tour de"},
    Entry{Text::kPawns, "Pawns", "Pions"},
    Entry{Text::kWins, "wins !", "gagne !"},
    Entry{Text::kDraw, "Draw", "Match nul"},
    Entry{Text::kLeaves, "leaves", "s'en va"},
    Entry{Text::kForcedTake, "takes at the start of the turn (forced)",
          "prend en début de tour (obligatoire)"},
    Entry{Text::kIsOut, "is out", "est éliminé"},
    Entry{Text::kPasses, "passes (no legal move)", "passe (aucun coup possible)"},
    Entry{Text::kTook, "took", "a pris"},
    Entry{Text::kPawnsTaken, "pawn(s)", "pion(s)"},
    Entry{Text::kMenu, "Menu", "Menu"},
    Entry{Text::kSave, "Save game", "Sauver la partie"},
    Entry{Text::kSaved, "Saved", "Sauvée :"},
    Entry{Text::kSaveNothing, "Nothing to save yet", "Rien à sauver pour l'instant"},
    Entry{Text::kChooseRefill, "Refill: click a capturer, then an empty square",
          "Remplacement : cliquez un preneur, puis une case vide"},
    Entry{Text::kLeaveCentre, "Leave the centre: click a free square",
          "Quittez le centre : cliquez une case libre"},
    Entry{Text::kPickPawn, "Click one of your pawns", "Cliquez un de vos pions"},
    Entry{Text::kPickTarget, "Click a marked square", "Cliquez une case marquée"},
    Entry{Text::kWaitOthers, "Waiting for", "En attente de"},
    Entry{Text::kPlayersMissing, "player(s)", "joueur(s)"},
    Entry{Text::kConnecting, "Connecting to", "Connexion à"},
    Entry{Text::kOpenGames, "Open games on", "Parties ouvertes sur"},
    Entry{Text::kNoGames, "No open game for this number of players",
          "Aucune partie ouverte pour ce nombre de joueurs"},
    Entry{Text::kBack, "Back", "Retour"},
    Entry{Text::kChatHint, "Type to chat, Enter sends", "Tapez pour discuter, Entrée envoie"},
    Entry{Text::kHelpNext, "Click anywhere for the next page",
          "Cliquez n'importe où pour la page suivante"},
    Entry{Text::kStuck, "has no legal move and waits (Esc: menu)",
          "n'a aucun coup et attend (Échap : menu)"},
    Entry{Text::kError, "Error", "Erreur"},
    Entry{Text::kGameName, "game", "partie"},
    Entry{Text::kReplay, "Replay of", "Relecture de"},
    Entry{Text::kSaveLast, "SAVE LAST GAME", "SAUVER LA DERNIÈRE PARTIE"},
    Entry{Text::kConnectionLost, "Connection lost", "Connexion perdue"},
};

}  // namespace

std::optional<Lang> parse_lang(std::string_view t) {
  std::string lower;
  for (char c : t) lower.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  if (lower == "en") return Lang::kEn;
  if (lower == "fr") return Lang::kFr;
  return std::nullopt;
}

Lang lang_from_locale(const char* locale) {
  if (locale == nullptr) return Lang::kEn;
  const std::string_view v(locale);
  return v.size() >= 2 && (v[0] == 'f' || v[0] == 'F') && (v[1] == 'r' || v[1] == 'R') ? Lang::kFr
                                                                                        : Lang::kEn;
}

const char* text(Lang lang, Text t) {
  const auto i = static_cast<std::size_t>(t);
  if (i >= kEntries.size()) return "?";
  return lang == Lang::kFr ? kEntries[i].fr : kEntries[i].en;
}

bool strings_in_order() {
  for (std::size_t i = 0; i < kEntries.size(); ++i) {
    if (static_cast<std::size_t>(kEntries[i].key) != i) return false;
  }
  return kEntries.size() == static_cast<std::size_t>(Text::kConnectionLost) + 1;
}

}  // namespace plateau::gui
