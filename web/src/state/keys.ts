// The key of a table in the client's maps: game and board number (board numbers repeat
// across games).
export const tableKey = (game: string, board: number) => `${game}/${board}`;
