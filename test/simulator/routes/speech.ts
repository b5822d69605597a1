import type { Route } from '../types';

/** Endpoints of the speech resource; they arrive with its issue. */
export const speechRoutes: Route[] = [];
