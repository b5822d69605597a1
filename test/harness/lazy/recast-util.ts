import { lazy } from './lazy';

export = lazy('recast-util', true);
