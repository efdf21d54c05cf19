import { LoginBody, LoginResponse, RegisterBody, RegisterResponse } from '../api/auth.ts';
import { endpoint } from '../endpoint.ts';

/** Sign-up and sign-in (Login and Register pages). */
export const auth = {
  register: endpoint({
    method: 'POST',
    path: '/api/Auth/register',
    access: 'public',
    tag: 'auth',
    body: RegisterBody,
    response: { 200: RegisterResponse },
  }),
  login: endpoint({
    method: 'POST',
    path: '/api/Auth/login',
    access: 'public',
    tag: 'auth',
    body: LoginBody,
    response: { 200: LoginResponse },
  }),
};
