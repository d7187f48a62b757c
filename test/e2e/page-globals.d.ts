// The browser globals read by code handed to Playwright's page.evaluate and page.waitForFunction,
// which runs in Chromium, not in Node. Typed narrowly, as src/core/loader.ts types WebAssembly: the
// project compiles without the DOM lib, so Node code cannot use a DOM type by mistake.

/** The page's window: each test casts it to what its page puts there (`ntv`, `result`). */
declare const window: object;
declare const location: { readonly href: string; readonly origin: string };
declare const document: {
  readonly body: { readonly dataset: Readonly<Record<string, string | undefined>> };
  readonly documentElement: { readonly scrollWidth: number; readonly clientWidth: number };
  querySelectorAll(selectors: string): { readonly length: number };
};
