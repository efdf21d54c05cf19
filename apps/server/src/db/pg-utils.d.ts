// node-postgres ships no types for its internal helpers; this is the one the inliner uses.
declare module 'pg/lib/utils.js' {
  const utils: {
    /** A parameter as node-postgres sends it: text, a Buffer for binary, or null. */
    prepareValue(value: unknown): string | Buffer | null | undefined;
  };
  export default utils;
}
