// Illustrated rules, our own words and diagrams drawn from the specifications
// (specs/bohnduell.md, specs/phutball.md, specs/biloba.md). One entry per page; the help view
// advances page by page with a click anywhere, as the original Biloba help did.
import type { JSX } from 'preact';
import { BohnDuellBoard } from '../boards/bohnduell/BohnDuellBoard';
import { PhutballBoard } from '../boards/phutball/PhutballBoard';
import { BilobaBoard } from '../boards/biloba/BilobaBoard';
import { parseBohnDuell } from '../boards/bohnduell/view';
import { parsePhutball } from '../boards/phutball/view';
import { parseBiloba } from '../boards/biloba/view';

export interface RulesPage {
  title: Record<string, string>;
  text: Record<string, string>;
  diagram?: () => JSX.Element;
}

const bohn = (position: string, steps: string[] = []) => () => (
  <BohnDuellBoard view={parseBohnDuell(position)} steps={steps} prefix={[]} names={['A', 'B']} />
);
const phut = (position: string, prefix: string[] = []) => () => (
  <PhutballBoard view={parsePhutball(position)} steps={[]} prefix={prefix} />
);
const bil = (position: string, steps: string[] = [], prefix: string[] = [], last: string[] = []) =>
  () => <BilobaBoard view={parseBiloba(position)} steps={steps} prefix={prefix} lastMove={last} />;

// A Biloba position with only the pawns named ({ d5: 'B', ... }) on the empty board, `toMove`
// to play: small scenes that show one rule each.
function bilobaScene(pawns: Record<string, string>, toMove = 'O'): string {
  const rows = ['##.....##', '#.......#', '.........', '.........', '....*....', '.........',
    '.........', '#.......#', '##.....##'].map((r) => [...r]);
  for (const [square, colour] of Object.entries(pawns)) {
    rows[9 - Number(square[1])]['abcdefghi'.indexOf(square[0])] = colour;
  }
  return `${rows.map((r) => r.join('')).join('/')} ${toMove} 2`;
}

const BILOBA_2P = '##..O..##/#..OOO..#/..OOOOO../.OOOOOOO./....*..../.BBBBBBB./..BBBBB../#..BBB..#/##..B..## O 2';

export const RULES: Record<string, RulesPage[]> = {
  bohnduell: [
    {
      title: { en: 'The aim', fr: 'Le but' },
      text: {
        en: 'Each player has four small bowls, a store and a supply of 20 balls. The player with more balls in the store at the end wins. Your row is at the bottom; your store is at its right.',
        fr: 'Chaque joueur a quatre petits bols, un grenier et une réserve de 20 billes. Celui qui a le plus de billes dans son grenier à la fin gagne. Votre rangée est en bas, votre grenier à sa droite.',
      },
      diagram: bohn('A[0 0 0 0] s20 S0 · B[0 0 0 0] s20 S0 · A to move'),
    },
    {
      title: { en: 'Sowing from the supply', fr: 'Semer depuis la réserve' },
      text: {
        en: 'Sow S k: one ball from your supply into bowl k and into every bowl farther from your store. S4 costs 1 ball, S1 costs 4. If the target bowl was empty, you steal every ball in the opposite bowl into your store.',
        fr: 'Semer S k : une bille de votre réserve dans le bol k et dans chaque bol plus loin de votre grenier. S4 coûte 1 bille, S1 en coûte 4. Si le bol visé était vide, vous volez toutes les billes du bol d’en face.',
      },
      diagram: bohn('A[0 1 1 1] s8 S0 · B[0 0 0 1] s11 S1 · A to move', ['S1', 'S2', 'S3', 'S4']),
    },
    {
      title: { en: 'Harvesting', fr: 'Récolter' },
      text: {
        en: 'Harvest H d: a bowl at distance d from your store that holds exactly d balls is ripe. Empty it: one ball into each bowl in front of it and the last one into your store. A bowl with more than d balls is dead: only your opponent can empty it, by stealing it.',
        fr: 'Récolter H d : un bol à la distance d de votre grenier qui contient exactement d billes est mûr. Videz-le : une bille dans chaque bol devant lui et la dernière dans votre grenier. Un bol qui en contient plus est mort : seul l’adversaire peut le vider, en le volant.',
      },
      diagram: bohn('A[1 2 0 0] s5 S0 · B[0 0 0 0] s5 S0 · A to move', ['H1', 'H2']),
    },
    {
      title: { en: 'Passing and the end', fr: 'Passer et la fin' },
      text: {
        en: 'A player without a legal move passes automatically and the other plays on. The game ends when neither player can move. Balls left in the small bowls do not count.',
        fr: 'Un joueur sans coup légal passe automatiquement et l’autre continue. La partie se termine quand aucun joueur ne peut jouer. Les billes restées dans les petits bols ne comptent pas.',
      },
      diagram: bohn('A[2 0 0 0] s0 S0 · B[0 0 0 0] s1 S0 · B to move'),
    },
  ],
  phutball: [
    {
      title: { en: 'The board', fr: 'Le plateau' },
      text: {
        en: 'One ball (white) starts on H10, the centre of a 15 × 19 board. Ohs moves first and wins with the ball on row 19 or beyond; Eks wins with the ball on row 1 or beyond.',
        fr: 'Un ballon (blanc) part de H10, le centre d’un plateau de 15 × 19. Ohs joue en premier et gagne avec le ballon sur la ligne 19 ou au-delà ; Eks gagne sur la ligne 1 ou au-delà.',
      },
      diagram: phut('ball=H10 men= turn=O ply=0'),
    },
    {
      title: { en: 'Placing a man', fr: 'Poser un homme' },
      text: {
        en: 'On your turn, either place a man (black) on any empty point, or move the ball. Men belong to nobody.',
        fr: 'À votre tour, posez un homme (noir) sur n’importe quel point libre, ou déplacez le ballon. Les hommes n’appartiennent à personne.',
      },
      diagram: phut('ball=H10 men=H11,H12,J12,K11,H14 turn=X ply=5'),
    },
    {
      title: { en: 'Jumping', fr: 'Sauter' },
      text: {
        en: 'The ball jumps in any of 8 directions over an unbroken line of men, landing on the first empty point beyond. The men jumped are removed at once. You may keep jumping as long as you can: H10-H13-L10.',
        fr: 'Le ballon saute dans l’une des 8 directions par-dessus une ligne continue d’hommes et se pose sur le premier point libre au-delà. Les hommes sautés sont retirés aussitôt. Vous pouvez enchaîner les sauts : H10-H13-L10.',
      },
      diagram: phut('ball=H10 men=H11,H12,J12,K11,H14 turn=X ply=5', ['H10', 'H13', 'L10']),
    },
    {
      title: { en: 'Winning', fr: 'Gagner' },
      text: {
        en: 'The result is decided after the whole move, from the ball’s final point. A move that ends on your own goal line or beyond loses. The ball may never leave the board over a side edge.',
        fr: 'Le résultat se décide après le coup entier, d’après la position finale du ballon. Un coup qui finit sur votre propre ligne de but ou au-delà perd. Le ballon ne sort jamais par un bord latéral.',
      },
      diagram: phut('ball=H17 men=H18 turn=O ply=20', []),
    },
  ],
  biloba: [
    {
      title: { en: 'The aim', fr: 'Le but' },
      text: {
        en: 'Two to four players. Capture the other colours’ pawns; the last player with pawns wins. Orange starts, then play goes round the table. Each turn a pawn steps to any of the 8 neighbouring squares.',
        fr: 'De deux à quatre joueurs. Prenez les pions des autres couleurs ; le dernier joueur qui a des pions gagne. Orange commence, puis on joue à tour de rôle. À chaque tour, un pion avance sur l’une des 8 cases voisines.',
      },
      diagram: bil(BILOBA_2P),
    },
    {
      title: { en: 'Jumps', fr: 'Les sauts' },
      text: {
        en: 'A pawn may instead jump over one pawn of any colour onto the empty square beyond, but never backwards. A jump captures nothing.',
        fr: 'Un pion peut aussi sauter par-dessus un pion de n’importe quelle couleur sur la case libre au-delà, mais jamais en arrière. Un saut ne prend rien.',
      },
      // Orange on d6 may jump the blue pawn on d5 to d4 (forwards, towards blue's side).
      diagram: bil(bilobaScene({ d6: 'O', d5: 'B', e6: 'O', f4: 'B', c7: 'O' }), ['d4'], ['d6']),
    },
    {
      title: { en: 'Sandwiches and refills', fr: 'Sandwichs et remplacements' },
      text: {
        en: 'A pawn caught between two of your pawns in a straight line of three is captured. Every capture happens before any refill; then one of the two flanking pawns moves into the gap (you choose which).',
        fr: 'Un pion pris entre deux de vos pions sur une ligne droite de trois est capturé. Toutes les prises ont lieu avant les remplacements ; puis l’un des deux pions qui encadraient vient dans le trou (vous choisissez lequel).',
      },
      // Orange steps from e5's neighbour d5 to d4: blue's c4 is then between b4 and d4.
      diagram: bil(bilobaScene({ b4: 'O', c4: 'B', d5: 'O', g3: 'B', f6: 'O' }), ['d4'], ['d5']),
    },
    {
      title: { en: 'Chains and forced takes', fr: 'Enchaînements et prises forcées' },
      text: {
        en: 'A refill can make a new sandwich: it is captured too, as often as it happens. A pawn that walks into a sandwich is taken at the start of its enemy’s next turn, instead of a move.',
        fr: 'Un remplacement peut former un nouveau sandwich : il est pris aussi, autant de fois que nécessaire. Un pion qui se met dans un sandwich est pris au début du prochain tour de l’adversaire, à la place d’un coup.',
      },
      // Blue walked into d3, between orange's c3 and e3: orange takes it before moving.
      diagram: bil(bilobaScene({ c3: 'O', e3: 'O', d3: 'B', f6: 'O', c6: 'B', g4: 'B' }), [], [], ['d4', 'd3']),
    },
    {
      title: { en: 'The centre', fr: 'Le centre' },
      text: {
        en: 'The star in the centre can be entered by a step when one of its neighbours is free, but nobody may stop there: the same pawn steps off at once to another free neighbour.',
        fr: 'On peut entrer dans l’étoile du centre par un pas quand l’une de ses voisines est libre, mais personne ne peut s’y arrêter : le même pion en ressort aussitôt vers une autre voisine libre.',
      },
      diagram: bil(BILOBA_2P, [], ['e5']),
    },
    {
      title: { en: 'Two pawns left', fr: 'Plus que deux pions' },
      text: {
        en: 'A player with two pawns or fewer at the start of a turn who cannot capture soon is eliminated. When only one player is left, that player wins.',
        fr: 'Un joueur qui n’a plus que deux pions ou moins au début de son tour et qui ne peut pas prendre bientôt est éliminé. Quand il ne reste qu’un joueur, il gagne.',
      },
      // Blue is down to two pawns, far from any orange pair: blue is out at its turn.
      diagram: bil(bilobaScene({ b8: 'B', h2: 'B', d4: 'O', e4: 'O', f6: 'O', c6: 'O' }, 'B')),
    },
  ],
};
