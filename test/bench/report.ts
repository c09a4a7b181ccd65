/** Collects benchmark rows so `npm run bench` prints one readable table per suite, 100 columns wide at most. */
import { TABLE_WIDTH, wrap } from '../../shared/kernelBench/format';

export interface BenchRow {
  name: string;
  value: string;
  note?: string;
}

/** A row's printed lines: name and value, the note beside them when it fits, else wrapped below them. */
export function rowLines(row: BenchRow): string[] {
  const head = `  ${row.name.padEnd(44)} ${row.value.padStart(16)}`;
  const beside = row.note ? `${head}  ${row.note}` : head;
  if ([...beside].length <= TABLE_WIDTH) return [beside];
  const lines = [...head].length <= TABLE_WIDTH ? [head] : wrap(`${row.name} ${row.value}`, TABLE_WIDTH - 2, '  ').map((l) => `  ${l}`);
  return row.note ? [...lines, ...wrap(row.note, TABLE_WIDTH - 6, '').map((l) => `      ${l}`)] : lines;
}

export class BenchReport {
  private sections: { title: string; rows: BenchRow[] }[] = [];
  section(title: string): (row: BenchRow) => void {
    const s = { title, rows: [] as BenchRow[] };
    this.sections.push(s);
    console.log(`\n## ${title}`);
    return (row) => {
      s.rows.push(row);
      for (const line of rowLines(row)) console.log(line);
    };
  }
  toJSON() {
    return this.sections;
  }
}
