/**
 * Process resource readings for timings.json (issue #13's per-stage figures): CPU time of the whole
 * process (user + system, every thread — the worker, onnxruntime's threads, the host) and its peak
 * resident set size so far, from `process.resourceUsage()` (getrusage(RUSAGE_SELF)).
 */

/** A reading: `cpuMs` = user + system CPU time since the process started (ms); `peakRssMB` = ru_maxrss (MiB). */
export interface ResourceMark {
  cpuMs: number;
  peakRssMB: number;
}

/** The process's CPU time and peak RSS now. */
export function resourceMark(): ResourceMark {
  const u = process.resourceUsage();
  return { cpuMs: (u.userCPUTime + u.systemCPUTime) / 1000, peakRssMB: u.maxRSS / 1024 };
}

/**
 * What a stage cost between two readings: `cpuMs` spent (ms, rounded to 0.1) and the peak RSS
 * reached by its end (MiB, rounded to 0.1; a high-water mark, so a stage shows at least the peak of
 * the stages before it).
 */
export function resourceSpan(start: ResourceMark, end: ResourceMark = resourceMark()): ResourceMark {
  return { cpuMs: Math.round((end.cpuMs - start.cpuMs) * 10) / 10, peakRssMB: Math.round(end.peakRssMB * 10) / 10 };
}
