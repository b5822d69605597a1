import type { Route } from '../types';

/** Endpoints of the message resource; they arrive with its issue. */
export const messageRoutes: Route[] = [];
