// Illustrated rules, our own words drawn from the specifications (specs/bohnduell.md,
// specs/phutball.md, specs/biloba.md; Biloba's six pages follow the six help pages of biloba
// 0.9.3). One entry per page; its diagrams are real positions, reached by the moves of a record
// (rules/diagrams.json, checked against the rules engine by web/tests/rules/check-diagrams.mjs)
// and drawn by the game's own board (rules/Diagram.tsx).
import DIAGRAMS from './diagrams.json';

type Text = Record<string, string>; // by language

// One diagram: the position after the first `plies` entries of a record.
export interface DiagramData {
  record: string; // a key of DIAGRAMS.records
  plies: number;
  position: string; // the engine's position there (State::serialize)
  prefix?: string[]; // a move being built: the clicks made so far
  steps?: string[]; // the clicks then offered
  last?: boolean; // mark the record's last entry played
  caption: Text;
}

export interface RulesPage {
  title: Text;
  text: Text;
  diagrams: DiagramData[];
}

export interface RecordData {
  game: string;
  spec: string;
  moves: string[];
}

export const RECORDS: Record<string, RecordData> = DIAGRAMS.records;

const TEXTS: Record<string, { title: Text; text: Text }[]> = {
  bohnduell: [
    {
      title: { en: 'The aim', fr: 'Le but' },
      text: {
        en: 'Each player has four small bowls, a store and a supply of 20 balls. The player with more balls in the store at the end wins. Your row is at the bottom; your store is at its right.',
        fr: 'Chaque joueur a quatre petits bols, un grenier et une réserve de 20 billes. Celui qui a le plus de billes dans son grenier à la fin gagne. Votre rangée est en bas, votre grenier à sa droite.',
      },
    },
    {
      title: { en: 'Sowing from the supply', fr: 'Semer depuis la réserve' },
      text: {
        en: 'Sow S k: one ball from your supply into bowl k and into every bowl farther from your store. S4 costs 1 ball, S1 costs 4. If the target bowl was empty, you steal every ball in the opposite bowl into your store.',
        fr: 'Semer S k : une bille de votre réserve dans le bol k et dans chaque bol plus loin de votre grenier. S4 coûte 1 bille, S1 en coûte 4. Si le bol visé était vide, vous volez toutes les billes du bol d’en face.',
      },
    },
    {
      title: { en: 'Harvesting', fr: 'Récolter' },
      text: {
        en: 'Harvest H d: a bowl at distance d from your store that holds exactly d balls is ripe. Empty it: one ball into each bowl in front of it and the last one into your store. A bowl with more than d balls is dead: only your opponent can empty it, by stealing it.',
        fr: 'Récolter H d : un bol à la distance d de votre grenier qui contient exactement d billes est mûr. Videz-le : une bille dans chaque bol devant lui et la dernière dans votre grenier. Un bol qui en contient plus est mort : seul l’adversaire peut le vider, en le volant.',
      },
    },
    {
      title: { en: 'Passing and the end', fr: 'Passer et la fin' },
      text: {
        en: 'A player without a legal move passes automatically and the other plays on. The game ends when neither player can move. Balls left in the small bowls do not count.',
        fr: 'Un joueur sans coup légal passe automatiquement et l’autre continue. La partie se termine quand aucun joueur ne peut jouer. Les billes restées dans les petits bols ne comptent pas.',
      },
    },
  ],
  phutball: [
    {
      title: { en: 'The board', fr: 'Le plateau' },
      text: {
        en: 'One ball (white) starts on H10, the centre of a 15 × 19 board. Ohs moves first and wins with the ball on row 19 or beyond; Eks wins with the ball on row 1 or beyond.',
        fr: 'Un ballon (blanc) part de H10, le centre d’un plateau de 15 × 19. Ohs joue en premier et gagne avec le ballon sur la ligne 19 ou au-delà ; Eks gagne sur la ligne 1 ou au-delà.',
      },
    },
    {
      title: { en: 'Placing a man', fr: 'Poser un homme' },
      text: {
        en: 'On your turn, either place a man (black) on any empty point, or move the ball. Men belong to nobody.',
        fr: 'À votre tour, posez un homme (noir) sur n’importe quel point libre, ou déplacez le ballon. Les hommes n’appartiennent à personne.',
      },
    },
    {
      title: { en: 'Jumping', fr: 'Sauter' },
      text: {
        en: 'The ball jumps in any of 8 directions over an unbroken line of men, landing on the first empty point beyond. The men jumped are removed at once. You may keep jumping as long as you can: H10-H13-L10.',
        fr: 'Le ballon saute dans l’une des 8 directions par-dessus une ligne continue d’hommes et se pose sur le premier point libre au-delà. Les hommes sautés sont retirés aussitôt. Vous pouvez enchaîner les sauts : H10-H13-L10.',
      },
    },
    {
      title: { en: 'Winning', fr: 'Gagner' },
      text: {
        en: 'The result is decided after the whole move, from the ball’s final point. A move that ends on your own goal line or beyond loses. The ball may never leave the board over a side edge.',
        fr: 'Le résultat se décide après le coup entier, d’après la position finale du ballon. Un coup qui finit sur votre propre ligne de but ou au-delà perd. Le ballon ne sort jamais par un bord latéral.',
      },
    },
  ],
  biloba: [
    {
      title: { en: 'The goal', fr: 'Le but' },
      text: {
        en: 'Two to four players: Orange, Blue, Red, Green. Take the other colours’ pawns; the last player with pawns wins. With two players each has 16 pawns, with three or four 8 each. Orange starts, then play goes round the table.',
        fr: 'De deux à quatre joueurs : Orange, Bleu, Rouge, Vert. Prenez les pions des autres couleurs ; le dernier joueur qui a des pions gagne. À deux, chacun a 16 pions ; à trois ou quatre, 8 chacun. Orange commence, puis on joue à tour de rôle.',
      },
    },
    {
      title: { en: 'Moving', fr: 'Se déplacer' },
      text: {
        en: 'On your turn, move one of your pawns one square, in any of the 8 directions, backwards too, onto a free square.',
        fr: 'À votre tour, déplacez l’un de vos pions d’une case, dans l’une des 8 directions, en arrière aussi, sur une case libre.',
      },
    },
    {
      title: { en: 'Jumping', fr: 'Sauter' },
      text: {
        en: 'Instead of a step, a pawn may jump over one neighbouring pawn of any colour onto the free square beyond, but never backwards (for Orange with two players: never up the board). A jump takes nothing by itself, and there is one step or one jump per turn.',
        fr: 'Au lieu d’un pas, un pion peut sauter par-dessus un pion voisin de n’importe quelle couleur sur la case libre au-delà, mais jamais en arrière (pour Orange à deux : jamais vers le haut). Un saut ne prend rien par lui-même, et on fait un pas ou un saut par tour.',
      },
    },
    {
      title: { en: 'Taking and replacing', fr: 'Prendre et remplacer' },
      text: {
        en: 'An enemy pawn caught between two of your pawns on a line of three (row, column or diagonal) is taken, and one of the two pawns that caught it takes its place: you choose which. Every pawn taken by one move goes first, then the refills; a refill that catches another pawn takes it too. A pawn that walks in between two enemies is taken at the start of their next turn, instead of a move.',
        fr: 'Un pion adverse pris entre deux de vos pions sur une ligne de trois (rangée, colonne ou diagonale) est pris, et l’un des deux pions qui l’encadraient prend sa place : vous choisissez lequel. Tous les pions pris par un coup partent d’abord, puis viennent les remplacements ; un remplacement qui encadre un autre pion le prend aussi. Un pion qui se place entre deux ennemis est pris au début de leur tour suivant, à la place d’un coup.',
      },
    },
    {
      title: { en: 'The special tile', fr: 'La case spéciale' },
      text: {
        en: 'Nobody may stop on the star in the centre, e5. A pawn may step onto it only when one of its neighbours is free, and steps off again at once, in the same turn, to a free neighbour other than the square it came from. No jump starts on, lands on or crosses it.',
        fr: 'Personne ne peut s’arrêter sur l’étoile du centre, e5. Un pion ne peut y entrer que si l’une de ses voisines est libre, et en ressort aussitôt, dans le même tour, vers une voisine libre autre que la case d’où il vient. Aucun saut ne part de l’étoile, n’y arrive ni ne la traverse.',
      },
    },
    {
      title: { en: 'End of game', fr: 'Fin de la partie' },
      text: {
        en: 'A player who starts a turn with two pawns or fewer and cannot capture soon is out: their pawns leave the board. The game ends when at most one player has pawns left (with two players, also at two pawns against two). The only player with at least two pawns wins; otherwise it is a draw.',
        fr: 'Un joueur qui commence son tour avec deux pions ou moins et ne peut pas prendre bientôt est éliminé : ses pions quittent le plateau. La partie se termine quand au plus un joueur a encore des pions (à deux joueurs, aussi à deux pions contre deux). Le seul joueur qui a au moins deux pions gagne ; sinon, c’est un match nul.',
      },
    },
  ],
};

const PAGES = DIAGRAMS.pages as Record<string, DiagramData[][]>;

// The rules pages of every game with pages: its texts, each with the diagrams of its page.
export const RULES: Record<string, RulesPage[]> = Object.fromEntries(
  Object.entries(TEXTS).map(([game, texts]) => [
    game, texts.map((page, i) => ({ ...page, diagrams: PAGES[game]?.[i] ?? [] })),
  ]),
);
