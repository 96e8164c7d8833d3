#include "gui/gui_help.h"

#include <stdexcept>

namespace plateau::gui {

namespace {

// The whole board at the start of a 2-player game (page 1).
const std::vector<std::string> kStartBoard = {
    "  ..O..  ", " ..OOO.. ", "..OOOOO..", ".OOOOOOO.", "....*....",
    ".BBBBBBB.", "..BBBBB..", " ..BBB.. ", "  ..B..  "};

std::vector<HelpPage> english() {
  return {
      {"1/6  The goal, the board, a step",
       {"Remove the other players' pawns from the board.",
        "2 players have 16 pawns each, 3 or 4 players 8 each. Orange starts, then Blue, Red, "
        "Green.",
        "Click one of your pawns, then a marked square. A pawn steps to any free neighbouring "
        "square, in all 8 directions, backwards too."},
       {{kStartBoard, "The start of a 2-player game"},
        {{"+++", "+o+", "+++"}, "A step: any free neighbour"}}},
      {"2/6  Jumps",
       {"Instead of a step, a pawn may jump over ONE neighbouring pawn (any colour, yours too) "
        "to the free square just beyond it.",
        "A jump never goes backwards (Orange in a 2-player game never jumps up the board; "
        "sideways is fine) and takes nothing. One step or one jump per turn."},
       {{{"+.+.+", ".BBB.", "+BoB+"}, "Orange jumps down or sideways"}}},
      {"3/6  Captures and refills",
       {"A pawn caught between two of yours on a line (row, column or diagonal) is taken: "
        "O B O takes the B. Only lines of three count: O B B O takes nothing.",
        "Each taken pawn's square is then refilled by one of its two takers: click the taker, "
        "then the empty square. Taking is compulsory."},
       {{{"OxO"}, "Caught: B is taken"}, {{"O.O"}, "Then click a taker..."},
        {{".OO"}, "...and the empty square"}}},
      {"4/6  Chains and forced takes",
       {"If a refill catches another pawn, it is taken and refilled too, in the same turn.",
        "If your turn starts with an enemy pawn already caught between two of yours, you take "
        "it (and refill) and your turn is over: the window says so.",
        "With 3 or 4 players such a pawn waits for its owner's turn."},
       {{{".O.", ".B.", "OxO"}, "Taken: the lower blue pawn"},
        {{".O.", ".x.", ".OO"}, "Refilled from the left: taken too"}}},
      {"5/6  The centre square",
       {"The centre (the star) opens when one of its 8 neighbours is free.",
        "A pawn steps onto it and must at once step off to a free neighbour other than the "
        "square it came from: click the pawn, the centre, then the exit.",
        "No pawn stops there, and no jump starts on, lands on or crosses it."},
       {{{"+.+", "o*+", "+++"}, "Walk through the centre"}}},
      {"6/6  The end of the game",
       {"At the start of your turn, after any forced take, if you have 1 or 2 pawns and no "
        "capture in sight, all your pawns are removed: you are out.",
        "The game ends when at most one player has pawns (or 2 against 2 with 2 players). The "
        "winner is the only player with at least 2 pawns; otherwise it is a draw.",
        "Ctrl-Q quits. Esc goes back to the menu. Save game writes a .blb file that biloba "
        "FILE.blb replays."},
       {{{"..O..", ".....", "..B.B"}, "Orange, alone and far: out"}}},
  };
}

std::vector<HelpPage> french() {
  return {
      {"1/6  Le but, le plateau, un pas",
       {"Retirer du plateau les pions des autres joueurs.",
        "À 2 joueurs chacun a 16 pions, à 3 ou 4 joueurs 8. Orange commence, puis Bleu, Rouge, "
        "Vert.",
        "Cliquez un de vos pions, puis une case marquée. Un pion avance d'un pas vers toute case "
        "voisine libre, dans les 8 directions, même en arrière."},
       {{kStartBoard, "Le début d'une partie à 2"},
        {{"+++", "+o+", "+++"}, "Un pas : toute voisine libre"}}},
      {"2/6  Les sauts",
       {"Au lieu d'un pas, un pion peut sauter par-dessus UN pion voisin (de toute couleur, "
        "même le sien) vers la case libre juste derrière.",
        "Un saut ne va jamais en arrière (Orange à 2 joueurs ne saute jamais vers le haut ; de "
        "côté, oui) et ne prend rien. Un pas ou un saut par tour."},
       {{{"+.+.+", ".BBB.", "+BoB+"}, "Orange saute vers le bas ou de côté"}}},
      {"3/6  Prises et remplacements",
       {"Un pion pris en sandwich entre deux des vôtres sur une ligne (rangée, colonne ou "
        "diagonale) est pris : O B O prend le B. Seules les lignes de trois comptent.",
        "La case du pion pris est ensuite remplie par l'un de ses deux preneurs : cliquez le "
        "preneur, puis la case vide. La prise est obligatoire."},
       {{{"OxO"}, "En sandwich : B est pris"}, {{"O.O"}, "Cliquez un preneur..."},
        {{".OO"}, "...puis la case vide"}}},
      {"4/6  Enchaînements et prises forcées",
       {"Si un remplacement prend un autre pion en sandwich, il est pris et remplacé aussi, dans "
        "le même tour.",
        "Si votre tour commence avec un pion adverse déjà pris entre deux des vôtres, vous le "
        "prenez (et remplacez) et votre tour est fini : la fenêtre l'annonce.",
        "À 3 ou 4 joueurs, un tel pion attend le tour de son propriétaire."},
       {{{".O.", ".B.", "OxO"}, "Pris : le pion bleu du bas"},
        {{".O.", ".x.", ".OO"}, "Remplacé par la gauche : pris aussi"}}},
      {"5/6  La case centrale",
       {"Le centre (l'étoile) s'ouvre quand une de ses 8 voisines est libre.",
        "Un pion y entre et doit aussitôt en sortir vers une voisine libre autre que sa case de "
        "départ : cliquez le pion, le centre, puis la sortie.",
        "Aucun pion ne s'y arrête, et aucun saut n'y part, n'y arrive ni ne le traverse."},
       {{{"+.+", "o*+", "+++"}, "Traverser le centre"}}},
      {"6/6  La fin de la partie",
       {"Au début de votre tour, après une prise forcée, si vous avez 1 ou 2 pions et aucune "
        "prise en vue, tous vos pions sont retirés : vous êtes éliminé.",
        "La partie finit quand au plus un joueur a des pions (ou 2 contre 2 à 2 joueurs). Le "
        "gagnant est le seul joueur qui a au moins 2 pions ; sinon, match nul.",
        "Ctrl-Q quitte. Échap revient au menu. Sauver la partie écrit un fichier .blb que "
        "biloba FICHIER.blb rejoue."},
       {{{"..O..", ".....", "..B.B"}, "Orange, seul et loin : éliminé"}}},
  };
}

}  // namespace

const HelpPage& help_page(Lang lang, int page) {
  static const std::vector<HelpPage> en = english();
  static const std::vector<HelpPage> fr = french();
  if (page < 1 || page > kHelpPages) {
    throw std::out_of_range("help page " + std::to_string(page) + " (1.." +
                            std::to_string(kHelpPages) + ")");
  }
  return (lang == Lang::kFr ? fr : en)[page - 1];
}

}  // namespace plateau::gui
