import type { Gateway } from '@simdock/contract';
import type { ReactNode } from 'react';
import { Button } from '../../components/Button.tsx';
import { CopyButton } from '../../components/CopyButton.tsx';
import { Modal } from '../../components/Modal.tsx';
import { useI18n } from '../../i18n/index.tsx';
import { cx } from '../../lib/cx.ts';
import { goipLineId } from './kinds.ts';

/**
 * What the operator sets on the device, by kind: the push URLs of an Ejoin box or a phone, or, for a
 * GoIP box (whose lines connect to SimDock), the SMS server and the lines' IDs. `password`: the one
 * just typed, when known (the stored one is never returned).
 */
export function DeviceSettings({ gateway, password }: { gateway: Gateway; password?: string }) {
  return gateway.kind === 'goip' ? (
    <GoipBoxSettings gateway={gateway} password={password} />
  ) : (
    <PushUrls gateway={gateway} />
  );
}

/**
 * Where the device must push. A box: three URLs (Scan sets them on it; a box set up by hand needs
 * them). A phone: one webhook URL, which SimDock registers on the phone for each event at Scan.
 */
function PushUrls({ gateway }: { gateway: Gateway }) {
  const { t } = useI18n();
  const urls = gateway.pushUrls;
  const phone = gateway.kind === 'smsgate';
  const rows: [string, string][] = phone
    ? [[t('gateways.pushWebhook'), urls.base]]
    : [
        [t('gateways.pushStatus'), urls.status],
        [t('gateways.pushSms'), urls.sms],
        [t('gateways.pushReport'), urls.report],
      ];
  return (
    <SettingsSection
      id="gateway-push-urls"
      title={phone ? t('gateways.pushUrlPhone') : t('gateways.pushUrls')}
      hint={phone ? t('gateways.pushUrlPhoneHint') : t('gateways.pushUrlsHint')}
    >
      {rows.map(([label, url]) => (
        <SettingRow key={label} label={label} value={url} />
      ))}
    </SettingsSection>
  );
}

/**
 * The values typed into a GoIP box's SMS server settings: SimDock's host and UDP port, each line's
 * ID (the box's ID followed by the line number) and the lines' password.
 */
function GoipBoxSettings({ gateway, password }: { gateway: Gateway; password?: string }) {
  const { t } = useI18n();
  const server = gateway.deviceServer;
  // Nothing to enter on a box SimDock reads through its web pages.
  if (!server || gateway.mode === 'web') return null;
  const id = gateway.userName;
  const typed = password?.trim() ? password : undefined;
  return (
    <SettingsSection
      id="gateway-goip-settings"
      title={t('gateways.goipSettings')}
      hint={t('gateways.goipSettingsHint')}
    >
      <SettingRow label={t('gateways.goipServer')} value={server.host} />
      <SettingRow label={t('gateways.goipServerPort')} value={String(server.port)} />
      {[1, 2].map((line) => (
        <SettingRow key={line} label={t('gateways.goipLineId', { line })} value={goipLineId(id, line)} />
      ))}
      <SettingRow
        label={t('gateways.goipLineIdN')}
        note={t('gateways.goipLineIdMore', { next: goipLineId(id, 3), id })}
      />
      {typed ? (
        // Shown as dots: the copy button gives it to the box's page without putting it on screen.
        <SettingRow
          label={t('gateways.password')}
          value={typed}
          display={'•'.repeat(Math.min(typed.length, 12))}
          copyName={t('gateways.password')}
        />
      ) : (
        <SettingRow label={t('gateways.password')} note={t('gateways.goipPasswordSaved')} />
      )}
    </SettingsSection>
  );
}

function SettingsSection({
  id,
  title,
  hint,
  children,
}: {
  id: string;
  title: string;
  hint: string;
  children: ReactNode;
}) {
  return (
    <section className="mt-5 border-t border-line pt-4" aria-labelledby={id}>
      <h3 id={id} className="text-[13px] font-semibold text-fg">
        {title}
      </h3>
      <p className="mt-0.5 text-xs text-muted">{hint}</p>
      {/* One grid for every row (subgrid): the labels share the width of the longest. */}
      <dl className="mt-2.5 grid grid-cols-[auto_minmax(0,1fr)_auto] gap-y-2">{children}</dl>
    </section>
  );
}

/** One value to enter on the device, with its copy button; or, without a value, a note in its place. */
function SettingRow({
  label,
  value,
  display,
  copyName,
  note,
}: {
  label: string;
  value?: string;
  /** What is shown, when not the value itself. */
  display?: string;
  /** How the copy button names the value, when not by the value itself. */
  copyName?: string;
  note?: string;
}) {
  return (
    <div className="col-span-3 grid grid-cols-subgrid items-start gap-x-3 rounded-md bg-subtle/70 px-2.5 py-1.5">
      <dt className="pt-0.5 text-xs font-medium text-muted">{label}</dt>
      <dd
        className={cx(
          'min-w-0 pt-0.5 text-xs',
          // A URL or an ID breaks anywhere (they have no spaces); a note between words.
          value === undefined ? 'break-words italic text-muted' : 'break-all font-mono text-fg',
        )}
        data-value={value}
      >
        {value === undefined ? note : (display ?? value)}
      </dd>
      <dd>{value === undefined ? null : <CopyButton value={value} name={copyName} />}</dd>
    </div>
  );
}

/**
 * After a GoIP box is added: what to enter on it, while the password just typed is still known.
 * Its lines then report their SIMs by themselves (no Scan).
 */
export function GoipSetupDialog({
  gateway,
  password,
  onClose,
}: {
  gateway: Gateway;
  password: string;
  onClose: () => void;
}) {
  const { t } = useI18n();
  return (
    <Modal
      open
      title={t('gateways.goipSetupTitle', { name: gateway.name })}
      onClose={onClose}
      size="lg"
      footer={
        <Button variant="primary" data-autofocus onClick={onClose}>
          {t('gateways.goipSetupDone')}
        </Button>
      }
    >
      <p className="text-[13px] text-fg">{t('gateways.goipSetupText')}</p>
      <DeviceSettings gateway={gateway} password={password} />
    </Modal>
  );
}
