export {
  CARRIERS,
  type CarrierProfile,
  carrierProfile,
  DEFAULT_CARRIER,
  iccidFor,
  imsiFor,
  numberFor,
  oprText,
} from './carriers.ts';
export { isMain, type OptionKind, type OptionValues, parseOptions, runCli } from './cli.ts';
export { type ControlApi, type ControlRoute, handleControl } from './control.ts';
export {
  BodyTooLarge,
  closeServer,
  hostUrl,
  listen,
  parseJsonObject,
  readBody,
  readBodyOrRefuse,
  type SimReply,
  writeReply,
} from './http.ts';
export { luhnDigit } from './luhn.ts';
export { seededRandom } from './random.ts';
export { Timers } from './timers.ts';
