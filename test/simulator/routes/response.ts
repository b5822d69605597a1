import type { Route } from '../types';

/** Endpoints of the response resource; they arrive with its issue. */
export const responseRoutes: Route[] = [];
