import { createContext, useContext } from 'react';
import type { LiveStatus } from './live-share.ts';

/**
 * The live stream's state, as the shell's LiveOrdersProvider (live/live.tsx) provides it. Its own small
 * module: the route loader's "No connection" page (app/PageUnavailable.tsx) reads it without bringing
 * the shell's code into the sign-in page's bundle. Outside the shell it stays 'connecting'.
 */
export const LiveContext = createContext<LiveStatus>('connecting');

/** The state of the signed-in user's live order stream (the Dashboard's "Live" dot). */
export const useLiveStatus = () => useContext(LiveContext);
