/**
 * A small interleaving benchmark harness for a noisy shared VM.
 *
 * Cases come in groups: a baseline and what is compared with it. Within a group, every case runs
 * one short batch per round (about `batchMs` of CPU, at least one operation), and rounds alternate
 * forward and reverse order (A B … B A …), so load changes on the VM and order effects hit both
 * sides of a comparison alike. A group runs rounds until its CPU budget is spent: hundreds of
 * rounds, so medians are stable even when single batches are not.
 *
 * Each batch is timed twice: wall clock (`process.hrtime`) and the process's CPU time
 * (`process.cpuUsage`, user + system, all threads, so GC helper threads count too). On a shared VM
 * with more runnable processes than cores, wall time mostly measures how often the scheduler
 * preempted a batch; CPU time measures the work. A case's figure is the median of its per-round
 * µs/op; a ratio is the median of the per-round ratios (case ÷ baseline, same round).
 *
 * No forced GC between batches: a full `gc()` makes V8 age and flush code, and the next batch then
 * measures a cold reader, several times slower for the asserted envelope read.
 */

/** One benchmark case. `run(i)` performs one operation on the i-th pool item and returns a value to sink. */
export interface BenchCase {
  /** Unique short id, used to name baselines. */
  readonly id: string;
  /** Human-readable label for the table. */
  readonly label: string;
  /** The id of the case (in the same group) this one is compared against, if any. */
  readonly baseline?: string;
  /**
   * Multiplies this case's ratios to its baseline (default 1): the baseline's input size ÷ this
   * case's makes the ratio one of time per byte when the two inputs differ in size.
   */
  readonly scale?: number;
  /** One operation. */
  readonly run: (i: number) => unknown;
}

/** Cases measured together, interleaved. */
export interface BenchGroup {
  /** Group title. */
  readonly title: string;
  /** Its cases. */
  readonly cases: readonly BenchCase[];
  /** CPU budget of the timed rounds, in ms. */
  readonly budgetMs: number;
  /**
   * Cold mode: every batch is one operation, preceded (untimed) by a sweep over a buffer larger than
   * the CPU caches — a prompt reaching an agent that was busy with something else. Single operations
   * of a few µs are below `process.cpuUsage` resolution, so cold groups are judged on wall clock.
   */
  readonly cold?: boolean;
}

/** Harness settings. */
export interface BenchOptions {
  /** Target CPU time of one batch, in ms (a batch runs at least one operation). */
  readonly batchMs: number;
  /** Warm-up CPU time per case, in ms. */
  readonly warmupMs: number;
  /** Multiplies every group's budget. */
  readonly budgetScale: number;
}

/** What the harness measured for one case. */
export interface BenchResult {
  readonly id: string;
  readonly label: string;
  readonly group: string;
  readonly baseline: string | undefined;
  /** Operations per batch. */
  readonly opsPerBatch: number;
  /** Timed rounds. */
  readonly rounds: number;
  /** Per-round CPU µs per operation, in round order. */
  readonly cpuUs: readonly number[];
  /** Per-round wall-clock µs per operation, in round order. */
  readonly wallUs: readonly number[];
  /** Median CPU µs per operation. */
  readonly medianCpuUs: number;
  /** Median wall-clock µs per operation. */
  readonly medianWallUs: number;
  /** Per-round CPU-time ratios against the baseline (same round), when there is a baseline. */
  readonly cpuRatios: readonly number[];
  /** Per-round wall-clock ratios against the baseline (same round), when there is a baseline. */
  readonly wallRatios: readonly number[];
  /** Median of `cpuRatios`, or `undefined`. */
  readonly medianCpuRatio: number | undefined;
  /** Median of `wallRatios`, or `undefined`. */
  readonly medianWallRatio: number | undefined;
  /** Which clock the group is judged on (`wall` for cold groups). */
  readonly clock: 'cpu' | 'wall';
}

let sink = 0;

function consume(value: unknown): void {
  // Cheap, data-dependent use of every result so no operation can be optimized away.
  if (value === null || value === undefined) sink ^= 1;
  else if (typeof value === 'object') sink ^= Array.isArray(value) ? value.length : 3;
  else if (typeof value === 'boolean') sink ^= value ? 5 : 7;
  else if (typeof value === 'number') sink ^= value | 0;
  else sink ^= 11;
}

function cpuNowUs(): number {
  const used = process.cpuUsage();
  return used.user + used.system;
}

/** Times one batch; returns [wall µs, CPU µs] for the whole batch. */
function timeBatch(run: (i: number) => unknown, ops: number, offset: number): [number, number] {
  const cpu = cpuNowUs();
  const start = process.hrtime.bigint();
  for (let k = 0; k < ops; k++) consume(run(offset + k));
  const end = process.hrtime.bigint();
  return [Number(end - start) / 1000, cpuNowUs() - cpu];
}

/** Runs operations for `ms` of CPU time, and returns how many ran. */
function runFor(run: (i: number) => unknown, ms: number): number {
  const start = cpuNowUs();
  let ops = 0;
  do {
    consume(run(ops++));
  } while (cpuNowUs() - start < ms * 1000);
  return ops;
}

const SWEEP = new Float64Array(4 << 20); // 32 MiB: beyond any L2/L3 share on this class of VM

/** Touches every cache line of a large buffer, evicting the caller's working set. */
function sweepCaches(): void {
  let sum = 0;
  for (let i = 0; i < SWEEP.length; i += 8) {
    SWEEP[i] = (SWEEP[i] ?? 0) + 1;
    sum += SWEEP[i] ?? 0;
  }
  sink ^= sum & 1;
}

/** Median of a non-empty list. */
export function median(values: readonly number[]): number {
  return quantile(values, 0.5);
}

/** The p-th quantile (0..1) of a non-empty list, by linear interpolation. */
export function quantile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (sorted.length - 1) * p;
  const lo = Math.floor(at);
  const hi = Math.ceil(at);
  const a = sorted[lo] ?? Number.NaN;
  const b = sorted[hi] ?? Number.NaN;
  return a + (b - a) * (at - lo);
}

/** Calibrates, warms up and times one group, interleaved. */
function runGroup(group: BenchGroup, options: BenchOptions, progress: (message: string) => void): BenchResult[] {
  const { cases } = group;
  const ids = new Set(cases.map((c) => c.id));
  for (const c of cases) {
    if (c.baseline !== undefined && !ids.has(c.baseline)) throw new Error(`unknown baseline ${c.baseline} of ${c.id}`);
  }
  // The cost of reading both clocks around an empty batch, subtracted from every batch.
  const empty: number[] = [];
  for (let k = 0; k < 200; k++) empty.push(timeBatch(() => 0, 1, 0)[1]);
  const clockCpuUs = median(empty);
  // Warm-up doubles as calibration: ops per batch from the second half of the warm-up.
  const opsPerBatch = cases.map((c) => {
    runFor(c.run, options.warmupMs / 2);
    const ops = runFor(c.run, options.warmupMs / 2);
    progress(`${group.title}: warm ${c.id}`);
    return group.cold === true ? 1 : Math.max(1, Math.round((ops / (options.warmupMs / 2)) * options.batchMs));
  });
  const wall: number[][] = cases.map(() => []);
  const cpu: number[][] = cases.map(() => []);
  const budgetUs = group.budgetMs * options.budgetScale * 1000;
  const started = cpuNowUs();
  let offset = 0;
  let round = 0;
  while (cpuNowUs() - started < budgetUs || round < 5) {
    for (let n = 0; n < cases.length; n++) {
      const index = round % 2 === 0 ? n : cases.length - 1 - n;
      const c = cases[index];
      if (c === undefined) continue;
      const ops = opsPerBatch[index] ?? 1;
      if (group.cold === true) sweepCaches();
      const [wallUs, cpuUs] = timeBatch(c.run, ops, offset);
      wall[index]?.push(wallUs / ops);
      cpu[index]?.push(Math.max(0, cpuUs - clockCpuUs) / ops);
      offset += ops;
    }
    round++;
    if (round % 50 === 0) progress(`${group.title}: round ${String(round)}`);
  }
  const ratiosOf = (times: number[][], c: BenchCase, index: number): number[] => {
    const own = times[index] ?? [];
    const base = c.baseline === undefined ? undefined : times[cases.findIndex((x) => x.id === c.baseline)];
    const scale = c.scale ?? 1;
    return base === undefined ? [] : own.map((value, r) => (scale * value) / (base[r] ?? Number.NaN));
  };
  return cases.map((c, index) => {
    const cpuRatios = ratiosOf(cpu, c, index);
    const wallRatios = ratiosOf(wall, c, index);
    return {
      id: c.id,
      label: c.label,
      group: group.title,
      baseline: c.baseline,
      opsPerBatch: opsPerBatch[index] ?? 0,
      rounds: round,
      cpuUs: cpu[index] ?? [],
      wallUs: wall[index] ?? [],
      medianCpuUs: median(cpu[index] ?? []),
      medianWallUs: median(wall[index] ?? []),
      cpuRatios,
      wallRatios,
      medianCpuRatio: cpuRatios.length === 0 ? undefined : median(cpuRatios),
      medianWallRatio: wallRatios.length === 0 ? undefined : median(wallRatios),
      clock: group.cold === true ? 'wall' : 'cpu',
    };
  });
}

function ignore(): void {
  // No progress output.
}

/** Runs every group in turn. */
export function runBench(
  groups: readonly BenchGroup[],
  options: BenchOptions,
  progress?: (message: string) => void,
): BenchResult[] {
  const results = groups.flatMap((group) => runGroup(group, options, progress ?? ignore));
  if (sink === 0.5) console.log('unreachable');
  return results;
}
