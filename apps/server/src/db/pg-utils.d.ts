// node-postgres's value conversion (what it does to each parameter at a Bind), not in its types.
declare module 'pg/lib/utils.js' {
  const utils: { prepareValue(value: unknown): unknown };
  export default utils;
}
