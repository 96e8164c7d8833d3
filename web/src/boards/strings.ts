// The per-game strings of the boards and game names, by language (merged into the
// dictionaries of i18n/). Game names missing here fall back to the title /api/games gives.
import type { Dictionary } from '../i18n';

export const BOARD_STRINGS: Record<string, Dictionary> = {
  en: {
    'board.bohnduell': 'BohnDuell board',
    'board.phutball': "Philosopher's Football board",
    'board.biloba': 'Biloba board',
    'bohnduell.supply': 'supply',
    'bohnduell.store': 'store',
    'bohnduell.sow': 'Sow',
    'bohnduell.harvest': 'Harvest',
    'bohnduell.sowHelp': 'Put one ball from your supply into bowl {d} and each bowl behind it ({cost} balls)',
    'bohnduell.harvestHelp': 'Empty bowl {d}: one ball into each bowl in front of it, the last into your store',
    'game.bohnduell': 'BohnDuell',
    'game.phutball': "Philosopher's Football",
    'game.biloba': 'Biloba',
    'lobby.legacyPlayer': '{user} (Biloba 0.9.3)',
  },
  fr: {
    'board.bohnduell': 'Plateau de BohnDuell',
    'board.phutball': 'Plateau de football philosophique',
    'board.biloba': 'Plateau de Biloba',
    'bohnduell.supply': 'réserve',
    'bohnduell.store': 'grenier',
    'bohnduell.sow': 'Semer',
    'bohnduell.harvest': 'Récolter',
    'bohnduell.sowHelp': 'Mettre une bille de votre réserve dans le bol {d} et chaque bol derrière lui ({cost} billes)',
    'bohnduell.harvestHelp': 'Vider le bol {d} : une bille dans chaque bol devant lui, la dernière dans votre grenier',
    'game.bohnduell': 'BohnDuell',
    'game.phutball': 'Football philosophique',
    'game.biloba': 'Biloba',
    'lobby.legacyPlayer': '{user} (Biloba 0.9.3)',
  },
};
