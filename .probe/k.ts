import { readFileSync } from 'node:fs';
import { analyzeText } from '/work/wt-fixcheck/shared/service/analyze';
import { createSyncOracle } from '/work/wt-fixcheck/shared/service/syncOracle';
const t = readFileSync(process.argv[2], 'utf8').replace('rope-scaling', 'rope_scaling');
const a = analyzeText(t, { fileName: process.argv[2], oracle: createSyncOracle() });
console.log(a.kind, JSON.stringify(a.launches?.map((l) => l.replacesModelScaling)), JSON.stringify(a.serving));
