/** How long the configurator's form must rest before it is priced (ms): one call per pause, not per keystroke. */
export const ESTIMATE_DEBOUNCE_MS = 250;
