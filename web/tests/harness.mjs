// A minimal test runner for the browser test: named checks run in order, each one's failure
// reported with its message, and a closing `N passed, N failed` line.

const results = [];

export async function check(name, body) {
  try {
    await body();
    results.push({ name, ok: true });
    console.log(`ok   ${name}`);
  } catch (error) {
    results.push({ name, ok: false });
    console.log(`FAIL ${name}\n     ${String(error.message ?? error).replaceAll('\n', '\n     ')}`);
  }
}

export function expect(condition, message) {
  if (!condition) throw new Error(message);
}

export function expectNear(actual, expected, tolerance, what) {
  expect(Number.isFinite(actual) && Math.abs(actual - expected) <= tolerance,
    `${what}: ${actual} is not within ${tolerance} of ${expected}`);
}

// Prints the summary and returns the process exit code.
export function summary() {
  const failed = results.filter((r) => !r.ok).length;
  console.log(`${results.length - failed} passed, ${failed} failed`);
  return failed === 0 && results.length > 0 ? 0 : 1;
}
