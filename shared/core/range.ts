/** LSP-style positions (0-based line and UTF-16 character), independent of any editor API. */
export interface Position {
  line: number;
  character: number;
}
export interface Range {
  start: Position;
  end: Position;
}
