/** Every command, view and status-item id, defined once (a test checks package.json against these). */
export const COMMANDS = {
  openInspector: 'ropeLens.openInspector',
  runKernelBenchmarks: 'ropeLens.runKernelBenchmarks',
  checkAsModelConfig: 'ropeLens.checkAsModelConfig',
  /** `executeCommand(planContextExtension, uri?, {target?, stages?})`: input boxes, then the Inspector's plan view. */
  planContextExtension: 'ropeLens.planContextExtension',
  /** Internal: `executeCommand(describeDocument, uri?, waitForBounds?)` → DescribeResult | null. */
  describeDocument: 'ropeLens.describeDocument',
  /** Internal: activation timings for the extension-host tests and the benchmark. */
  activationStats: 'ropeLens.activationStats',
} as const;

/** Commands a user can run (contributed in package.json). */
export const CONTRIBUTED_COMMANDS = [COMMANDS.openInspector, COMMANDS.runKernelBenchmarks, COMMANDS.checkAsModelConfig, COMMANDS.planContextExtension] as const;

export const VIEW_TYPES = { inspector: 'ropeLens.inspector', kernelBench: 'ropeLens.kernelBench' } as const;
export const STATUS_ITEM_ID = 'ropeLens.boundStatus';
