const sleep = ms => new Promise(r => setTimeout(r, ms));

// Poll `test` every 50 ms for up to `ms`; its last value.
async function until(test, ms) {
  const end = Date.now() + ms;
  for (;;) {
    const v = test();
    if (v || Date.now() > end) return v;
    await sleep(50);
  }
}
