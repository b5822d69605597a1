import type { Route } from '../types';
import { accountRoutes } from './account';
import { cachedContentRoutes } from './cachedContent';
import { imageRoutes } from './image';
import { messageRoutes } from './message';
import { responseRoutes } from './response';
import { speechRoutes } from './speech';
import { videoRoutes } from './video';

/** Every endpoint of the interface, one module per resource. */
export const ROUTES: Route[] = [
	...accountRoutes,
	...imageRoutes,
	...videoRoutes,
	...speechRoutes,
	...messageRoutes,
	...responseRoutes,
	...cachedContentRoutes,
];
