// The e2e run's verdict, apart from code-server so a unit test can check it
// (test/unit/scripts/e2e-outcome.test.ts): a run in which no scenario ran is a failure (#16 item 24) —
// a SPANPROOF_E2E_ONLY that matches nothing, or an empty scenarios folder, must not look green.

/**
 * @param {{ ok: boolean }[]} results one entry per scenario (and per extra `report` line)
 * @returns {{ code: 0 | 1, line: string }} the exit status and the final summary line
 */
export function e2eOutcome(results) {
  const passed = results.filter((r) => r.ok).length;
  const failed = results.length - passed;
  if (results.length === 0) return { code: 1, line: '0 passed, 0 failed — no scenario ran (check SPANPROOF_E2E_ONLY and test/e2e/scenarios)' };
  return { code: failed ? 1 : 0, line: `${passed} passed, ${failed} failed` };
}
