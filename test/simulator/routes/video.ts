import type { Route } from '../types';

/** Endpoints of the video resource; they arrive with its issue. */
export const videoRoutes: Route[] = [];
