// Encore features this app does not use and the local runtime therefore does not implement.
export function unsupported(what: string): Error {
  return new Error(`the local runtime does not support ${what}; run the app with the Encore CLI (encore run)`);
}
