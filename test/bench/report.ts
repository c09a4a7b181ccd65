/** Collects benchmark rows so `npm run bench` prints one readable table per suite. */
export interface BenchRow {
  name: string;
  value: string;
  note?: string;
}

export class BenchReport {
  private sections: { title: string; rows: BenchRow[] }[] = [];
  section(title: string): (row: BenchRow) => void {
    const s = { title, rows: [] as BenchRow[] };
    this.sections.push(s);
    console.log(`\n## ${title}`);
    return (row) => {
      s.rows.push(row);
      console.log(`  ${row.name.padEnd(44)} ${row.value.padStart(16)}${row.note ? '  ' + row.note : ''}`);
    };
  }
  toJSON() {
    return this.sections;
  }
}
