import { type ErrorCode, type RuleMessageKey, ruleMessages } from '@simdock/contract';
import type { enScreens } from './en-screens.ts';
import { appEn } from './screens/app.ts';
import type { publicEn } from './screens/public.ts';

/**
 * The contract's rule messages as `rule.<key>`: the very texts the server answers with (the contract's
 * `ruleMessages` is in the initial bundle anyway, so they are not written twice).
 */
const ruleTexts = Object.fromEntries(
  Object.entries(ruleMessages).map(([k, text]) => [`rule.${k}`, text]),
) as {
  readonly [K in RuleMessageKey as `rule.${K}`]: string;
};

/**
 * The English catalogue: the default language and the source of every key. Texts the spec quotes are
 * kept verbatim. `{name}` marks a parameter filled by `t(key, { name })`. Keys are grouped by screen;
 * add a screen's keys under its own prefix (e.g. `gateways.*`). `vi.ts` must have exactly these keys.
 */
export const en = {
  'app.name': 'SimDock',
  'app.tagline': 'SMS OTP rentals and SMS/MMS messaging',

  // Shared words and component texts.
  'common.pickDate': 'Choose a date',
  'common.loading': 'Loading…',
  'common.saving': 'Saving…',
  'common.processing': 'Processing…',
  'common.cancel': 'Cancel',
  'common.close': 'Close',
  'common.confirm': 'Confirm',
  'common.delete': 'Delete',
  'common.save': 'Save',
  'common.search': 'Search',
  'common.prev': 'Prev',
  'common.next': 'Next',
  'common.pageOf': 'Page {page} / {total}',
  'common.pageSize': 'Rows per page',
  'common.pagination': 'Pagination',
  'common.about': '≈ {n}',
  'common.goToLastPage': 'Go to the last page ({page})',
  'common.goToPage': 'Go to page {page}',
  'common.copy': 'Copy',
  'common.copyValue': 'Copy {value}',
  'common.copied': 'Copied',
  'common.dismiss': 'Dismiss',
  'common.retry': 'Try Again',
  'common.noData': 'Nothing to show yet.',
  'common.sortBy': 'Sort by {column}',
  'common.skipToContent': 'Skip to content',
  'common.lastUpdated': 'Last updated: {date}',
  'common.backToDashboard': 'Back to Dashboard',
  'common.goHome': 'Go to the Home Page',
  'common.goBack': 'Go Back',
  'common.signIn': 'Sign In',
  'common.yes': 'Yes',
  'common.no': 'No',

  // How service calls surface failures.
  'errors.unexpected': 'Unexpected error occurred',
  'errors.unknownApi': 'API request failed with unknown error',
  'errors.pageTitle': 'Something went wrong',
  'errors.pageText': 'This page could not be shown. Reload it, or go back to the dashboard.',
  'errors.reload': 'Reload',
  'errors.userInfo': 'Your account details could not be loaded. Check your connection and try again.',

  // The shell's controls the signed-out pages show too (the rest of the shell: screens/signed-in.ts).
  'nav.logout': 'Logout',
  'shell.language': 'Language',
  'shell.themeToDark': 'Switch to dark theme',
  'shell.themeToLight': 'Switch to light theme',
  'lang.en': 'English',
  'lang.vi': 'Tiếng Việt',

  // The public pages' footer links (the landing and legal pages' texts: screens/public.ts).
  'landing.footer': '© {year} SimDock. All rights reserved.',
  'landing.privacy': 'Privacy Policy',
  'landing.terms': 'Terms of Service',

  // Login (the register page's texts: screens/public.ts).
  'login.title': 'Sign in to SimDock',
  'login.subtitle': 'Welcome back. Enter your username and password.',
  'login.username': 'Username',
  'login.password': 'Password',
  'login.submit': 'Sign In',
  'login.submitting': 'Signing in…',
  'login.forgot': 'Forgot your password?',
  'login.noAccount': 'Don’t have an account?',
  'login.register': 'Create one',
  'login.failed': 'Login failed',
  'login.sfTitle': 'Two-factor authentication',
  'login.sfText': 'Enter the 6-digit code from your authenticator app.',
  'login.sfRecoveryText': 'Enter one of your recovery codes.',
  'login.sfCode': 'Code',
  'login.sfRecoveryCode': 'Recovery code',
  'login.sfUseRecovery': 'Use a recovery code',
  'login.sfUseApp': 'Use the authenticator app',
  'login.sfVerify': 'Verify',
  'login.sfAttemptsLeft': 'The code is not correct. Attempts left: {count}',
  'login.sfBack': 'Back to sign in',
  'login.passwordReset': 'Your password was changed. Sign in with the new one.',
  'login.registered': 'Registration successful. Please Login.',
  // Rule messages from @simdock/contract (ruleMessages): the same texts the server answers with.
  ...ruleTexts,

  // Error pages.
  'unauthorized.title': 'You don’t have access to this page',
  'unauthorized.text':
    'Your account does not have the role this page needs. If you think this is a mistake, ask an administrator to check your roles.',
  'notFound.title': 'Page not found',
  'notFound.text': 'The address may be mistyped, or the page has moved.',

  ...appEn,
} as const;

/**
 * Every key: the ones above (in the initial bundle: the app, login, register, errors, footer) and the
 * texts loaded with the pages that use them: the signed-in screens' (en-screens.ts) and the landing and
 * legal pages' (screens/public.ts). See `loadTexts` in index.tsx.
 */
export type MessageKey = keyof typeof en | keyof typeof enScreens | keyof typeof publicEn;

/**
 * Every rule message key of the contract must have a text here: this line fails to typecheck otherwise.
 */
export type RuleKeysCovered = `rule.${RuleMessageKey}` extends MessageKey ? true : never;
/** @public exported only so that the check is not an unused local. */
export const ruleKeysCovered: RuleKeysCovered = true;

/**
 * Every error code of the contract (`ERROR_CODES`) must have a text (`errorCode.<code>`, screens/error-codes.ts):
 * this line fails to typecheck otherwise. The message of a failed call falls back on it (i18n/server-messages.ts).
 */
export type ErrorCodesCovered = `errorCode.${ErrorCode}` extends MessageKey ? true : never;
/** @public exported only so that the check is not an unused local. */
export const errorCodesCovered: ErrorCodesCovered = true;
