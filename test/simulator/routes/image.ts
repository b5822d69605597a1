import type { Route } from '../types';

/** Endpoints of the image resource; they arrive with its issue. */
export const imageRoutes: Route[] = [];
