import { type ConfigOf, composeConfig, KERNEL_CONFIG } from './config.ts';
import { MODULES } from './modules/index.ts';

// The composition of the settings: the kernel's and every module's fragment, merged into one schema
// that is parsed once at start. It lives above the modules because the kernel may import none.

const OWNERS = [{ name: 'kernel', config: KERNEL_CONFIG }, ...MODULES] as const;
const composed = composeConfig(OWNERS);

/** Every setting the server reads from the environment, validated once at start. */
export const ConfigSchema = composed.schema;

/** Every setting as the server reads it (`ctx.config`). */
export type Config = ConfigOf<typeof OWNERS>;

/** Parses the environment; a bad value throws a ConfigError listing every problem. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  return composed.load(env);
}
