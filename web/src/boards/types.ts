// What every board component takes: a view of the position, the legal next steps of the move
// being built (from the server's step query), the steps already taken, and a click handler.
export interface BoardInput {
  steps: string[]; // legal next steps (canonical step text), highlighted and clickable
  prefix: string[]; // steps of the move being built
  lastMove?: string[]; // steps of the previous move, drawn faintly
  viewer?: number; // the seat shown at the bottom
  onStep?: (step: string) => void; // called with one of `steps`
}
