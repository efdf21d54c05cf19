import type { ConfigFragment } from './config.ts';
import type {
  ApiKeyAuthenticator,
  AppContext,
  Authenticator,
  CodeListener,
  GatewayDeleteCheck,
  Job,
  Listener,
  LiveRenderers,
  MessageEventListener,
  Registry,
  ReportConsumer,
  SmsConsumer,
  UserHistoryCheck,
} from './context.ts';
import type { App } from './http/types.ts';

/**
 * What a module gives the application, exported from its `index.ts` next to its use cases. The
 * composition root (modules/index.ts) is the only place that reads descriptors.
 */
export interface ModuleDescriptor {
  name: string;
  /** Tables this module owns: only its own SQL reads or writes them (checked by a test). */
  tables: string[];
  /**
   * The settings this module reads (its `<name>.config.ts`), composed with every other owner's into the
   * one schema parsed at start (settings.ts). A module with settings types its descriptor as
   * `ConfiguredModule<typeof itsConfig>`, so that `Config` keeps their types.
   */
  config?: ConfigFragment;
  routes?: (app: App, ctx: AppContext) => void | Promise<void>;
  smsConsumers?: SmsConsumer[];
  reportConsumers?: ReportConsumer[];
  gatewayDeleteChecks?: GatewayDeleteCheck[];
  userHistoryChecks?: UserHistoryCheck[];
  liveRenderers?: LiveRenderers;
  jobs?: Job[];
  listeners?: Listener[];
  codeListeners?: CodeListener[];
  messageEventListeners?: MessageEventListener[];
  authenticate?: Authenticator;
  authenticateApiKey?: ApiKeyAuthenticator;
  apiKeyOf?: Registry['apiKeyOf'];
  verifyReauth?: Registry['verifyReauth'];
  messagePrices?: Registry['messagePrices'];
  secondFactorUsers?: Registry['secondFactorUsers'];
}

/** The descriptor of a module with settings: its type names them, so the composed `Config` has them. */
export type ConfiguredModule<F extends ConfigFragment> = Omit<ModuleDescriptor, 'config'> & { config: F };
