/** The longest delay a Node.js timer keeps: 2^31 - 1 ms, about 24.8 days. A longer one fires after 1 ms. */
export const MAX_TIMER_MS = 2 ** 31 - 1;
