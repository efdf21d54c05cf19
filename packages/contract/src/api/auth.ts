import { z } from 'zod';
import { boundedText, TEXT_LIMITS as L } from '../limits.ts';
import { ruleMessages } from '../messages.ts';
import { ROLES } from '../roles.ts';
import { EMAIL_MAX, PASSWORD_MAX } from '../rules.ts';

// Bounds first (spec texts where the spec has one), then the rules of rules.ts on the server.
export const RegisterBody = z.object({
  username: boundedText(L.loginUsername, 'Username', ruleMessages.usernameFormat),
  email: boundedText(EMAIL_MAX, 'Email', ruleMessages.emailInvalid),
  /** The plain password travels in this field (docs/product.md#calls); the server hashes it. */
  passwordHash: boundedText(PASSWORD_MAX, 'Password', ruleMessages.passwordTooLong),
});
export type RegisterBody = z.infer<typeof RegisterBody>;

export const RegisterResponse = z.object({ code: z.literal(1), msg: z.string() });

export const LoginBody = z.object({
  username: boundedText(L.loginUsername, 'Username'),
  password: boundedText(PASSWORD_MAX, 'Password', ruleMessages.passwordTooLong),
  /** The `deviceToken` an earlier sign-in on this browser returned: exempts it from the per-account limit. */
  deviceToken: z.string().max(128).optional(),
});
export type LoginBody = z.infer<typeof LoginBody>;

/** `deviceToken`: kept by the browser and sent back on later sign-ins (see LoginBody). */
export const LoginResponse = z.object({ token: z.string(), deviceToken: z.string().optional() });
export type LoginResponse = z.infer<typeof LoginResponse>;

/**
 * POST /api/Auth/login: the spec's answer, or, for an account with a second factor on, a challenge
 * to answer with a code (`endpoints.secondFactor.login`) and no token yet. `secondFactorSetup`: the
 * session may only enrol a second factor and read User Info (an admin under REQUIRE_ADMIN_2FA).
 */
export const LoginAnswer = z.union([
  LoginResponse.extend({ secondFactorSetup: z.literal(true).optional() }),
  z.object({
    secondFactor: z.literal(true),
    challenge: z.string(),
    expiresIn: z.number().int(),
    attemptsLeft: z.number().int(),
    deviceToken: z.string().optional(),
  }),
]);
export type LoginAnswer = z.infer<typeof LoginAnswer>;

export const RoleSchema = z.enum(ROLES);

export const UserInfo = z.object({
  username: z.string(),
  email: z.string(),
  createdTime: z.string(),
  apiKey: z.string().nullable(),
  /** USD, two decimals, as a number (docs/product.md#entities). */
  balance: z.number(),
  roles: z.array(RoleSchema),
});
export type UserInfo = z.infer<typeof UserInfo>;

export const ChangePassBody = z.object({
  newPass: boundedText(PASSWORD_MAX, 'New password', ruleMessages.passwordTooLong),
  oldPass: boundedText(PASSWORD_MAX, 'Old password', ruleMessages.passwordTooLong),
  /** Also delete every API key of the account (a stolen key stops working; the user makes new ones). */
  revokeKeys: z.boolean().optional(),
});
export type ChangePassBody = z.infer<typeof ChangePassBody>;

/** A password change ends the user's other sessions: `token` replaces the caller's. */
export const ChangePassResponse = z.object({
  code: z.union([z.literal(0), z.literal(1)]),
  msg: z.string(),
  token: z.string().optional(),
});

/** Claims the server signs into the JWT. `role` is a string for one role, a list for several. */
export const TokenClaims = z.object({
  sub: z.string(),
  username: z.string(),
  role: z.union([z.string(), z.array(z.string())]),
  exp: z.number(),
});
export type TokenClaims = z.infer<typeof TokenClaims>;
