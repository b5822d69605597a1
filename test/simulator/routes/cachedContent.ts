import type { Route } from '../types';

/** Endpoints of the cachedContent resource; they arrive with its issue. */
export const cachedContentRoutes: Route[] = [];
